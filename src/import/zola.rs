//! Zola: `config.toml` and `content/`, with sections (`_index.md`), pages
//! or page bundles (`name/index.md`), and translations by file name
//! (`index.es.md`).

use std::collections::BTreeSet;
use std::path::Path;

use super::anchors::keep_zola_anchors;
use super::carried::Carried;
use super::feeds;
use super::hugo_config::json_of;
use super::statics::copy_folder;
use super::tree::{FrontFormat, Place, TreeDocument, TreeSite, write_site};
use super::{Destination, ImportReport, Source, checked_language, language_code};
use crate::model::error::Error;
use crate::model::url::collapse_slashes;

pub(super) fn zola(source: &Source, into: &Destination) -> Result<ImportReport, Error> {
    let config_path = source.root().join("config.toml");
    let text = source.read(&config_path)?;
    let config: toml::Table = toml::from_str(&text).map_err(|e| Error::Config {
        path: config_path.clone(),
        line: None,
        message: e.message().to_owned(),
        help: "fix config.toml so that Zola itself would read it".into(),
    })?;
    let text_of = |key: &str| config.get(key).and_then(|v| v.as_str()).map(str::to_owned);
    let default_language = checked_language(
        &text_of("default_language").unwrap_or_else(|| "en".into()),
        &config_path,
        "default_language",
    )?;
    let languages: BTreeSet<String> = config
        .get("languages")
        .and_then(|l| l.as_table())
        .map(|table| table.keys().cloned().collect())
        .unwrap_or_default();
    for code in &languages {
        checked_language(code, &config_path, &format!("languages.{code}"))?;
    }
    let mut report = ImportReport::default();
    report.map_languages(languages.iter().chain([&default_language]));
    let mut documents = Vec::new();
    let content = source.root().join("content");
    for entry in source.walk(&content)? {
        let entry = entry.map_err(|e| Error::io(&content, std::io::Error::other(e)))?;
        let is_markdown = entry.path().extension().is_some_and(|e| e == "md");
        if !entry.file_type().is_file() || !is_markdown {
            continue;
        }
        let mut document = read_document(source, entry.path(), (&default_language, &languages))?;
        let (body, kept) = keep_zola_anchors(&document.body);
        document.body = body;
        report.anchors_kept += kept;
        documents.push(document);
    }
    let theme = text_of("theme");
    super::zola_shortcodes::convert_all(
        (source, into),
        theme.as_deref(),
        &mut documents,
        &mut report,
    )?;
    let (term_slug, ascii_terms) = term_slugs(&config);
    let site = TreeSite {
        generator: "Zola",
        config_file: "config.toml".to_owned(),
        title: text_of("title").unwrap_or_else(|| "Imported site".into()),
        base_url: text_of("base_url").unwrap_or_else(|| "https://example.org".into()),
        default_language,
        anchors_warn: config
            .get("link_checker")
            .and_then(|checker| checker.get("internal_level"))
            .and_then(|level| level.as_str())
            == Some("warn"),
        feeds: feeds::zola(&config),
        carried: Carried::zola(&json_of(toml::Value::Table(config.clone()))),
        term_slug,
        ascii_terms,
    };
    write_site((source, into), &site, documents, &mut report)?;
    let statics = source.root().join("static");
    copy_folder(
        (source, &statics),
        (into, &["static"]),
        &|_| true,
        &mut report,
    )?;
    Ok(report)
}

/// How the Zola site made its terms' URLs (`[slugify] taxonomies`), and
/// whether that is folio's ASCII rule: `on`, its default, is; `safe` (the
/// term with whitespace as dashes and the characters unsafe in a path
/// taken out) and `off` (the term as written) keep capitals, which no
/// folio rule does, so the check after the build names what they miss.
fn term_slugs(config: &toml::Table) -> (fn(&str) -> String, bool) {
    let rule = config
        .get("slugify")
        .and_then(|slugify| slugify.get("taxonomies"))
        .and_then(|rule| rule.as_str());
    match rule {
        Some("safe") => (
            |term| {
                let kept: String = term
                    .trim()
                    .chars()
                    .filter(|c| !"<>:/|?*#\\()[]\"'".contains(*c) && !c.is_control())
                    .collect();
                kept.split_whitespace().collect::<Vec<_>>().join("-")
            },
            false,
        ),
        Some("off") => (|term| term.to_owned(), false),
        _ => (|term| slug::slugify(term), true),
    }
}

fn read_document(
    source: &Source,
    file: &Path,
    (default_language, languages): (&str, &BTreeSet<String>),
) -> Result<TreeDocument, Error> {
    let rel = source.relative(file);
    let text = source.read(file)?.replace("\r\n", "\n");
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
        // The configuration's languages were checked as it was read.
        Some((name, suffix)) if languages.contains(suffix) => (name, language_code(suffix)),
        _ => (stem, default_language.to_owned()),
    };
    let Place {
        section,
        name: slug,
        is_section,
    } = Place::of(dir, name);
    let (file_date, file_slug) = strip_date(&slug);
    let file_day = slug.get(..10).unwrap_or_default().to_owned();
    let slug = field("slug").unwrap_or_else(|| file_slug.clone());
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
    Ok(TreeDocument {
        path: rel.clone(),
        lang,
        dated: fields.contains_key("date") || file_date,
        // Zola dates a page by its file's name when it has no `date`.
        date_from_file_name: (file_date && !fields.contains_key("date")).then_some(file_day),
        translation: format!("{dir}/{name}"),
        translation_key: None,
        menus: Vec::new(),
        terms: fields
            .get("taxonomies")
            .and_then(toml::Value::as_table)
            .into_iter()
            .flatten()
            .flat_map(|(taxonomy, terms)| {
                let terms = terms
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(toml::Value::as_str);
                terms
                    .map(move |term| (taxonomy.clone(), term.to_owned()))
                    .collect::<Vec<_>>()
            })
            .collect(),
        bundle: (name == "index").then(|| file.parent().unwrap_or(file).to_owned()),
        aliases: fields
            .get("aliases")
            .and_then(toml::Value::as_array)
            .map(|urls| {
                urls.iter()
                    .filter_map(|u| u.as_str().map(str::to_owned))
                    .collect()
            })
            .unwrap_or_default(),
        section,
        slug: if is_section && slug.is_empty() {
            "home".into()
        } else {
            slug
        },
        file_slug,
        format: FrontFormat::Toml,
        keys: fields.keys().cloned().collect(),
        front: front.lines().map(str::to_owned).collect(),
        body: body.to_owned(),
        url: collapse_slashes(&url),
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
