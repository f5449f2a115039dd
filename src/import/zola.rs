//! Zola: `config.toml` and `content/`, with sections (`_index.md`), pages
//! or page bundles (`name/index.md`), and translations by file name
//! (`index.es.md`).

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::Path;

use super::{ImportReport, SiteSettings, count_template_tags, language_code, relative};
use crate::error::Error;

/// One page or section of the old site, as folio will hold it.
struct ZolaDocument {
    /// Relative to the source folder.
    path: String,
    lang: String,
    /// The section path under `content/` (`blog`, `pages`), empty at the
    /// root.
    section: String,
    slug: String,
    /// Front matter lines, without the `+++` lines.
    front: Vec<String>,
    body: String,
    url: String,
    dated: bool,
    /// A section's own page (`_index.md`).
    is_section: bool,
}

pub(super) fn zola(source: &Path, into: &Path) -> Result<ImportReport, Error> {
    let config_path = source.join("config.toml");
    let text = fs::read_to_string(&config_path).map_err(|e| Error::io(&config_path, e))?;
    let config: toml::Table = toml::from_str(&text).map_err(|e| Error::Config {
        path: config_path.clone(),
        line: None,
        message: e.message().to_owned(),
        help: "fix config.toml so that Zola itself would read it".into(),
    })?;
    let text_of = |key: &str| config.get(key).and_then(|v| v.as_str()).map(str::to_owned);
    let default_language =
        language_code(&text_of("default_language").unwrap_or_else(|| "en".into()));
    let languages: BTreeSet<String> = config
        .get("languages")
        .and_then(|l| l.as_table())
        .map(|table| table.keys().cloned().collect())
        .unwrap_or_default();
    let mut report = ImportReport::default();
    let mut documents = Vec::new();
    let content = source.join("content");
    for entry in walkdir::WalkDir::new(&content).sort_by_file_name() {
        let entry = entry.map_err(|e| Error::io(&content, std::io::Error::other(e)))?;
        let is_markdown = entry.path().extension().is_some_and(|e| e == "md");
        if !entry.file_type().is_file() || !is_markdown {
            continue;
        }
        let document = read_document(source, entry.path(), (&default_language, &languages))?;
        count_template_tags(&document.body, &mut report);
        documents.push(document);
    }
    // A section whose every page is dated is a section of posts.
    let mut sections: BTreeMap<String, bool> = BTreeMap::new();
    for doc in documents.iter().filter(|d| !d.is_section) {
        let top = doc.section.split('/').next().unwrap_or("").to_owned();
        let all_dated = sections.entry(top).or_insert(true);
        *all_dated &= doc.dated && !doc.section.is_empty();
    }
    let post_sections: Vec<String> = sections
        .into_iter()
        .filter(|(name, all_dated)| *all_dated && !name.is_empty())
        .map(|(name, _)| name)
        .collect();
    let mut langs: BTreeSet<String> = documents.iter().map(|d| d.lang.clone()).collect();
    langs.insert(default_language.clone());
    report.languages = std::iter::once(default_language.clone())
        .chain(langs.into_iter().filter(|l| *l != default_language))
        .collect();
    let settings = SiteSettings {
        generator: "Zola",
        title: text_of("title").unwrap_or_else(|| "Imported site".into()),
        base_url: text_of("base_url").unwrap_or_else(|| "https://example.org".into()),
        default_language,
        timezone: None,
        post_sections: if post_sections.is_empty() {
            vec!["posts".into()]
        } else {
            post_sections.clone()
        },
    };
    fs::create_dir_all(into).map_err(|e| Error::io(into, e))?;
    let site_toml = into.join("site.toml");
    fs::write(&site_toml, settings.site_toml(&report.languages))
        .map_err(|e| Error::io(&site_toml, e))?;
    let mut written = BTreeSet::new();
    for doc in &documents {
        // A section without text of its own is a list, which folio makes
        // (the home and tag pages): nothing to carry over.
        if doc.is_section && doc.body.trim().is_empty() {
            let why = "a section without text: a list, which folio makes".to_owned();
            report.left_out.push((doc.path.clone(), why));
            continue;
        }
        let is_post = post_sections
            .iter()
            .any(|s| doc.section.split('/').next() == Some(s.as_str()))
            && !doc.is_section;
        write_document(into, doc, &mut written, &mut report)?;
        *report.posts.entry(doc.lang.clone()).or_default() += usize::from(is_post);
        *report.pages.entry(doc.lang.clone()).or_default() += usize::from(!is_post);
        report.permalinks_written += 1;
    }
    Ok(report)
}

fn read_document(
    source: &Path,
    file: &Path,
    (default_language, languages): (&str, &BTreeSet<String>),
) -> Result<ZolaDocument, Error> {
    let rel = relative(source, file);
    let text = fs::read_to_string(file)
        .map_err(|e| Error::io(file, e))?
        .replace("\r\n", "\n");
    let (front, body) = match text
        .strip_prefix("+++\n")
        .and_then(|rest| rest.split_once("\n+++"))
    {
        Some((front, body)) => (front, body.strip_prefix('\n').unwrap_or(body)),
        None => ("", text.as_str()),
    };
    let fields: toml::Table = toml::from_str(front).unwrap_or_default();
    let field = |key: &str| {
        fields
            .get(key)
            .map(|v| v.as_str().map_or_else(|| v.to_string(), str::to_owned))
    };
    let under_content = rel.strip_prefix("content/").unwrap_or(&rel);
    let (dir, file_name) = under_content
        .rsplit_once('/')
        .unwrap_or(("", under_content));
    let stem = file_name.strip_suffix(".md").unwrap_or(file_name);
    let (name, lang) = match stem.rsplit_once('.') {
        Some((name, suffix)) if languages.contains(suffix) => (name, language_code(suffix)),
        _ => (stem, default_language.to_owned()),
    };
    let (section, slug, is_section) = match name {
        "_index" => (
            dir.to_owned(),
            dir.rsplit('/').next().unwrap_or("").to_owned(),
            true,
        ),
        "index" => {
            let (parent, bundle) = dir.rsplit_once('/').unwrap_or(("", dir));
            (parent.to_owned(), bundle.to_owned(), false)
        }
        _ => (dir.to_owned(), name.to_owned(), false),
    };
    let (file_date, slug) = strip_date(&slug);
    let slug = field("slug").unwrap_or(slug);
    let prefix = if lang == default_language {
        String::new()
    } else {
        format!("/{lang}")
    };
    let url = match field("path") {
        Some(path) => format!("/{}/", path.trim_matches('/')),
        None if is_section => format!("{prefix}/{section}/"),
        None => format!("{prefix}/{section}/{slug}/"),
    };
    Ok(ZolaDocument {
        path: rel.clone(),
        lang,
        dated: fields.contains_key("date") || file_date,
        section,
        slug: if is_section && slug.is_empty() {
            "home".into()
        } else {
            slug
        },
        front: front.lines().map(str::to_owned).collect(),
        body: body.to_owned(),
        url: url.replace("//", "/"),
        is_section,
    })
}

/// `2024-01-01-name` or `2024-01-01_name` as (dated, `name`).
fn strip_date(name: &str) -> (bool, String) {
    let bytes = name.as_bytes();
    let dated = bytes.len() > 11
        && bytes[..10].iter().enumerate().all(|(i, b)| {
            if i == 4 || i == 7 {
                *b == b'-'
            } else {
                b.is_ascii_digit()
            }
        })
        && matches!(bytes[10], b'-' | b'_');
    if dated {
        (true, name[11..].to_owned())
    } else {
        (false, name.to_owned())
    }
}

/// Writes a document where folio's layout puts it (posts and pages under
/// `content/<lang>/<section>/`, a section's own page as `<section>.md`
/// beside its folder), its front matter as it was plus its `permalink` and
/// `slug`, written before the first table (a key after `[extra]` would be
/// the table's); Zola's `template` is kept as `zola_template`, since its
/// templates are not folio's.
fn write_document(
    into: &Path,
    doc: &ZolaDocument,
    written: &mut BTreeSet<std::path::PathBuf>,
    report: &mut ImportReport,
) -> Result<(), Error> {
    let lang_root = into.join("content").join(&doc.lang);
    let mut path = if doc.is_section {
        let (parent, name) = doc.section.rsplit_once('/').unwrap_or(("", &doc.section));
        let name = if name.is_empty() { "home" } else { name };
        lang_root.join(parent).join(format!("{name}.md"))
    } else {
        lang_root
            .join(&doc.section)
            .join(format!("{}.md", doc.slug))
    };
    let mut n = 2;
    while !written.insert(path.clone()) {
        path = path.with_file_name(format!("{}-{n}.md", doc.slug));
        n += 1;
    }
    let folder = path.parent().unwrap_or(into);
    fs::create_dir_all(folder).map_err(|e| Error::io(folder, e))?;
    let first_table = doc
        .front
        .iter()
        .position(|l| l.trim_start().starts_with('['))
        .unwrap_or(doc.front.len());
    let quote = |text: &str| toml::Value::String(text.to_owned()).to_string();
    let mut lines: Vec<String> = Vec::with_capacity(doc.front.len() + 3);
    for line in &doc.front[..first_table] {
        let key = line.split('=').next().unwrap_or("").trim();
        match key {
            "slug" | "path" => continue,
            "template" => {
                report.zola_templates += 1;
                lines.push(format!("zola_{}", line.trim_start()));
            }
            _ => lines.push(line.clone()),
        }
    }
    lines.push(format!("permalink = {}", quote(&doc.url)));
    lines.push(format!("slug = {}", quote(&doc.slug)));
    lines.extend(doc.front[first_table..].iter().cloned());
    let text = format!("+++\n{}\n+++\n{}", lines.join("\n"), doc.body);
    fs::write(&path, text).map_err(|e| Error::io(&path, e))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dated_file_names_give_their_slug() {
        assert_eq!(strip_date("2024-01-01-hello"), (true, "hello".to_owned()));
        assert_eq!(strip_date("2024-01-01_hello"), (true, "hello".to_owned()));
        assert_eq!(strip_date("hello"), (false, "hello".to_owned()));
    }
}
