//! Hugo: `hugo.toml` (or `config.toml`, `hugo.yaml`, `config/_default/`)
//! and its content, one folder per language (`contentDir`) or translations
//! by file name (`post.fr.md`); sections, leaf bundles (`name/index.md`),
//! per-section `permalinks`, and URLs lowercased as Hugo writes them.

use std::path::{Path, PathBuf};

use serde_json::Value;

use super::hugo_config::{HugoConfig, content_roots, json_of};
use super::hugo_shortcodes;
use super::repeats::drop_repeated_keys;
use super::statics::copy_folder;
use super::tree::{FrontFormat, Place, TreeDocument, TreeSite, write_site};
use super::{
    Destination, ImportReport, Source, aliases_of, language_code, relative, scalar_text, yaml_map,
};
use crate::model::error::Error;
use crate::model::url::collapse_slashes;

pub(super) fn hugo(source: &Source, into: &Destination) -> Result<ImportReport, Error> {
    let config = HugoConfig::read(source)?;
    let mut report = ImportReport::default();
    report.map_languages(config.content_dirs.keys().chain([&config.default_language]));
    let mut documents = Vec::new();
    // Each document's front matter and path under its content folder.
    let mut pages: Vec<(Value, String)> = Vec::new();
    // Each folder looked at: whether it is a leaf bundle's.
    let mut leaves: std::collections::HashMap<PathBuf, bool> = std::collections::HashMap::new();
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
            let extension = entry
                .path()
                .extension()
                .and_then(|e| e.to_str())
                .unwrap_or("");
            if !entry.file_type().is_file() || !CONTENT_EXTENSIONS.contains(&extension) {
                continue;
            }
            if in_leaf_bundle(source, (entry.path(), &root), &mut leaves) {
                let why = "a page bundle's Markdown resource: Hugo made no page of it".to_owned();
                report.left_out.push((source.relative(entry.path()), why));
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
        carried: config.carried.clone(),
        term_slug: urlize,
        ascii_terms: false,
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

/// The menus a Hugo front matter puts its page in (`menu: main`, a list of
/// menus, or a table of each menu's entry: `name`, `weight`, `parent`,
/// `identifier`), each entry named by its `name`, else the page's
/// `linkTitle`, else its title.
fn menus_of(fields: &Value, title: &str) -> Vec<(String, Value)> {
    let name = fields
        .get("linkTitle")
        .and_then(scalar_text)
        .unwrap_or_else(|| title.to_owned());
    let entry = |given: Option<&Value>| {
        let mut entry = serde_json::json!({ "name": name });
        for key in ["name", "weight", "parent", "identifier"] {
            if let Some(value) = given.and_then(|g| g.get(key)) {
                entry[key] = value.clone();
            }
        }
        if entry.get("weight").is_none()
            && let Some(weight) = fields.get("weight")
        {
            entry["weight"] = weight.clone();
        }
        entry
    };
    match fields.get("menu").or_else(|| fields.get("menus")) {
        Some(Value::String(menu)) => vec![(menu.clone(), entry(None))],
        Some(Value::Array(menus)) => menus
            .iter()
            .filter_map(scalar_text)
            .map(|m| (m, entry(None)))
            .collect(),
        Some(Value::Object(menus)) => menus
            .iter()
            .map(|(menu, given)| (menu.clone(), entry(Some(given))))
            .collect(),
        _ => Vec::new(),
    }
}

/// The terms of `taxonomy` a front matter names (a list, or one), with it.
fn terms_of(fields: &Value, taxonomy: &str) -> Vec<(String, String)> {
    let terms = match fields.get(taxonomy) {
        Some(Value::Array(terms)) => terms.iter().filter_map(scalar_text).collect(),
        Some(term) => scalar_text(term).into_iter().collect(),
        None => Vec::new(),
    };
    terms
        .into_iter()
        .map(|term| (taxonomy.to_owned(), term))
        .collect()
}

/// Whether `file` is a resource of a leaf bundle rather than a page: it is
/// no `index` itself, and a folder holding it, below `root`, has an
/// `index` page (`index.md`, `index.fr.md`). `leaves` remembers folders.
fn in_leaf_bundle(
    source: &Source,
    (file, root): (&Path, &Path),
    leaves: &mut std::collections::HashMap<PathBuf, bool>,
) -> bool {
    let name = file
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    if name.starts_with("index.") || name.starts_with("_index.") {
        return false;
    }
    file.ancestors()
        .skip(1)
        .take_while(|dir| *dir != root && dir.starts_with(root))
        .any(|dir| {
            *leaves.entry(dir.to_owned()).or_insert_with(|| {
                let listed = source
                    .walk(dir)
                    .into_iter()
                    .flat_map(|walk| walk.min_depth(1).max_depth(1));
                listed.flatten().any(|entry| {
                    let name = entry.file_name().to_string_lossy().into_owned();
                    let (stem, extension) = name.rsplit_once('.').unwrap_or((&name, ""));
                    let stem = stem.split('.').next().unwrap_or(stem);
                    stem == "index" && CONTENT_EXTENSIONS.contains(&extension)
                })
            })
        })
}

/// The files Hugo reads as content without a tool of its own: Markdown
/// under its names, and HTML.
const CONTENT_EXTENSIONS: &[&str] = &["md", "markdown", "mdown", "mkd", "mkdn", "html", "htm"];

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
    let (stem, extension) = file_name.rsplit_once('.').unwrap_or((file_name, ""));
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
    let values = Placeholders {
        section: &section,
        slug: written_slug.as_deref().unwrap_or(""),
        filename: &filename,
        title: &title,
        date: &date,
    };
    let url = old_url(config, (&lang, is_section), field("url"), (&values, &slug));
    let doc = TreeDocument {
        path: rel,
        lang: language_code(&lang),
        dated: !date.is_empty(),
        date_from_file_name: dated.from_file_name.then(|| date.clone()),
        translation: field("translationKey").unwrap_or_else(|| format!("{dir}/{name}")),
        translation_key: None,
        aliases: aliases_of(&fields),
        menus: menus_of(&fields, &title),
        terms: config
            .taxonomies()
            .flat_map(|taxonomy| terms_of(&fields, taxonomy))
            .collect(),
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
        // An HTML page is Markdown without blank lines, which would end
        // its HTML.
        body: match extension {
            "html" | "htm" => super::html_as_markdown(body),
            _ => body.to_owned(),
        },
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

/// The URL Hugo gave a page: its `url` as written (Hugo keeps its case),
/// else its section's `permalinks` pattern filled in, else its section and
/// slug, under its language's prefix; lowercased unless
/// `disablePathToLower`, a file's (`.html`) with `uglyURLs`.
fn old_url(
    config: &HugoConfig,
    (lang, is_section): (&str, bool),
    written: Option<String>,
    (values, slug): (&Placeholders<'_>, &str),
) -> String {
    if let Some(url) = written {
        return collapse_slashes(&format!("/{}/", url.trim_matches('/')));
    }
    let prefix = config.prefix(lang);
    let section = values.section;
    let top = section.split('/').next().unwrap_or("");
    let url = match config.permalinks.get(top) {
        _ if is_section => format!("{prefix}/{section}/"),
        Some(pattern) => format!(
            "{prefix}/{}",
            expand(pattern, values).trim_start_matches('/')
        ),
        None => format!("{prefix}/{section}/{slug}/"),
    };
    let mut url = collapse_slashes(&url);
    if config.lowercase {
        url = url.to_lowercase();
    }
    // `uglyURLs`: a page is the file its URL names, `/2022/05/19/slug.html`.
    if !is_section && url.len() > 1 && config.ugly_in(top) {
        url = format!("{}.html", url.trim_end_matches('/'));
    }
    url
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
