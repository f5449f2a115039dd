//! What each fuzz target does with one input: the functions it calls and the
//! properties it asserts. Shared, through `#[path]`, by the targets in
//! `fuzz/fuzz_targets/` and by `tests/it/fuzz_regressions.rs`, which replays
//! the kept corpora and the crashes through exactly this code.

use std::path::{Component, Path};
use std::sync::LazyLock;

use folio::Config;
use folio::model::doc::{Kind, Source};
use folio::model::url;
use folio::plan::OutputPath;
use folio::plugin::{Document, Plugins};
use folio::source::parse::{self, Parsed};
use folio::source::shortcodes::Shortcodes;
use folio::source::{dates, markdown};

/// A site with a base path, a time zone with daylight saving and a
/// permalink that uses every field, so that the URL and date code all runs.
const SITE: &str = r#"
title = "Fuzz"
base_url = "https://example.org/blog/"
default_language = "en"
timezone = "Europe/Paris"
permalink = "/{lang}/{year}/{month}/{day}/{section}/{slug}/"
post_sections = ["posts", "blog"]

[languages.en]
name = "English"

[languages.fr]
name = "Français"

[languages.ja]
name = "日本語"

# Every formula of the input goes through the math renderer.
[math]
enabled = true
"#;

static CONFIG: LazyLock<Config> =
    LazyLock::new(|| Config::parse(SITE, Path::new("site.toml")).expect("the fuzz site.toml"));

/// A post whose file name gives a date, and a page in a section of a
/// language other than the default.
static SOURCES: LazyLock<Vec<Source>> = LazyLock::new(|| {
    ["posts/2024-05-01-hello.md", "fr/about/team.md"]
        .iter()
        .map(|rel| {
            let mut source =
                folio::source::discover::classify(rel, &CONFIG).expect("a fuzz source");
            source.path = format!("content/{rel}");
            source
        })
        .collect()
});

static PLUGINS: Plugins = Plugins::new();

/// Two shortcodes, one around a body: calls in the input are read,
/// rendered and put back.
static SHORTCODES: LazyLock<Shortcodes> = LazyLock::new(|| {
    Shortcodes::new(
        [
            (
                "shortcodes/note.html",
                "<aside>{{ title if title }}{{ body if body }}</aside>",
            ),
            (
                "shortcodes/youtube.html",
                "<iframe src=\"{{ id }}\"></iframe>",
            ),
        ]
        .into_iter()
        .map(|(name, text)| (name.to_owned(), text.to_owned())),
        "fuzz".into(),
    )
});

/// `front_matter_markdown`: the bytes as a whole source file (front matter
/// and Markdown), then as a Markdown body alone.
pub(super) fn front_matter_markdown(bytes: &[u8]) {
    let config = &*CONFIG;
    for source in SOURCES.iter() {
        let hash = folio::model::hash::source_hash(bytes);
        if let Ok(parsed) = parse::parse(source, bytes, hash, (config, &PLUGINS, &SHORTCODES)) {
            check_parsed(config, source, bytes, &parsed);
        }
    }
    let text = String::from_utf8_lossy(bytes);
    // Every fence is highlighted and every formula rendered: its info
    // string, code and TeX are the input's.
    let _ = markdown::render_body(&text, &config.markup);
    let _ = markdown::summary_and_outline(&text, 1, &config.markup);
    if let Some(line) = text.lines().next()
        && let Ok((ms, _)) = dates::parse_date(line, config)
    {
        // Any date the reader gives can be put in a post's URL.
        let url = parse::document_url(config, Kind::Post, "fr", "posts/x", "x", ms);
        assert!(url.starts_with("/blog/fr/"), "{url}");
    }
}

fn check_parsed(config: &Config, source: &Source, bytes: &[u8], parsed: &Parsed) {
    let record = &parsed.record;
    assert!(parsed.body.holds(bytes));
    // The body found again from the front matter is the one parsed.
    let document = Document::new(&source.path, &source.lang);
    let render = (config, &*SHORTCODES);
    let at_start = parse::body_html(
        bytes,
        Some(parsed.body.start),
        (&PLUGINS, &document),
        render,
    );
    let again = parse::body_html(bytes, None, (&PLUGINS, &document), render);
    assert_eq!(at_start, again);
    // The slug is one normalize_slug accepts, unchanged.
    assert_eq!(
        url::normalize_slug(&record.slug).as_deref(),
        Ok(record.slug.as_str())
    );
    assert!(!record.title.trim().is_empty());
    // Every URL is under the base path; each one folio made itself (not a
    // written `permalink`, which may decode to a NUL) has an output file.
    for url in std::iter::once(&record.url).chain(&record.aliases) {
        assert!(url.starts_with("/blog/"), "{url}");
        let output = config.site_path(url).and_then(OutputPath::for_url);
        if let Some(output) = &output {
            check_output_path(output.as_str());
        }
        assert!(output.is_some() || url.contains("%00"), "{url}");
    }
}

/// `slug_url`: the text as a slug, a tag, a heading, a URL path, a segment,
/// a pattern and an output path.
pub(super) fn slug_url(bytes: &[u8]) {
    let text = String::from_utf8_lossy(bytes);
    let text = text.as_ref();

    if let Ok(slug) = url::normalize_slug(text) {
        assert!(!slug.is_empty() && !slug.starts_with('.'), "{slug:?}");
        assert!(slug.len() <= 200);
        assert!(
            !slug.contains(['/', '\\']) && !slug.chars().any(char::is_whitespace),
            "{slug:?}"
        );
        assert_eq!(
            url::normalize_slug(&slug).as_deref(),
            Ok(slug.as_str()),
            "not idempotent"
        );
        // A slug it accepts always gives a post and a page a file to be.
        let config = &*CONFIG;
        for (kind, key) in [(Kind::Post, "posts/x"), (Kind::Page, "about/x")] {
            let url = parse::document_url(config, kind, "fr", key, &slug, 1_714_546_800_000);
            let output = config.site_path(&url).and_then(OutputPath::for_url);
            let output = output.unwrap_or_else(|| panic!("no output for {url}"));
            check_output_path(output.as_str());
            assert!(output.as_str().ends_with("/index.html"));
        }
    }

    let tag = url::tag_slug(text);
    assert!(!tag.is_empty());
    assert!(!tag.contains(['/', '\\', '?', '#', '%']), "{tag:?}");
    assert!(
        !tag.starts_with(['.', '-']) && !tag.ends_with(['.', '-']),
        "{tag:?}"
    );

    let id = url::heading_id(text);
    assert!(!id.is_empty());
    assert!(
        !id.starts_with('-') && !id.ends_with('-') && !id.contains("--"),
        "{id:?}"
    );
    assert!(!id.contains(['/', '"', '<', '&', ' ', '#']), "{id:?}");

    let encoded = url::encode_segment(text);
    assert!(encoded.is_ascii() && !encoded.contains('/'));
    assert_eq!(url::decode_segment(&encoded).as_deref(), Some(text));
    let _ = url::decode_segment(text);

    if let Some(path) = url::written_path(text) {
        assert!(path.starts_with('/') && !path.contains("//"), "{path:?}");
        assert_eq!(
            url::written_path(&path).as_deref(),
            Some(path.as_str()),
            "not idempotent"
        );
        match OutputPath::for_url(&path) {
            Some(output) => check_output_path(output.as_str()),
            None => assert!(path.contains("%00"), "no output for {path}"),
        }
    }

    let collapsed = url::collapse_slashes(text);
    assert!(!collapsed.contains("//"));
    assert_eq!(url::collapse_slashes(&collapsed), collapsed);
    assert_eq!(collapsed.replace('/', ""), text.replace('/', ""));

    // Braces nobody fills are kept as written; filled ones are replaced.
    let mut kept = String::new();
    url::fill_placeholders(text, &mut kept, |_, _| false);
    assert_eq!(kept, text);
    let mut filled = String::new();
    url::fill_placeholders(text, &mut filled, |name, out| {
        out.push_str(&name.len().to_string());
        true
    });

    if let Some(output) = OutputPath::new(text) {
        check_output_path(output.as_str());
    }
    if let Some(output) = OutputPath::for_url(text) {
        check_output_path(output.as_str());
    }
}

/// A path relative to the output folder that cannot leave it.
fn check_output_path(path: &str) {
    assert!(!path.is_empty() && !path.starts_with('/'), "{path:?}");
    assert!(!path.contains(['\\', '\0']), "{path:?}");
    assert!(
        Path::new(path)
            .components()
            .all(|c| matches!(c, Component::Normal(_))),
        "{path:?}"
    );
    assert!(
        path.split('/')
            .all(|s| !s.is_empty() && s != "." && s != ".."),
        "{path:?}"
    );
}

/// `site_toml`: the text as a `site.toml`, then the rules derived from it.
pub(super) fn site_toml(bytes: &[u8]) {
    let Ok(text) = std::str::from_utf8(bytes) else {
        return;
    };
    let Ok(config) = Config::parse(text, Path::new("site.toml")) else {
        return;
    };
    assert!(config.is_language(&config.default_language));
    assert!(config.paginate >= 1 && config.feed_limit >= 1);
    assert!(!config.base_url.ends_with('/'));
    assert_eq!(
        format!("{}{}", config.origin, config.base_path),
        config.base_url
    );
    let ordered: Vec<&String> = config.ordered_languages().map(|(code, _)| code).collect();
    assert_eq!(ordered.len(), config.languages.len());
    assert_eq!(ordered[0], &config.default_language);
    for code in config.language_codes() {
        assert!(folio::source::config::is_language_code(&code), "{code:?}");
        let root = config.language_root(&code);
        assert!(
            root.starts_with(&config.base_path) && root.ends_with('/'),
            "{root}"
        );
        assert!(config.site_path(&root).is_some(), "{root}");
        let _ = config.title_in(&code);
        let _ = folio::source::config::text_direction(&code);
        for section in &config.post_sections {
            assert!(!section.is_empty() && !section.contains(['/', '\\']));
            let key = format!("{section}/hello");
            for kind in [Kind::Post, Kind::Page] {
                for ms in [0, 1_714_546_800_000, i64::MAX] {
                    let url = parse::document_url(&config, kind, &code, &key, "hello", ms);
                    let _ = config.site_path(&url).and_then(OutputPath::for_url);
                }
            }
        }
    }
    // Dates read in its time zone: a gap, a fold, the ends of the range.
    for date in [
        "2024-03-31T02:30:00",
        "2024-10-27T02:30:00",
        "-009999-01-01",
        "9999-12-31T23:59:59",
    ] {
        let _ = dates::parse_date(date, &config);
    }
}
