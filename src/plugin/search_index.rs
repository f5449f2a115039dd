//! A search index per language, as an example of an [`OutputPlugin`].

use serde::Serialize;

use super::{LanguageDocuments, OutputPlugin, Plugin, PluginError};

/// Writes `search.json` at each language's root (`/search.json`,
/// `/fr/search.json`): every published post and page of the language with
/// its title, URL, date, tags and summary as text, for a client-side
/// search. Written again when a document of its language changes.
///
/// ```
/// use folio::plugin::{OutputPlugin, SearchIndex};
///
/// assert_eq!(SearchIndex::new().path("fr", "fr/"), "fr/search.json");
/// ```
#[derive(Debug, Clone, Default)]
pub struct SearchIndex {
    _private: (),
}

impl SearchIndex {
    /// Its name, which `[plugins] search_index = true` in site.toml turns on.
    pub const NAME: &str = "search-index";

    /// The search index plugin.
    pub fn new() -> SearchIndex {
        SearchIndex::default()
    }
}

/// One entry of the index.
#[derive(Serialize)]
struct Entry<'a> {
    title: &'a str,
    url: &'a str,
    kind: &'a str,
    /// Unix milliseconds; 0 for a page.
    published_at: i64,
    tags: &'a [String],
    text: String,
}

/// The file.
#[derive(Serialize)]
struct Index<'a> {
    lang: &'a str,
    documents: Vec<Entry<'a>>,
}

impl Plugin for SearchIndex {
    fn name(&self) -> &str {
        SearchIndex::NAME
    }

    fn version(&self) -> &str {
        "1"
    }
}

impl OutputPlugin for SearchIndex {
    fn path(&self, _lang: &str, root: &str) -> String {
        format!("{root}search.json")
    }

    fn render(&self, language: &LanguageDocuments<'_>) -> Result<Vec<u8>, PluginError> {
        let documents = language
            .documents
            .iter()
            .map(|doc| Entry {
                title: doc.title,
                url: doc.url,
                kind: doc.kind,
                published_at: doc.published_at,
                tags: doc.tags,
                text: text_of(doc.description.unwrap_or(doc.summary)),
            })
            .collect();
        let index = Index {
            lang: language.lang,
            documents,
        };
        Ok(serde_json::to_vec(&index)?)
    }
}

/// The text of an HTML fragment: tags dropped, the five entities folio
/// writes read back, runs of white space made one space.
fn text_of(html: &str) -> String {
    let mut text = String::with_capacity(html.len());
    let mut in_tag = false;
    for c in html.chars() {
        match c {
            '<' => in_tag = true,
            '>' if in_tag => {
                in_tag = false;
                text.push(' ');
            }
            c if !in_tag => text.push(c),
            _ => {}
        }
    }
    let text = text
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&amp;", "&");
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn html_becomes_plain_text() {
        assert_eq!(
            text_of("<p>Fish &amp; <em>chips</em>\n &lt;3</p>"),
            "Fish & chips <3"
        );
    }
}
