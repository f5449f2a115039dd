//! Jekyll: `_config.yml`, the `_posts` folders (GitHub Pages' generator),
//! pages and collections, with the front matter as Jekyll's lenient YAML
//! reader took it.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use serde_json::Value;

use super::carried::Carried;
use super::feeds::{self, OldFeeds};
use super::jekyll_files::{Files, Kind, collection_url, page_url};
use super::jekyll_liquid::JekyllSite;
use super::kramdown::{attribute_lists, markdown_in_html};
use super::kramdown_tables;
use super::liquid;
use super::repeats::drop_repeated_keys;
use super::statics::copy_file;
use super::{
    Destination, ImportReport, READ_FIELDS, SiteSettings, Source, checked_language,
    count_template_tags, language_code, scalar_text, yaml_map,
};
use super::{aliases_of, titleize_slug};
use crate::model::error::Error;
use crate::model::url::collapse_slashes;

/// One post, page or collection document as Jekyll keeps it.
struct JekyllPost {
    /// Relative to the source folder.
    path: String,
    kind: Kind,
    lang: String,
    date: String,
    slug: String,
    /// The front matter lines, without the `---` lines.
    front: Vec<String>,
    /// The front matter read, with its `url`: Liquid's `page`.
    page: Value,
    body: String,
    /// The line ending the file uses.
    newline: &'static str,
    url: String,
    has_permalink: bool,
    /// What links it to its translations (its `ref` or `name`, as
    /// multilingual Jekyll sites set them), when its language has no other
    /// post with that value.
    translation: Option<String>,
}

pub(super) fn jekyll(source: &Source, into: &Destination) -> Result<ImportReport, Error> {
    let config = JekyllConfig::read(source)?;
    let mut report = ImportReport::default();
    let mut posts = Vec::new();
    let found = config.files.documents(source)?;
    for file in &found.templates {
        let why = "Jekyll ran it through Liquid and it is no page (a feed's, a sitemap's or a stylesheet's template): folio writes its own feeds and sitemap".to_owned();
        report.left_out.push((source.relative(file), why));
    }
    for (file, kind) in found.documents {
        let stem = file
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or_default();
        // Jekyll publishes only the files of `_posts` named with a date.
        if kind == Kind::Post && split_date(stem).0.is_empty() {
            let why = "no date in its name: Jekyll did not publish it".to_owned();
            report.left_out.push((source.relative(&file), why));
            continue;
        }
        posts.push(read_post(source, (&file, kind), &config, &mut report)?);
    }
    give_distinct_slugs(&mut posts, &mut report);
    link_translations(&mut posts, &mut report);
    let mut languages: BTreeSet<String> = posts.iter().map(|p| p.lang.clone()).collect();
    languages.insert(config.default_language.clone());
    report.languages = std::iter::once(config.default_language.clone())
        .chain(
            languages
                .into_iter()
                .filter(|l| *l != config.default_language),
        )
        .collect();
    let mut site = JekyllSite::read(source, &config.yaml)?;
    let navigation = site.data("navigation");
    let settings = SiteSettings {
        generator: "Jekyll",
        title: config.title.clone(),
        base_url: config.base_url.clone(),
        default_language: config.default_language.clone(),
        timezone: config.timezone.clone(),
        post_sections: vec!["posts".into()],
        anchors_warn: false,
        feeds: config.feeds.clone(),
        carried: Carried::jekyll(&config.yaml, navigation.as_ref()),
        ascii_terms: false,
    };
    let site_toml = settings.site_toml(&report.languages);
    into.write(&["site.toml"], &site_toml, "_config.yml")?;
    let mut taken = BTreeSet::new();
    let places: Vec<Vec<String>> = posts
        .iter()
        .map(|post| place_of(post, &mut taken))
        .collect();
    for (post, place) in posts.iter().zip(&places) {
        let link = place[1..].join("/");
        // `{% post_url 2010-09-09-name %}` names a post by its file's name,
        // under `_posts/` (`en/2010-…` in a folder of it).
        if post.kind == Kind::Post
            && let Some((_, under)) = post.path.split_once("_posts/")
        {
            let stem = under.rsplit_once('.').map_or(under, |(stem, _)| stem);
            site.documents.insert(stem.to_owned(), link.clone());
        }
        site.documents.insert(post.path.clone(), link);
    }
    for post in &mut posts {
        run_liquid(post, &site, &mut report);
    }
    for (post, place) in posts.iter().zip(places) {
        write_post(into, post, &place)?;
        // Jekyll left a future post out: it served no URL.
        if !report.drafted.iter().any(|(file, _)| *file == post.path) {
            report.served_at(&post.path, &post.url, &aliases_of(&post.page));
        }
        let count = match post.kind {
            Kind::Post => &mut report.posts,
            _ => &mut report.pages,
        };
        *count.entry(post.lang.clone()).or_default() += 1;
        if !post.has_permalink {
            report.permalinks_written += 1;
        }
    }
    for file in &found.statics {
        let rel = source.relative(file);
        copy_file(source, file, (into, &["static"], &rel), &mut report)?;
    }
    // Jekyll has one home; a language's own is a page of the site.
    report.homes_served("_config.yml", vec!["/".to_owned()], config.feeds.as_ref());
    Ok(report)
}

/// What folio takes from `_config.yml`.
struct JekyllConfig {
    title: String,
    base_url: String,
    permalink: String,
    default_language: String,
    timezone: Option<String>,
    feeds: Option<OldFeeds>,
    files: Files,
    /// `_config.yml` as read: Liquid's `site`.
    yaml: Value,
    /// `defaults`: the values each scope (a path, a type) gives the
    /// documents in it that do not set them.
    defaults: Vec<Value>,
}

impl JekyllConfig {
    fn read(source: &Source) -> Result<JekyllConfig, Error> {
        let path = source.root().join("_config.yml");
        let text = source.read(&path)?;
        let yaml = yaml_map(&text).ok_or_else(|| Error::Config {
            path: path.clone(),
            line: None,
            message: "does not parse as YAML".into(),
            help: "fix _config.yml so that Jekyll itself would read it".into(),
        })?;
        let text_of = |key: &str| yaml.get(key).and_then(|v| v.as_str()).map(str::to_owned);
        // `lang` in the defaults of every path, as Jekyll sites set it.
        let default_lang = yaml
            .get("defaults")
            .and_then(|d| d.as_array())
            .into_iter()
            .flatten()
            .find_map(|d| d.get("values")?.get("lang")?.as_str().map(str::to_owned));
        let permalink = text_of("permalink").unwrap_or_else(|| "date".to_owned());
        let (key, default_language) = [
            ("default_lang", text_of("default_lang")),
            ("lang", text_of("lang")),
        ]
        .into_iter()
        .chain([("defaults: values: lang", default_lang)])
        .find_map(|(key, lang)| Some((key, lang?)))
        .unwrap_or(("lang", "en".to_owned()));
        Ok(JekyllConfig {
            title: text_of("title").unwrap_or_else(|| "Imported blog".to_owned()),
            base_url: format!(
                "{}{}",
                text_of("url").unwrap_or_else(|| "https://example.org".to_owned()),
                text_of("baseurl").unwrap_or_default()
            ),
            default_language: checked_language(&default_language, &path, key)?,
            timezone: text_of("timezone"),
            feeds: feeds::jekyll(&yaml),
            files: Files::new(&yaml, &permalink),
            defaults: yaml
                .get("defaults")
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default(),
            permalink,
            yaml,
        })
    }

    /// The value of `key` that the `defaults` give the document at `rel`
    /// of `kind`: the last scope that holds it and sets the key, as Jekyll
    /// lets a later scope win.
    fn default_of(&self, rel: &str, kind: &Kind, key: &str) -> Option<String> {
        self.defaults.iter().rev().find_map(|default| {
            let scope = default.get("scope");
            let path = scope
                .and_then(|s| s.get("path"))
                .and_then(Value::as_str)
                .unwrap_or("");
            let of_type = scope.and_then(|s| s.get("type")).and_then(Value::as_str);
            let in_path = path.is_empty()
                || rel == path
                || rel.starts_with(&format!("{}/", path.trim_end_matches('/')));
            let of_kind = of_type.is_none_or(|t| t == kind.folder());
            if !(in_path && of_kind) {
                return None;
            }
            default.get("values")?.get(key).and_then(scalar_text)
        })
    }
}

fn read_post(
    source: &Source,
    (file, kind): (&Path, Kind),
    config: &JekyllConfig,
    report: &mut ImportReport,
) -> Result<JekyllPost, Error> {
    let rel = source.relative(file);
    let text = source.read(file)?;
    let newline = if text.contains("\r\n") { "\r\n" } else { "\n" };
    let text = text.replace("\r\n", "\n");
    let (front, body) = split_front(&text);
    let mut front: Vec<String> = front.lines().map(str::to_owned).collect();
    for key in drop_repeated_keys(&mut front) {
        report.repeated_keys.push((rel.clone(), key));
    }
    for key in indent_quoted_continuations(&mut front) {
        report.reindented.push((rel.clone(), key));
    }
    let fields = yaml_map(&front.join("\n")).unwrap_or_default();
    let field = |key: &str| fields.get(key).and_then(scalar_text);
    for key in fields.as_object().into_iter().flat_map(|o| o.keys()) {
        if !READ_FIELDS.contains(&key.as_str()) {
            report.extra_fields.insert(key.clone());
        }
    }
    let default = |key: &str| config.default_of(&rel, &kind, key);
    let written_lang = field("lang")
        .or_else(|| default("lang"))
        .unwrap_or_else(|| config.default_language.clone());
    let lang = checked_language(&written_lang, file, "lang")?;
    if lang != written_lang {
        report.mapped_languages.insert(written_lang, lang.clone());
    }
    let stem = file
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or_default();
    let (date, name) = split_date(stem);
    let written_slug = field("slug").unwrap_or_else(|| name.to_owned());
    let permalink = field("permalink");
    // The old URL is made of the slug as Jekyll read it.
    let own = permalink.clone().or_else(|| default("permalink"));
    let url = old_url(config, (&rel, &kind), own, (&date, &written_slug, &fields));
    let slug = report.safe_slug(&rel, &written_slug, name);
    // Jekyll shows a post without a title under its file's name.
    if fields.get("title").is_none() {
        let title = titleize_slug(name);
        front.push(format!("title: {}", yaml_string(&title)));
        report.titled.push((rel.clone(), title));
    }
    if let Some(date) = field("date").filter(|date| beyond_folio(date)) {
        // Jekyll leaves a future post out; folio cannot read the date.
        front.retain(|line| !line.starts_with("date:"));
        front.push("draft: true".to_owned());
        let why = format!(
            "dated {date}, which Jekyll did not publish (a future post) and folio cannot read; the date of its file name kept"
        );
        report.drafted.push((rel.clone(), why));
    }
    let translation = match field("translation_key") {
        Some(_) => None,
        None => field("ref")
            .or_else(|| field("name"))
            .or_else(|| url_without_language(&url, &lang)),
    };
    let html = rel.ends_with(".html");
    let mut page = fields;
    if let Value::Object(map) = &mut page {
        map.insert("url".into(), Value::String(url.clone()));
        map.insert("path".into(), Value::String(rel.clone()));
        // A post's date is its file name's unless it says one.
        if !date.is_empty() && !map.contains_key("date") {
            map.insert("date".into(), Value::String(date.clone()));
        }
    }
    Ok(JekyllPost {
        page,
        path: rel,
        kind,
        lang,
        date,
        slug,
        front,
        body: match html {
            true => super::html_as_markdown(body),
            false => body.to_owned(),
        },
        newline,
        has_permalink: permalink.is_some_and(|p| !is_pattern(&p)),
        translation,
        url,
    })
}

/// Runs the Liquid of a document's body as Jekyll ran it before Markdown
/// ([`liquid::evaluate`]), then writes its kramdown attribute lists as
/// CommonMark ([`attribute_lists`]), noting what was converted and what was
/// left out; a body whose Liquid does not read (a tag left open) keeps its
/// tags, counted for a hand.
fn run_liquid(post: &mut JekyllPost, site: &JekyllSite, report: &mut ImportReport) {
    // A document can ask Jekyll to leave its Liquid as text.
    let runs_liquid = post.page.get("render_with_liquid") != Some(&Value::Bool(false));
    let evaluated = runs_liquid
        .then(|| liquid::evaluate(&post.body, &post.page, site))
        .flatten();
    if runs_liquid && evaluated.is_none() {
        count_template_tags(&post.body, report);
    }
    let source = evaluated
        .as_ref()
        .map_or(post.body.as_str(), |e| e.text.as_str());
    let (body, html_blocks) = markdown_in_html(source);
    let (body, attributes) = attribute_lists(&body);
    let note = |map: &mut BTreeMap<String, Vec<String>>, kind: &str, count: usize| {
        if count > 0 {
            map.entry(kind.to_owned())
                .or_default()
                .push(post.path.clone());
        }
    };
    note(
        &mut report.converted,
        "HTML blocks kramdown read Markdown in (markdown=\"1\")",
        html_blocks,
    );
    note(
        &mut report.converted,
        "kramdown attribute lists ({: .class})",
        attributes.applied,
    );
    note(
        &mut report.converted,
        "{:toc} (the theme's contents)",
        attributes.tables_of_contents,
    );
    let dropped = "kramdown attributes that are no class or id, or set on nothing";
    note(&mut report.taken_out, dropped, attributes.dropped);
    let (body, tables) = kramdown_tables::tables(&body);
    note(
        &mut report.converted,
        "kramdown tables (a separator of any width, between bodies or before a footer; none at all)",
        tables,
    );
    // What Liquid wrote must not fail the build: a folio call it left
    // unreadable (`{{ x( }}` from pieces of text) is shown as written.
    let (body, unread) = super::shortcodes::escape_unread(&liquid::raw_as_written(&body));
    note(
        &mut report.taken_out,
        "a folio call the Liquid around it left unreadable, shown as written",
        unread,
    );
    post.body = body;
    if let Some(evaluated) = evaluated {
        for (kind, _) in evaluated.converted {
            report
                .converted
                .entry(kind)
                .or_default()
                .push(post.path.clone());
        }
        for (why, _) in evaluated.left_out {
            report
                .taken_out
                .entry(why)
                .or_default()
                .push(post.path.clone());
        }
    }
}

/// The URL Jekyll gave the document at `rel`: the permalink it or its
/// `defaults` give (`own`), which may be a pattern Jekyll fills in as it
/// does the site's, else the one its kind's rule gives.
fn old_url(
    config: &JekyllConfig,
    (rel, kind): (&str, &Kind),
    own: Option<String>,
    (date, slug, fields): (&str, &str, &Value),
) -> String {
    let pattern = own.clone().filter(|p| is_pattern(p));
    match (own, kind) {
        (Some(url), _) if pattern.is_none() => url,
        (_, Kind::Post) => jekyll_url(
            pattern.as_deref().unwrap_or(&config.permalink),
            date,
            slug,
            &categories(fields),
        ),
        (_, Kind::Page) => page_url(&config.permalink, rel),
        (_, Kind::Collection { name, permalink }) => {
            let inside = rel.split_once('/').map_or(rel, |(_, rest)| rest);
            collection_url(pattern.as_deref().unwrap_or(permalink), name, inside, slug)
        }
    }
}

/// Indents the lines that continue a double-quoted value from the start of
/// the line: libyaml (Jekyll's reader) takes them, the YAML spec and
/// folio's reader do not. Both fold the line break into a space, so the
/// value stays what Jekyll read. Returns the keys of the values mended.
fn indent_quoted_continuations(front: &mut [String]) -> Vec<String> {
    let unescaped_quotes = |line: &str| {
        let mut count = 0;
        let mut escaped = false;
        for c in line.chars() {
            match c {
                '\\' if !escaped => escaped = true,
                '"' if !escaped => count += 1,
                _ => escaped = false,
            }
            if c != '\\' {
                escaped = false;
            }
        }
        count
    };
    let mut mended = Vec::new();
    let mut open: Option<String> = None;
    for line in front.iter_mut() {
        match &open {
            Some(key) => {
                let closes = unescaped_quotes(line) % 2 == 1;
                if !line.starts_with([' ', '\t']) {
                    line.insert_str(0, "  ");
                    if mended.last() != Some(key) {
                        mended.push(key.clone());
                    }
                }
                if closes {
                    open = None;
                }
            }
            None => {
                let Some((key, value)) = line.split_once(':') else {
                    continue;
                };
                let value = value.trim_start();
                if !key.starts_with([' ', '\t', '#'])
                    && value.starts_with('"')
                    && unescaped_quotes(value) % 2 == 1
                {
                    open = Some(key.to_owned());
                }
            }
        }
    }
    mended
}

/// The front matter (between the `---` lines) and the body.
fn split_front(text: &str) -> (&str, &str) {
    let Some(rest) = text.strip_prefix("---\n") else {
        return ("", text);
    };
    match rest.find("\n---") {
        Some(end) => {
            let after = &rest[end + 4..];
            (&rest[..end], after.strip_prefix('\n').unwrap_or(after))
        }
        None => ("", text),
    }
}

/// Whether a front matter date is after the last day folio reads
/// (9999-12-30): the first ten characters compared as a date.
fn beyond_folio(date: &str) -> bool {
    let day = date.trim().get(..10).unwrap_or_default();
    let shaped = day.len() == 10
        && day.bytes().enumerate().all(|(at, b)| match at {
            4 | 7 => b == b'-',
            _ => b.is_ascii_digit(),
        });
    shaped && day > "9999-12-30"
}

/// `2015-10-01-meeting` as (`2015-10-01`, `meeting`); unpadded dates
/// (`2015-1-5-x`) are padded.
fn split_date(stem: &str) -> (String, &str) {
    let mut parts = stem.splitn(4, '-');
    let numbers: Vec<&str> = parts.by_ref().take(3).collect();
    let rest = parts.next().unwrap_or("");
    let ok = numbers.len() == 3
        && numbers
            .iter()
            .all(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()));
    if ok && !rest.is_empty() {
        let date = format!("{:0>4}-{:0>2}-{:0>2}", numbers[0], numbers[1], numbers[2]);
        return (date, rest);
    }
    (String::new(), stem)
}

/// Whether a permalink is a pattern of `:placeholders` (`/:year/:title/`),
/// or one of Jekyll's style names, rather than a URL.
fn is_pattern(permalink: &str) -> bool {
    let placeholder = permalink
        .split(':')
        .skip(1)
        .any(|after| after.starts_with(|c: char| c.is_ascii_lowercase()));
    placeholder || ["date", "pretty", "ordinal", "none"].contains(&permalink)
}

/// A post's categories, as Jekyll puts them in its URLs.
fn categories(fields: &serde_json::Value) -> Vec<String> {
    let mut found = Vec::new();
    for key in ["categories", "category"] {
        match fields.get(key) {
            Some(serde_json::Value::String(s)) => {
                found.extend(s.split_whitespace().map(str::to_owned))
            }
            Some(serde_json::Value::Array(items)) => {
                found.extend(items.iter().filter_map(scalar_text))
            }
            _ => {}
        }
    }
    found
}

/// The URL Jekyll gives a post under the site's `permalink` (a style name
/// or a pattern of `:placeholders`).
fn jekyll_url(permalink: &str, date: &str, slug: &str, categories: &[String]) -> String {
    let pattern = match permalink {
        "date" => "/:categories/:year/:month/:day/:title:output_ext",
        "pretty" => "/:categories/:year/:month/:day/:title/",
        "ordinal" => "/:categories/:year/:y_day/:title:output_ext",
        "none" => "/:categories/:title:output_ext",
        pattern => pattern,
    };
    let (year, month, day) = (
        date.get(..4).unwrap_or(""),
        date.get(5..7).unwrap_or(""),
        date.get(8..10).unwrap_or(""),
    );
    // Jekyll lowercases them and keeps their spaces (escaped in the URL:
    // `Post Formats` is `/post%20formats/`).
    let mut slug_categories: Vec<String> = Vec::new();
    for category in categories.iter().map(|c| c.to_lowercase()) {
        if !slug_categories.contains(&category) {
            slug_categories.push(category);
        }
    }
    let url = pattern
        .replace(":categories", &slug_categories.join("/"))
        .replace(":year", year)
        .replace(":short_year", year.get(2..).unwrap_or(""))
        .replace(":i_month", month.trim_start_matches('0'))
        .replace(":month", month)
        .replace(":i_day", day.trim_start_matches('0'))
        .replace(":day", day)
        .replace(":title", slug)
        .replace(":slug", slug)
        .replace(":output_ext", ".html");
    collapse_slashes(&url)
}

/// Gives each post that shares its (slug, language) with another a slug of
/// its own: the slug and its date, and then its file name if that is not
/// enough. Its URL stays its permalink.
fn give_distinct_slugs(posts: &mut [JekyllPost], report: &mut ImportReport) {
    let mut count: BTreeMap<(String, String), usize> = BTreeMap::new();
    for post in posts.iter() {
        *count
            .entry((post.slug.clone(), post.lang.clone()))
            .or_default() += 1;
    }
    let mut given: BTreeSet<(String, String)> = BTreeSet::new();
    for post in posts.iter_mut() {
        if count[&(post.slug.clone(), post.lang.clone())] < 2 {
            continue;
        }
        let mut slug = format!("{}-{}", post.slug, post.date);
        let mut n = 2;
        while !given.insert((slug.clone(), post.lang.clone())) {
            slug = format!("{}-{}-{n}", post.slug, post.date);
            n += 1;
        }
        post.slug = slug.clone();
        report.renamed.push((post.path.clone(), slug));
    }
}

/// Keeps a post's `ref` or `name` as its translation key where no other
/// post of its language has the same: that is how multilingual Jekyll
/// sites (polyglot, and hand-made switchers) link translations.
fn link_translations(posts: &mut [JekyllPost], report: &mut ImportReport) {
    let mut count: BTreeMap<(String, String), usize> = BTreeMap::new();
    for post in posts.iter() {
        if let Some(key) = &post.translation {
            *count.entry((post.lang.clone(), key.clone())).or_default() += 1;
        }
    }
    let mut languages_of: BTreeMap<String, usize> = BTreeMap::new();
    for (_, key) in count.keys() {
        *languages_of.entry(key.clone()).or_default() += 1;
    }
    for post in posts.iter_mut() {
        let Some(key) = post.translation.clone() else {
            continue;
        };
        // A key two posts of one language share cannot tell them apart; a
        // key no other language has links nothing.
        if count[&(post.lang.clone(), key.clone())] > 1 || languages_of[&key] < 2 {
            post.translation = None;
        } else {
            report.translations_linked += 1;
        }
    }
}

/// A URL that starts with its language (`/ja/2016/01/x/`) without it: what
/// translations that share a permalink pattern have in common.
fn url_without_language(url: &str, lang: &str) -> Option<String> {
    let rest = url.strip_prefix('/')?;
    let (first, rest) = rest.split_once('/')?;
    (language_code(first).eq_ignore_ascii_case(lang) && !rest.is_empty())
        .then(|| format!("/{rest}"))
}

/// `text` as a YAML string.
fn yaml_string(text: &str) -> String {
    serde_json::Value::String(text.to_owned()).to_string()
}

/// Where a post is written, as the parts of its path:
/// `content/<lang>/posts/<date>-<slug>.md`, a page or a collection's
/// document at `content/<lang>/<folder>/<slug>.md`; a name `taken` holds
/// already gets a number.
fn place_of(post: &JekyllPost, taken: &mut BTreeSet<(String, String)>) -> Vec<String> {
    let stem = if post.date.is_empty() || post.kind != Kind::Post {
        post.slug.clone()
    } else {
        format!("{}-{}", post.date, post.slug)
    };
    let mut file = format!("{stem}.md");
    let mut n = 2;
    let folder = post.kind.folder();
    while !taken.insert((post.lang.clone(), format!("{folder}/{file}"))) {
        file = format!("{stem}-{n}.md");
        n += 1;
    }
    ["content", &post.lang, folder, &file]
        .map(str::to_owned)
        .to_vec()
}

/// Writes a post at `place`, its front matter as it was plus the
/// `permalink` that keeps its URL and the `slug` it was given.
fn write_post(into: &Destination, post: &JekyllPost, place: &[String]) -> Result<(), Error> {
    let nl = post.newline;
    let mut text = format!("---{nl}");
    for line in &post.front {
        // A pattern (`/:year/:title/`) is written as the URL it gave.
        if line.starts_with("slug:") || (line.starts_with("permalink:") && !post.has_permalink) {
            continue;
        }
        text.push_str(line);
        text.push_str(nl);
    }
    if !post.has_permalink {
        text.push_str(&format!("permalink: {}{nl}", yaml_string(&post.url)));
    }
    // Quoted: a slug the build takes may still start with what YAML reads
    // otherwise (`[`, `&`, `*`).
    text.push_str(&format!("slug: {}{nl}", yaml_string(&post.slug)));
    if let Some(key) = &post.translation {
        text.push_str(&format!("translation_key: {}{nl}", yaml_string(key)));
    }
    text.push_str(&format!("---{nl}"));
    text.push_str(&post.body.replace('\n', nl));
    let place: Vec<&str> = place.iter().map(String::as_str).collect();
    into.write(&place, &text, &post.path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jekyll_urls_follow_its_permalink_styles_and_patterns() {
        let cats = vec!["News".to_owned()];
        assert_eq!(
            jekyll_url("date", "2017-03-13", "perf", &[]),
            "/2017/03/13/perf.html"
        );
        assert_eq!(
            jekyll_url("pretty", "2017-03-13", "perf", &cats),
            "/news/2017/03/13/perf/"
        );
        assert_eq!(
            jekyll_url("/:title/", "2017-03-13", "perf", &cats),
            "/perf/"
        );
        assert_eq!(
            jekyll_url("/blog/:year/:i_month/:slug", "2017-03-13", "perf", &[]),
            "/blog/2017/3/perf"
        );
    }

    #[test]
    fn translations_sharing_a_permalink_pattern_share_a_key() {
        assert_eq!(
            url_without_language("/ja/2016/01/x/", "ja").as_deref(),
            Some("/2016/01/x/")
        );
        assert_eq!(
            url_without_language("/zh_CN/2016/x/", "zh-CN").as_deref(),
            Some("/2016/x/")
        );
        assert_eq!(url_without_language("/2016/01/x/", "en"), None);
        assert_eq!(url_without_language("/ja/", "ja"), None);
    }

    #[test]
    fn a_title_from_a_file_name_is_each_word_capitalized_as_jekyll_does() {
        assert_eq!(
            titleize_slug("edge-case-no-yaml-title"),
            "Edge Case No Yaml Title"
        );
        assert_eq!(titleize_slug("iOS-tips--été"), "Ios Tips Été");
        assert!(beyond_folio("9999-12-31") && beyond_folio(" 9999-12-31 23:00:00 +0000"));
        assert!(
            !beyond_folio("9999-12-30") && !beyond_folio("2024-01-01") && !beyond_folio("soon")
        );
    }

    #[test]
    fn file_names_give_padded_dates() {
        assert_eq!(
            split_date("2015-1-5-hello"),
            ("2015-01-05".to_owned(), "hello")
        );
        assert_eq!(split_date("about"), (String::new(), "about"));
    }

    #[test]
    fn a_quoted_value_continued_at_the_start_of_a_line_is_indented() {
        let mut front: Vec<String> = [
            "title: x",
            "link: \"magnet:?a=1&t",
            "r=2\"",
            "next: \"one \\\" line\"",
        ]
        .map(str::to_owned)
        .to_vec();
        assert_eq!(indent_quoted_continuations(&mut front), ["link"]);
        assert_eq!(front[2], "  r=2\"");
        assert_eq!(front[3], "next: \"one \\\" line\"");
        let value = yaml_map(&front.join("\n")).unwrap();
        assert_eq!(value["link"], "magnet:?a=1&t r=2");
    }
}
