//! The feeds a site writes: which files each list of posts has (`feeds`,
//! each in a format named by its file or by the site), whether they hold
//! the summaries or the whole posts (`feed_content`), and which lists have
//! them (`feeds_for`: the homes, the terms of a taxonomy, the sections of
//! posts). Each a key of site.toml, as Zola's `feed_filenames` and
//! `feed_limit` are, so a site moved in from Zola reads them as it wrote
//! them; what a mistake in one is, is said with its line.

use std::fmt;

use serde::de::{self, Deserializer, MapAccess, Visitor};
use serde::{Deserialize, Serialize};

/// What a site.toml says of its feeds, checked.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Feeds {
    /// The files of each list that has feeds, in the order written: the
    /// first is the one the default theme's footer links.
    pub files: Vec<FeedFile>,
    pub content: FeedContent,
    /// Whether a language's home has feeds (its newest posts).
    pub home: bool,
    /// The taxonomies each of whose terms has feeds (its newest posts),
    /// beside its page.
    pub terms: Vec<String>,
    /// Whether each section of posts has feeds, unless its `_index.md`
    /// says `feed = false`.
    pub sections: bool,
}

impl Feeds {
    /// What `feeds`, `feed_content` and `feeds_for` say.
    pub(super) fn new(files: Vec<FeedFile>, content: FeedContent, lists: &[FeedList]) -> Feeds {
        Feeds {
            files,
            content,
            home: lists.contains(&FeedList::Home),
            terms: lists
                .iter()
                .filter_map(|list| match list {
                    FeedList::Taxonomy(name) => Some(name.clone()),
                    FeedList::Home | FeedList::Sections => None,
                })
                .collect(),
            sections: lists.contains(&FeedList::Sections),
        }
    }

    /// Whether each term of `taxonomy` has feeds.
    pub fn for_terms_of(&self, taxonomy: &str) -> bool {
        self.terms.iter().any(|name| name == taxonomy)
    }

    /// A list `feeds_for` names that the site does not have, with the help
    /// to fix it.
    pub(super) fn unknown_list(
        lists: &[FeedList],
        taxonomies: &[String],
    ) -> Option<(String, String)> {
        lists.iter().find_map(|list| match list {
            FeedList::Taxonomy(name) if !taxonomies.contains(name) => Some((
                format!("feeds_for: `{name}` is neither `home`, `sections` nor one of the site's taxonomies"),
                match taxonomies
                    .iter()
                    .find(|t| strsim::osa_distance(t, name) <= 2)
                {
                    Some(near) => format!("did you mean `{near}`?"),
                    None => format!(
                        "add `{name}` to `taxonomies`, or name `home`, `sections` or one of {taxonomies:?}"
                    ),
                },
            )),
            _ => None,
        })
    }
}

/// One feed file of a list: its name, in the list's folder (`atom.xml` of
/// `/fr/` is `/fr/atom.xml`), and its format.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct FeedFile {
    pub name: String,
    pub format: FeedFormat,
}

/// The formats folio writes a feed in, each with a template of the theme.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum FeedFormat {
    /// Atom 1.0 (RFC 4287).
    Atom,
    /// RSS 2.0.
    Rss,
    /// JSON Feed 1.1.
    Json,
}

impl FeedFormat {
    /// The template that writes it.
    pub fn template(self) -> &'static str {
        match self {
            FeedFormat::Atom => "atom.xml",
            FeedFormat::Rss => "rss.xml",
            FeedFormat::Json => "feed.json",
        }
    }

    /// Its media type, which a page's `<link rel="alternate">` names.
    pub fn media_type(self) -> &'static str {
        match self {
            FeedFormat::Atom => "application/atom+xml",
            FeedFormat::Rss => "application/rss+xml",
            FeedFormat::Json => "application/feed+json",
        }
    }

    /// The key of its name among the theme's words (`Atom feed`).
    pub fn word(self) -> &'static str {
        match self {
            FeedFormat::Atom => "feed",
            FeedFormat::Rss => "feed_rss",
            FeedFormat::Json => "feed_json",
        }
    }

    /// As site.toml writes it.
    pub fn key(self) -> &'static str {
        match self {
            FeedFormat::Atom => "atom",
            FeedFormat::Rss => "rss",
            FeedFormat::Json => "json",
        }
    }

    /// The format a file name says: `atom.xml` and `*.atom` are Atom,
    /// `rss.xml` and `*.rss` RSS, `*.json` JSON Feed. Any other (`index.xml`,
    /// Hugo's RSS; `feed.xml`, Jekyll's Atom) says nothing: each generator
    /// means another format by it.
    pub(crate) fn of_name(name: &str) -> Option<FeedFormat> {
        let lower = name.to_ascii_lowercase();
        if lower == "atom.xml" || lower.ends_with(".atom") {
            Some(FeedFormat::Atom)
        } else if lower == "rss.xml" || lower.ends_with(".rss") {
            Some(FeedFormat::Rss)
        } else if lower.ends_with(".json") {
            Some(FeedFormat::Json)
        } else {
            None
        }
    }
}

impl FeedFile {
    /// The file `name`, in `format` or the one its name says.
    fn named(name: &str, format: Option<FeedFormat>) -> Result<FeedFile, String> {
        if name.is_empty()
            || name.starts_with('.')
            || name.contains(['/', '\\'])
            || name.chars().any(char::is_control)
        {
            return Err(format!(
                "`{name}` is not a file name: a feed is a file in the folder of its list (`atom.xml` of the French home is /fr/atom.xml)"
            ));
        }
        let format = format.or_else(|| FeedFormat::of_name(name)).ok_or_else(|| {
            format!(
                "`{name}` does not say which format it is in: write {{ file = \"{name}\", format = \"rss\" }} (or \"atom\", \"json\"); atom.xml, rss.xml and *.json say it themselves"
            )
        })?;
        Ok(FeedFile {
            name: name.to_owned(),
            format,
        })
    }
}

impl<'de> Deserialize<'de> for FeedFile {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<FeedFile, D::Error> {
        deserializer.deserialize_any(FeedFileVisitor)
    }
}

/// A feed file as site.toml writes it: its name, or a table of its name
/// and format.
struct FeedFileVisitor;

impl<'de> Visitor<'de> for FeedFileVisitor {
    type Value = FeedFile;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(
            "a file name such as \"atom.xml\", or a table such as { file = \"index.xml\", format = \"rss\" }",
        )
    }

    fn visit_str<E: de::Error>(self, name: &str) -> Result<FeedFile, E> {
        FeedFile::named(name, None).map_err(E::custom)
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<FeedFile, A::Error> {
        #[derive(Deserialize)]
        #[serde(deny_unknown_fields)]
        struct Table {
            file: String,
            format: Option<FeedFormat>,
        }
        let table = Table::deserialize(de::value::MapAccessDeserializer::new(map))?;
        FeedFile::named(&table.file, table.format).map_err(de::Error::custom)
    }
}

/// What a feed entry holds besides its title, link and dates.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FeedContent {
    /// The post's summary, as its lists show it.
    #[default]
    Summary,
    /// The summary and the whole post, so a reader need not leave the
    /// feed reader.
    Full,
}

/// A kind of list that can have feeds (`feeds_for`): `home`, `sections`
/// (each section of posts), or the name of a taxonomy, whose every term
/// then has them.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(from = "String")]
pub(super) enum FeedList {
    Home,
    Sections,
    Taxonomy(String),
}

impl From<String> for FeedList {
    fn from(name: String) -> FeedList {
        match name.as_str() {
            "home" => FeedList::Home,
            // The sections' lists, whatever the taxonomies are called.
            "sections" => FeedList::Sections,
            _ => FeedList::Taxonomy(name),
        }
    }
}

/// The `feeds` list: a file named twice would be two feeds at one place.
pub(super) fn files<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Vec<FeedFile>, D::Error> {
    let files = Vec::<FeedFile>::deserialize(deserializer)?;
    for (at, file) in files.iter().enumerate() {
        if files[..at].iter().any(|other| other.name == file.name) {
            return Err(de::Error::custom(format!(
                "`{}` is named twice: name each feed file once",
                file.name
            )));
        }
    }
    Ok(files)
}

pub(super) fn default_files() -> Vec<FeedFile> {
    vec![FeedFile {
        name: "atom.xml".into(),
        format: FeedFormat::Atom,
    }]
}

pub(super) fn default_lists() -> Vec<FeedList> {
    vec![FeedList::Home]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, Deserialize)]
    struct Site {
        #[serde(deserialize_with = "super::files")]
        feeds: Vec<FeedFile>,
    }

    fn files(toml: &str) -> Result<Vec<(String, FeedFormat)>, String> {
        toml::from_str::<Site>(toml)
            .map(|site| {
                site.feeds
                    .into_iter()
                    .map(|file| (file.name, file.format))
                    .collect()
            })
            .map_err(|e| e.to_string())
    }

    #[test]
    fn a_file_name_says_its_format_or_the_site_does() {
        assert_eq!(
            files(r#"feeds = ["atom.xml", "rss.xml", "feed.json", "x.atom", "y.rss"]"#).unwrap(),
            [
                ("atom.xml".into(), FeedFormat::Atom),
                ("rss.xml".into(), FeedFormat::Rss),
                ("feed.json".into(), FeedFormat::Json),
                ("x.atom".into(), FeedFormat::Atom),
                ("y.rss".into(), FeedFormat::Rss),
            ]
        );
        assert_eq!(
            files(r#"feeds = [{ file = "index.xml", format = "rss" }, { file = "feed.xml", format = "atom" }]"#)
                .unwrap(),
            [
                ("index.xml".into(), FeedFormat::Rss),
                ("feed.xml".into(), FeedFormat::Atom),
            ]
        );
        let said = files("feeds = [\"atom.xml\",\n  \"index.xml\"]").unwrap_err();
        assert!(said.contains("line 2"), "{said}");
        assert!(
            said.contains("{ file = \"index.xml\", format = \"rss\" }"),
            "{said}"
        );
        for bad in ["", ".atom", "a/atom.xml", "..\\\\x.json"] {
            let said = files(&format!("feeds = [\"{bad}\"]")).unwrap_err();
            assert!(said.contains("is not a file name"), "{bad}: {said}");
        }
        let said = files(r#"feeds = [{ file = "index.xml", format = "rss2" }]"#).unwrap_err();
        assert!(said.contains("`atom`, `rss`"), "{said}");
        let said = files(r#"feeds = [{ name = "index.xml" }]"#).unwrap_err();
        assert!(said.contains("unknown field `name`"), "{said}");
        let said =
            files(r#"feeds = ["atom.xml", { file = "atom.xml", format = "atom" }]"#).unwrap_err();
        assert!(said.contains("`atom.xml` is named twice"), "{said}");
    }
}
