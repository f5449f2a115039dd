//! The rows `folio publish` writes: one per published document, made from
//! its record and its body, and the hash that tells an unchanged row.

use sha2::{Digest, Sha256};

use crate::build::produce;
use crate::model::doc::{Kind, Record};
use crate::model::error::{Error, Problem, ProblemKind};
use crate::model::hash::hex;
use crate::plan::Model;
use crate::plugin::Plugins;
use crate::render::Theme;
use crate::source::config::{Config, folio_settings};
use crate::source::discover::FilesAt;
use crate::source::shortcodes::Shortcodes;

/// A published document as the database gets it, but for its body, which
/// is rendered only when the row must be written.
pub(crate) struct Local<'r> {
    pub record: &'r Record,
    /// The id as the database keys it: compared, reported and sent.
    pub id: String,
    /// Absolute: the database's readers are not on the site's host.
    pub url: String,
    /// With each `@/` link's URL in its place.
    pub summary: String,
    /// What the remote's `source_hash` holds: see [`row_hash`].
    pub hash: String,
}

impl<'r> Local<'r> {
    /// `links` resolves the links between documents, when one has some;
    /// `theme` has the shortcodes bodies call.
    pub(super) fn new(
        record: &'r Record,
        config: &Config,
        (links, theme): (Option<&Model>, &Theme),
    ) -> Local<'r> {
        let id = record.id.to_string();
        let url = format!("{}{}", config.origin, record.url);
        let (summary, targets) = match links {
            Some(links) => {
                let (summary, targets) = links.links_of(record, &record.summary);
                (summary.into_owned(), targets)
            }
            None => (record.summary.clone(), Vec::new()),
        };
        // A body is also made by the templates of the shortcodes it calls.
        let made_by: Vec<String> = targets
            .into_iter()
            .chain(
                record
                    .shortcodes
                    .iter()
                    .map(|name| format!("shortcode {name} {}", theme.shortcode_hash(name))),
            )
            .collect();
        let hash = row_hash(record, &id, &url, &made_by);
        Local {
            record,
            id,
            url,
            summary,
            hash,
        }
    }
}

/// The hash of everything a row is made from: the source's bytes (which,
/// with the Markdown transforms that touched them and folio's version, make
/// the body) and every other column as this build derived it (so a setting
/// that moves a URL changes it too), with where its links to other
/// documents lead and the templates of the shortcodes it calls. Equal
/// hashes, equal rows: the upsert skips a row whose stored hash is this one.
fn row_hash(record: &Record, id: &str, url: &str, made_by: &[String]) -> String {
    // A JSON array of borrowed columns: nothing is copied to be hashed.
    let columns = (
        folio_settings(),
        &record.source.hash,
        &record.plugins,
        id,
        record.kind.as_str(),
        &record.slug,
        &record.lang,
        record.published_at,
        record.updated_at,
        &record.title,
        url,
        &record.description,
        &record.summary,
        &record.tags,
        &record.translation_key,
        &record.extra,
    );
    let mut json = serde_json::to_vec(&columns).unwrap_or_default();
    // Only a row with links or shortcodes hashes them: the others keep
    // their hash.
    if !made_by.is_empty() {
        json.extend(serde_json::to_vec(made_by).unwrap_or_default());
    }
    hex(&Sha256::digest(&json))
}

/// One row, every column as it is sent.
pub(crate) struct Row {
    pub id: String,
    pub kind: &'static str,
    pub slug: String,
    pub lang: String,
    /// Unix milliseconds; none for a page.
    pub published_ms: Option<i64>,
    pub updated_ms: Option<i64>,
    pub title: String,
    pub url: String,
    pub description: Option<String>,
    pub summary: String,
    pub body: String,
    /// A JSON array: arrays of arrays do not travel as one array column.
    pub tags: String,
    pub translation_key: String,
    pub extra: String,
    pub source_hash: String,
}

/// The row of `local`, its body rendered from its source as its page
/// renders it. The source must still hold the bytes its record was made
/// from: a file saved since the build is named, and the next publish
/// builds it first.
pub(crate) fn row(
    local: &Local<'_>,
    files: &FilesAt,
    render: (&Plugins, &Config, &Shortcodes),
    links: Option<&Model>,
) -> Result<Row, Error> {
    let record = local.record;
    // Its page's build reported what rendering its body noted.
    let body = produce::body_html(files, record, None, render)?;
    let (body, _) = body.ok_or_else(|| {
        Error::Content(vec![Problem::new(
            &record.source.path,
            None,
            ProblemKind::ChangedDuringBuild,
        )])
    })?;
    let body = match links {
        Some(links) => links.links_of(record, &body).0.into_owned(),
        None => body,
    };
    let tags: Vec<String> = record.tags.iter().map(|t| without_nul(t)).collect();
    Ok(Row {
        id: local.id.clone(),
        kind: record.kind.as_str(),
        slug: without_nul(&record.slug),
        lang: record.lang.clone(),
        published_ms: (record.kind == Kind::Post).then_some(record.published_at),
        updated_ms: record.updated_at,
        title: without_nul(&record.title),
        url: local.url.clone(),
        description: record.description.as_deref().map(without_nul),
        summary: without_nul(&local.summary),
        body: without_nul(&body),
        tags: serde_json::to_string(&tags).unwrap_or_else(|_| "[]".into()),
        translation_key: without_nul(&record.translation_key),
        extra: json_without_nul(&record.extra),
        source_hash: local.hash.clone(),
    })
}

/// `text` with each NUL made U+FFFD, as CommonMark does in a body:
/// PostgreSQL's text and jsonb cannot hold one, and a front matter can
/// write one as an escape (`"\0"` in YAML).
fn without_nul(text: &str) -> String {
    text.replace('\0', "\u{FFFD}")
}

/// A JSON text with each NUL in its strings (and keys) made U+FFFD.
fn json_without_nul(json: &str) -> String {
    if !json.contains("\\u0000") {
        return json.to_owned();
    }
    fn clean(value: serde_json::Value) -> serde_json::Value {
        use serde_json::Value;
        match value {
            Value::String(text) => Value::String(without_nul(&text)),
            Value::Array(items) => Value::Array(items.into_iter().map(clean).collect()),
            Value::Object(map) => Value::Object(
                map.into_iter()
                    .map(|(key, value)| (without_nul(&key), clean(value)))
                    .collect(),
            ),
            other => other,
        }
    }
    serde_json::from_str(json)
        .map(|value| clean(value).to_string())
        .unwrap_or_else(|_| json.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_nul_becomes_a_replacement_character_in_text_and_in_json() {
        assert_eq!(without_nul("a\0b"), "a\u{FFFD}b");
        assert_eq!(
            json_without_nul(r#"{"k\u0000":["x\u0000y"],"n":1}"#),
            "{\"k\u{FFFD}\":[\"x\u{FFFD}y\"],\"n\":1}"
        );
        // An escaped backslash before `u0000` is text, not a NUL.
        let text = r#"{"path":"C:\\u0000"}"#;
        assert_eq!(json_without_nul(text), text);
    }
}
