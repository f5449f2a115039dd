//! Hugo: `hugo.toml` (or `config.toml`, `hugo.yaml`, `config/_default/`)
//! and its content, one folder per language (`contentDir`) or translations
//! by file name (`post.fr.md`); sections, leaf bundles (`name/index.md`),
//! per-section `permalinks`, and URLs lowercased as Hugo writes them.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::Value;

use super::feeds::{self, OldFeeds};
use super::hugo_shortcodes;
use super::repeats::drop_repeated_keys;
use super::statics::copy_folder;
use super::tree::{FrontFormat, Place, TreeDocument, TreeSite, write_site};
use super::{
    Destination, ImportReport, Source, aliases_of, checked_language, language_code, relative,
    scalar_text, yaml_map,
};
use crate::model::error::Error;
use crate::model::url::collapse_slashes;

/// What folio takes from Hugo's configuration.
struct HugoConfig {
    title: String,
    base_url: String,
    default_language: String,
    in_subdir: bool,
    /// Per language (as written), its content folder when it has one,
    /// checked to be inside the site.
    content_dirs: BTreeMap<String, Option<PathBuf>>,
    /// The site's `contentDir` (`content/` unless it names another): the
    /// folder of the languages without one of their own.
    content_dir: PathBuf,
    /// Per section, its URL pattern.
    permalinks: BTreeMap<String, String>,
    lowercase: bool,
    feeds: Option<OldFeeds>,
    /// Where a page's date comes from, the first found: front matter keys,
    /// or `:filename` (`[frontmatter] date`).
    date_sources: Vec<String>,
    /// The languages Hugo builds nothing of (`disableLanguages`).
    disabled: Vec<String>,
    /// `params`, which `{{< param >}}` reads after the page's own.
    params: Value,
    /// Where it was read, relative to the site.
    file: String,
    /// Its files copied as they are (`staticDir`, `static/` unless it
    /// names another), checked to be inside the site.
    static_dir: PathBuf,
}

pub(super) fn hugo(source: &Source, into: &Destination) -> Result<ImportReport, Error> {
    let config = HugoConfig::read(source)?;
    let mut report = ImportReport::default();
    report.map_languages(config.content_dirs.keys().chain([&config.default_language]));
    let mut documents = Vec::new();
    // Each document's front matter and path under its content folder.
    let mut pages: Vec<(Value, String)> = Vec::new();
    for (root, lang) in content_roots(&config) {
        if !source.has_folder(&root) {
            continue;
        }
        let own_folders: Vec<&PathBuf> = config
            .content_dirs
            .values()
            .flatten()
            .filter(|dir| **dir != root)
            .collect();
        let walk = source.walk(&root)?.into_iter();
        // Another language's folder inside this one is that language's.
        let walk = walk.filter_entry(|e| !own_folders.iter().any(|dir| e.path() == dir.as_path()));
        for entry in walk {
            let entry = entry.map_err(|e| Error::io(&root, std::io::Error::other(e)))?;
            let markdown = entry.path().extension().is_some_and(|e| e == "md");
            if !entry.file_type().is_file() || !markdown {
                continue;
            }
            let at = (source, root.as_path(), lang.as_deref());
            let (doc, page) = read_document(at, entry.path(), &config, &mut report)?;
            if config
                .disabled
                .iter()
                .any(|code| language_code(code) == doc.lang)
            {
                let why = format!(
                    "its language, `{}`, is in `disableLanguages`: Hugo built nothing of it",
                    doc.lang
                );
                report.left_out.push((doc.path, why));
                continue;
            }
            pages.push((page, relative(&root, entry.path())));
            documents.push(doc);
        }
    }
    let params = config.params.clone();
    hugo_shortcodes::convert_all(&mut documents, &pages, &params, &mut report);
    let site = TreeSite {
        generator: "Hugo",
        config_file: config.file.clone(),
        title: config.title.clone(),
        base_url: config.base_url.trim_end_matches('/').to_owned(),
        default_language: language_code(&config.default_language),
        anchors_warn: false,
        feeds: config.feeds.clone(),
    };
    write_site((source, into), &site, documents, &mut report)?;
    copy_folder(
        (source, &config.static_dir),
        (into, &["static"]),
        &|_| true,
        &mut report,
    )?;
    Ok(report)
}

impl HugoConfig {
    fn read(source: &Source) -> Result<HugoConfig, Error> {
        let candidates = ["hugo.toml", "config.toml", "hugo.yaml", "config.yaml"];
        let folders = [
            source.root().to_owned(),
            source.root().join("config/_default"),
        ];
        let found = folders
            .iter()
            .flat_map(|dir| candidates.iter().map(move |name| dir.join(name)))
            .find(|path| source.has_file(path));
        let Some(path) = found else {
            return Err(Error::Config {
                path: source.root().join("hugo.toml"),
                line: None,
                message: "no Hugo configuration here (hugo.toml, config.toml, hugo.yaml, config/_default/)".into(),
                help: "name the folder of the Hugo site, the one `hugo` builds".into(),
            });
        };
        let mut config = read_config_file(source, &path)?;
        // `config/_default/languages.toml` holds the languages on its own.
        let mut languages_file = path.with_file_name("languages.toml");
        if source.has_file(&languages_file) && config.get("languages").is_none() {
            let languages = read_config_file(source, &languages_file)?;
            if let Value::Object(map) = &mut config {
                map.insert("languages".into(), languages);
            }
        } else {
            languages_file = path.clone();
        }
        let text = |key: &str| config.get(key).and_then(scalar_text);
        let languages = config.get("languages").and_then(Value::as_object);
        let content_dirs = content_dirs(source, languages, &languages_file)?;
        let content_dir = match text("contentDir") {
            Some(dir) => source.configured_folder(&dir, &path, "contentDir")?,
            None => source.root().join("content"),
        };
        let default_language = text("defaultContentLanguage").unwrap_or_else(|| "en".into());
        checked_language(&default_language, &path, "defaultContentLanguage")?;
        let permalinks = config
            .get("permalinks")
            .and_then(Value::as_object)
            .map(|map| {
                map.iter()
                    .filter_map(|(section, pattern)| Some((section.clone(), scalar_text(pattern)?)))
                    .collect()
            })
            .unwrap_or_default();
        Ok(HugoConfig {
            title: text("title").unwrap_or_else(|| "Imported site".into()),
            base_url: text("baseURL")
                .or_else(|| text("baseurl"))
                .unwrap_or_else(|| "https://example.org".into()),
            default_language,
            in_subdir: config
                .get("defaultContentLanguageInSubdir")
                .and_then(Value::as_bool)
                == Some(true),
            content_dirs,
            content_dir,
            permalinks,
            lowercase: config.get("disablePathToLower").and_then(Value::as_bool) != Some(true),
            feeds: feeds::hugo(&config),
            date_sources: config
                .pointer("/frontmatter/date")
                .and_then(Value::as_array)
                .map(|sources| sources.iter().filter_map(scalar_text).collect())
                .unwrap_or_else(|| {
                    [
                        "date",
                        "publishDate",
                        "pubdate",
                        "published",
                        "lastmod",
                        "modified",
                    ]
                    .map(String::from)
                    .to_vec()
                }),
            params: config.get("params").cloned().unwrap_or(Value::Null),
            file: source.relative(&path),
            static_dir: match text("staticDir") {
                Some(dir) => source.configured_folder(&dir, &path, "staticDir")?,
                None => source.root().join("static"),
            },
            disabled: config
                .get("disableLanguages")
                .and_then(Value::as_array)
                .map(|codes| codes.iter().filter_map(scalar_text).collect())
                .unwrap_or_default(),
        })
    }

    /// The prefix of `lang`'s URLs: none for the default language at the
    /// root.
    fn prefix(&self, lang: &str) -> String {
        if lang == self.default_language && !self.in_subdir {
            String::new()
        } else {
            format!("/{}", lang.to_lowercase())
        }
    }
}

/// Each language's content folder, if it has one, checked to be inside
/// the site; and each language checked to be a language code, since it
/// becomes a folder name. `file` is where the languages were read.
fn content_dirs(
    source: &Source,
    languages: Option<&serde_json::Map<String, Value>>,
    file: &Path,
) -> Result<BTreeMap<String, Option<PathBuf>>, Error> {
    let mut dirs = BTreeMap::new();
    for (code, table) in languages.into_iter().flatten() {
        checked_language(code, file, &format!("languages.{code}"))?;
        let dir = match table.get("contentDir").and_then(scalar_text) {
            Some(dir) => {
                let key = format!("languages.{code}.contentDir");
                Some(source.configured_folder(&dir, file, &key)?)
            }
            None => None,
        };
        dirs.insert(code.clone(), dir);
    }
    Ok(dirs)
}

fn read_config_file(source: &Source, path: &Path) -> Result<Value, Error> {
    let text = source.read(path)?;
    let parsed = if path.extension().is_some_and(|e| e == "toml") {
        toml::from_str::<toml::Table>(&text)
            .ok()
            .map(|table| json_of(toml::Value::Table(table)))
    } else {
        yaml_map(&text)
    };
    parsed.ok_or_else(|| Error::Config {
        path: path.to_owned(),
        line: None,
        message: "does not parse".into(),
        help: "fix it so that Hugo itself would read it".into(),
    })
}

/// A TOML value as JSON, its dates as the text they were written as.
fn json_of(value: toml::Value) -> Value {
    match value {
        toml::Value::String(s) => Value::String(s),
        toml::Value::Integer(i) => Value::from(i),
        toml::Value::Float(f) => Value::from(f),
        toml::Value::Boolean(b) => Value::Bool(b),
        toml::Value::Datetime(d) => Value::String(d.to_string()),
        toml::Value::Array(items) => Value::Array(items.into_iter().map(json_of).collect()),
        toml::Value::Table(table) => {
            Value::Object(table.into_iter().map(|(k, v)| (k, json_of(v))).collect())
        }
    }
}

/// The folders holding content, each with the language all its files are
/// in (a `contentDir`), or `None` for the shared `content/` whose files say
/// theirs by name.
fn content_roots(config: &HugoConfig) -> Vec<(PathBuf, Option<String>)> {
    let mut roots: Vec<(PathBuf, Option<String>)> = config
        .content_dirs
        .iter()
        .filter_map(|(lang, dir)| Some((dir.clone()?, Some(lang.clone()))))
        .collect();
    // The site's `contentDir` holds the languages without a folder of
    // their own.
    let all_have_one =
        !config.content_dirs.is_empty() && config.content_dirs.values().all(Option::is_some);
    if !all_have_one {
        roots.push((config.content_dir.clone(), None));
    }
    roots
}

fn read_document(
    (source, root, dir_lang): (&Source, &Path, Option<&str>),
    file: &Path,
    config: &HugoConfig,
    report: &mut ImportReport,
) -> Result<(TreeDocument, Value), Error> {
    let rel = source.relative(file);
    let text = source.read(file)?.replace("\r\n", "\n");
    let (format, front, body) = split_front(&text);
    let mut front: Vec<String> = front.lines().map(str::to_owned).collect();
    let fields = match format {
        FrontFormat::Toml => toml::from_str::<toml::Table>(&front.join("\n"))
            .map(|table| json_of(toml::Value::Table(table)))
            .unwrap_or_default(),
        FrontFormat::Yaml => {
            // Hugo's YAML reader keeps a repeated key's last value.
            for key in drop_repeated_keys(&mut front) {
                report.repeated_keys.push((rel.clone(), key));
            }
            yaml_map(&front.join("\n")).unwrap_or_default()
        }
    };
    let field = |key: &str| fields.get(key).and_then(scalar_text);
    let under_root = relative(root, file);
    let (dir, file_name) = under_root
        .rsplit_once('/')
        .unwrap_or(("", under_root.as_str()));
    let stem = file_name.strip_suffix(".md").unwrap_or(file_name);
    let declared = |code: &str| config.content_dirs.contains_key(code);
    let (name, lang) = match (dir_lang, stem.rsplit_once('.')) {
        (Some(lang), _) => (stem, lang.to_owned()),
        (None, Some((name, suffix))) if declared(suffix) => (name, suffix.to_owned()),
        (None, _) => (stem, config.default_language.clone()),
    };
    let Place {
        section,
        name: filename,
        is_section,
    } = Place::of(dir, name);
    let title = field("title").unwrap_or_default();
    let dated = page_date(&config.date_sources, &field, &filename);
    let written_slug = field("slug").or(dated.slug);
    let slug = written_slug.clone().unwrap_or_else(|| filename.clone());
    let date = dated.date;
    let prefix = config.prefix(&lang);
    let top = section.split('/').next().unwrap_or("");
    // A `url` is the page's URL as written: Hugo keeps its case.
    let written_url =
        field("url").map(|url| collapse_slashes(&format!("/{}/", url.trim_matches('/'))));
    let mut url = match (written_url.clone(), config.permalinks.get(top)) {
        (Some(url), _) => url,
        _ if is_section => format!("{prefix}/{section}/"),
        (None, Some(pattern)) => {
            let values = Placeholders {
                section: &section,
                slug: written_slug.as_deref().unwrap_or(""),
                filename: &filename,
                title: &title,
                date: &date,
            };
            let path = expand(pattern, &values);
            format!("{prefix}/{}", path.trim_start_matches('/'))
        }
        (None, None) => format!("{prefix}/{section}/{slug}/"),
    };
    url = collapse_slashes(&url);
    if config.lowercase && written_url.is_none() {
        url = url.to_lowercase();
    }
    let doc = TreeDocument {
        path: rel,
        lang: language_code(&lang),
        dated: !date.is_empty(),
        date_from_file_name: dated.from_file_name.then(|| date.clone()),
        translation: field("translationKey").unwrap_or_else(|| format!("{dir}/{name}")),
        translation_key: None,
        aliases: aliases_of(&fields),
        bundle: (name == "index").then(|| file.parent().unwrap_or(root).to_owned()),
        section,
        slug: if is_section && filename.is_empty() {
            "home".into()
        } else {
            slug
        },
        file_slug: filename,
        format,
        keys: fields
            .as_object()
            .map(|o| o.keys().cloned().collect())
            .unwrap_or_default(),
        front,
        body: body.to_owned(),
        url,
        is_section,
    };
    Ok((doc, fields))
}

/// A page's date as Hugo finds it, and the slug its file's name gives when
/// the date came from there.
struct PageDate {
    /// As written (`2024-02-05` or a date-time); empty without one.
    date: String,
    from_file_name: bool,
    slug: Option<String>,
}

/// The first date of `sources` (`[frontmatter] date`) a page has: a front
/// matter key's, or with `:filename` its file's name's
/// (`2018-06-07-dynamic-ingress.md`), whose rest is then its slug unless it
/// has one. A name whose date is no day of the calendar (`2015-03-00`)
/// gives none.
fn page_date(
    sources: &[String],
    field: &dyn Fn(&str) -> Option<String>,
    file_name: &str,
) -> PageDate {
    for source in sources {
        if source.eq_ignore_ascii_case(":filename") {
            let day = file_name.get(..10).filter(|day| {
                is_calendar_day(day) && file_name.as_bytes().get(10).is_none_or(|&b| b == b'-')
            });
            if let Some(day) = day {
                let rest = file_name[10..].trim_start_matches('-');
                return PageDate {
                    date: day.to_owned(),
                    from_file_name: true,
                    slug: (!rest.is_empty()).then(|| rest.to_owned()),
                };
            }
        } else if let Some(date) = field(source).or_else(|| field(&source.to_lowercase()))
            && !date.trim().is_empty()
        {
            return PageDate {
                date,
                from_file_name: false,
                slug: None,
            };
        }
    }
    PageDate {
        date: String::new(),
        from_file_name: false,
        slug: None,
    }
}

/// Whether `text` is a `YYYY-MM-DD` day of the calendar.
fn is_calendar_day(text: &str) -> bool {
    jiff::civil::Date::strptime("%Y-%m-%d", text).is_ok()
}

/// A front matter's format, text and the body after it (a file without a
/// `---` or `+++` block has none).
///
/// Read as Hugo reads it: after a byte order mark and blank lines, with
/// spaces after the opening delimiter, and inside an HTML comment that
/// opens the file (`<!--` on the first line, the front matter below it:
/// the body is then what follows the comment).
fn split_front(text: &str) -> (FrontFormat, &str, &str) {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let start = text.len() - text.trim_start().len();
    // Back to the start of the first line that is not blank.
    let start = text[..start].rfind('\n').map_or(0, |newline| newline + 1);
    let opened = &text[start..];
    if let Some(inside) = opened.strip_prefix("<!--\n")
        && let Some(close) = inside.find("\n-->")
        && let (format, front, _) = split_front(&inside[..close + 1])
        && !front.is_empty()
    {
        let after = &inside[close + 4..];
        return (format, front, after.strip_prefix('\n').unwrap_or(after));
    }
    for (delimiter, format) in [("+++", FrontFormat::Toml), ("---", FrontFormat::Yaml)] {
        let Some((first, rest)) = opened.split_once('\n') else {
            continue;
        };
        if first.trim_end() != delimiter {
            continue;
        }
        if let Some(end) = rest.find(&format!("\n{delimiter}")) {
            let after = &rest[end + 1 + delimiter.len()..];
            return (
                format,
                &rest[..end],
                after.strip_prefix('\n').unwrap_or(after),
            );
        }
    }
    (FrontFormat::Yaml, "", text)
}

/// What a permalink pattern's placeholders stand for.
struct Placeholders<'a> {
    section: &'a str,
    slug: &'a str,
    filename: &'a str,
    title: &'a str,
    /// As written in the front matter: `2024-02-05` or a date-time.
    /// (`slug` is the front matter's, empty when it has none: `:slug` is
    /// then the title's.)
    date: &'a str,
}

/// A Hugo permalink pattern (`/:year/:month/:slug/`) filled in.
fn expand(pattern: &str, values: &Placeholders<'_>) -> String {
    let date = values.date;
    let (year, month, day) = (
        date.get(..4).unwrap_or(""),
        date.get(5..7).unwrap_or(""),
        date.get(8..10).unwrap_or(""),
    );
    let title = urlize(values.title);
    let slug = if values.slug.is_empty() {
        title.clone()
    } else {
        urlize(values.slug)
    };
    pattern
        .replace(":sections", values.section)
        .replace(":section", values.section.split('/').next().unwrap_or(""))
        .replace(":year", year)
        .replace(":month", month)
        .replace(":day", day)
        .replace(":slugorfilename", &slug)
        .replace(":slug", &slug)
        .replace(":filename", values.filename)
        .replace(":contentbasename", values.filename)
        .replace(":title", &title)
}

/// Hugo's `urlize` (its `UnicodeSanitize`, lowercased): letters, digits,
/// marks and `./\\_#+~-@` kept, a run of white space one `-` (none next to a
/// `-` written), anything else dropped (`you're` is `youre`, `1.14` stays).
fn urlize(text: &str) -> String {
    let mut url = String::with_capacity(text.len());
    let (mut hyphen_due, mut was_hyphen) = (false, false);
    for c in text.chars() {
        let kept = c.is_alphanumeric()
            || matches!(c, '.' | '/' | '\\' | '_' | '#' | '+' | '~' | '-' | '@')
            || unicode_mark(c);
        if kept {
            was_hyphen = c == '-';
            if std::mem::take(&mut hyphen_due) && !was_hyphen {
                url.push('-');
            }
            url.extend(c.to_lowercase());
        } else if !url.is_empty() && !was_hyphen && c.is_whitespace() {
            hyphen_due = true;
        }
    }
    url
}

/// A combining mark (Unicode's M categories), which Hugo keeps in URLs: the
/// vowel signs of Devanagari or Thai words are marks.
fn unicode_mark(c: char) -> bool {
    use unicode_normalization::char::is_combining_mark;
    is_combining_mark(c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn front_matter_is_found_where_hugo_finds_it() {
        let front = |text: &str| {
            let (_, front, body) = split_front(text);
            (front.to_owned(), body.to_owned())
        };
        let plain = ("title: a".to_owned(), "body\n".to_owned());
        assert_eq!(front("---\ntitle: a\n---\nbody\n"), plain);
        assert_eq!(front("\u{feff}---\ntitle: a\n---\nbody\n"), plain);
        assert_eq!(front("\n  \n---\ntitle: a\n---\nbody\n"), plain);
        assert_eq!(front("---   \ntitle: a\n---\nbody\n"), plain);
        assert_eq!(front("<!--\n---\ntitle: a\n---\nnotes\n-->\nbody\n"), plain);
        // A comment without front matter in it is the body's.
        let text = "<!--\nnote\n-->\nbody\n";
        assert_eq!(front(text), (String::new(), text.to_owned()));
        let (format, toml, _) = split_front("+++\ntitle = \"a\"\n+++\n");
        assert!(matches!(format, FrontFormat::Toml) && toml == "title = \"a\"");
    }

    #[test]
    fn permalink_patterns_are_filled_as_hugo_fills_them() {
        let values = Placeholders {
            section: "posts",
            slug: "",
            filename: "post-1",
            title: "Hello, World",
            date: "2024-02-05T15:12:00Z",
        };
        assert_eq!(
            expand("/:year/:month/:title/", &values),
            "/2024/02/hello-world/"
        );
        assert_eq!(expand("/:section/:filename/", &values), "/posts/post-1/");
        assert_eq!(expand("/:slug/", &values), "/hello-world/");
    }

    #[test]
    fn titles_are_urlized_as_hugo_urlizes_them() {
        // Cases from the Kubernetes blog, with the URLs `hugo list all` gave.
        let cases = [
            (
                "Meet Our Contributors - Monthly Streaming",
                "meet-our-contributors-monthly-streaming",
            ),
            (
                "Introducing the Non-Code Contributor’s Guide",
                "introducing-the-non-code-contributors-guide",
            ),
            (
                "Minikube - now with Kubernetes 1.14 support",
                "minikube-now-with-kubernetes-1.14-support",
            ),
            (
                "Hardware Accelerated SSL/TLS Termination",
                "hardware-accelerated-ssl/tls-termination",
            ),
            (
                "When you're in the release team, you're family: the",
                "when-youre-in-the-release-team-youre-family-the",
            ),
            (
                "Kubernetes 1 11：向 discuss kubernetes 问好",
                "kubernetes-1-11向-discuss-kubernetes-问好",
            ),
            (
                "KubeDirector：在 Kubernetes 上运行",
                "kubedirector在-kubernetes-上运行",
            ),
            ("  a -- b  ", "a--b"),
            ("नमस्ते दुनिया", "नमस्ते-दुनिया"),
        ];
        for (title, url) in cases {
            assert_eq!(urlize(title), url, "{title}");
        }
    }

    #[test]
    fn a_page_is_dated_by_the_first_source_hugo_is_told_to_read() {
        let sources: Vec<String> = ["date", ":filename", "publishDate"]
            .map(String::from)
            .to_vec();
        let front = |date: Option<&'static str>| {
            move |key: &str| (key == "date").then_some(date).flatten().map(String::from)
        };
        let dated = page_date(&sources, &front(Some("2019-08-29")), "2018-08-29-ci");
        assert_eq!(
            (dated.date.as_str(), dated.from_file_name, dated.slug),
            ("2019-08-29", false, None)
        );
        // Without a date of its own, the file's name gives it and its slug.
        let named = page_date(
            &sources,
            &front(None),
            "2018-06-07-dynamic-ingress-kubernetes",
        );
        assert_eq!(named.date, "2018-06-07");
        assert!(named.from_file_name);
        assert_eq!(named.slug.as_deref(), Some("dynamic-ingress-kubernetes"));
        // Day 00 is no day: no date.
        assert_eq!(
            page_date(&sources, &front(None), "2015-03-00-videos").date,
            ""
        );
        // Hugo's default reads no file name.
        let default: Vec<String> = vec!["date".into(), "lastmod".into()];
        assert_eq!(page_date(&default, &front(None), "2018-06-07-x").date, "");
    }
}
