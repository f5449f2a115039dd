//! The feeds an old site had, kept at their URLs: Hugo's RSS at
//! `index.xml` of the home and of each tag, jekyll-feed's Atom at
//! `feed.xml`, Zola's `feed_filenames` of the home and of the tags whose
//! taxonomy has `feed = true`. A site that had none, or feeds folio cannot
//! write where they were, keeps folio's (`atom.xml` of each home).

use serde_json::Value;

use crate::source::config::FeedFormat;

/// The feeds of an old site, in site.toml's words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct OldFeeds {
    /// Each file's name, in its list's folder, and format.
    files: Vec<(String, FeedFormat)>,
    home: bool,
    tags: bool,
}

impl OldFeeds {
    /// The names of the feeds each language's home had.
    pub(super) fn home_files(&self) -> Vec<String> {
        match self.home {
            true => self.files.iter().map(|(name, _)| name.clone()).collect(),
            false => Vec::new(),
        }
    }

    /// The lines of site.toml that say them, where they are not folio's
    /// defaults.
    pub(super) fn toml(&self, generator: &str) -> String {
        let quote = |text: &str| toml::Value::String(text.to_owned()).to_string();
        let mut toml = String::new();
        if self.files != [("atom.xml".to_owned(), FeedFormat::Atom)] {
            let files: Vec<String> = self
                .files
                .iter()
                .map(|(name, format)| match FeedFormat::of_name(name) {
                    Some(said) if said == *format => quote(name),
                    _ => format!(
                        "{{ file = {}, format = {} }}",
                        quote(name),
                        quote(format.key())
                    ),
                })
                .collect();
            toml.push_str(&format!("feeds = [{}]\n", files.join(", ")));
        }
        if self.tags || !self.home {
            let lists: Vec<&str> = [("\"home\"", self.home), ("\"tags\"", self.tags)]
                .into_iter()
                .filter_map(|(list, has)| has.then_some(list))
                .collect();
            toml.push_str(&format!("feeds_for = [{}]\n", lists.join(", ")));
        }
        if toml.is_empty() {
            return toml;
        }
        format!("# The feeds the {generator} site had, at their URLs.\n{toml}")
    }
}

/// Hugo's: RSS at `index.xml` (or the `baseName` its `outputFormats` gives
/// RSS) of the home and of each term, unless `disableKinds` or `outputs`
/// leave them out. Hugo reads its keys in any case.
pub(super) fn hugo(config: &Value) -> Option<OldFeeds> {
    let get = |value: &Value, key: &str| -> Option<Value> {
        let map = value.as_object()?;
        map.iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(key))
            .map(|(_, v)| v.clone())
    };
    let names = |value: Option<Value>| -> Option<Vec<String>> {
        let list = value?.as_array()?.clone();
        Some(
            list.iter()
                .filter_map(|v| v.as_str().map(str::to_ascii_lowercase))
                .collect(),
        )
    };
    let disabled = names(get(config, "disableKinds")).unwrap_or_default();
    if disabled.iter().any(|k| k == "rss") {
        return None;
    }
    let outputs = get(config, "outputs");
    let has_rss = |kind: &str| {
        names(outputs.as_ref().and_then(|o| get(o, kind)))
            .is_none_or(|formats| formats.iter().any(|f| f == "rss"))
    };
    // A term's feed needs its page, which `disableKinds` can leave out.
    let terms = !disabled.iter().any(|k| k == "term" || k == "taxonomy");
    let (home, tags) = (has_rss("home"), terms && has_rss("term"));
    let base = get(config, "outputFormats")
        .and_then(|formats| get(&formats, "rss"))
        .and_then(|rss| get(&rss, "baseName"))
        .and_then(|name| name.as_str().map(str::to_owned))
        .unwrap_or_else(|| "index".to_owned());
    (home || tags).then(|| OldFeeds {
        files: vec![(format!("{base}.xml"), FeedFormat::Rss)],
        home,
        tags,
    })
}

/// jekyll-feed's, when `plugins` (or the older `gems`) names it: Atom at
/// `feed.xml`, or at the file its `feed: path:` names at the site's root.
pub(super) fn jekyll(config: &Value) -> Option<OldFeeds> {
    let plugin = ["plugins", "gems"].iter().any(|key| {
        config
            .get(key)
            .and_then(Value::as_array)
            .is_some_and(|list| list.iter().any(|p| p.as_str() == Some("jekyll-feed")))
    });
    let name = match config.get("feed").and_then(|f| f.get("path")) {
        None => "feed.xml".to_owned(),
        // One at another folder than the home's is no feed of a list.
        Some(path) => path
            .as_str()
            .map(|path| path.trim_start_matches('/'))
            .filter(|name| !name.is_empty() && !name.contains('/'))?
            .to_owned(),
    };
    plugin.then(|| OldFeeds {
        files: vec![(name, FeedFormat::Atom)],
        home: true,
        tags: false,
    })
}

/// Zola's: `feed_filenames` (`feed_filename` before 0.19; `atom.xml` when
/// neither) of the home with `generate_feeds` (`generate_feed`), and of
/// each tag when the `tags` taxonomy has `feed = true`. Only the names of
/// Zola's own templates say a format: another had a template of the
/// site's, in a format folio cannot tell.
pub(super) fn zola(config: &toml::Table) -> Option<OldFeeds> {
    let flag = |keys: [&str; 2]| keys.iter().any(|k| config.get(*k) == Some(&true.into()));
    let home = flag(["generate_feeds", "generate_feed"]);
    let tags = config
        .get("taxonomies")
        .and_then(|t| t.as_array())
        .into_iter()
        .flatten()
        .any(|t| {
            t.get("name").and_then(|n| n.as_str()) == Some("tags")
                && t.get("feed") == Some(&true.into())
        });
    let names: Vec<String> = match (config.get("feed_filenames"), config.get("feed_filename")) {
        (Some(names), _) => names
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|n| n.as_str().map(str::to_owned))
            .collect(),
        (None, Some(name)) => name.as_str().map(str::to_owned).into_iter().collect(),
        (None, None) => vec!["atom.xml".to_owned()],
    };
    let files: Vec<(String, FeedFormat)> = names
        .into_iter()
        .filter(|name| name == "atom.xml" || name == "rss.xml")
        .filter_map(|name| Some((name.clone(), FeedFormat::of_name(&name)?)))
        .collect();
    ((home || tags) && !files.is_empty()).then_some(OldFeeds { files, home, tags })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn said(feeds: Option<OldFeeds>) -> String {
        feeds.map(|f| f.toml("X")).unwrap_or_default()
    }

    #[test]
    fn each_generator_s_feeds_are_said_at_their_urls() {
        let hugo = |json: &str| said(super::hugo(&serde_json::from_str(json).unwrap()));
        assert_eq!(
            hugo("{}"),
            "# The feeds the X site had, at their URLs.\nfeeds = [{ file = \"index.xml\", format = \"rss\" }]\nfeeds_for = [\"home\", \"tags\"]\n"
        );
        assert_eq!(hugo(r#"{"disableKinds": ["RSS"]}"#), "");
        assert!(
            hugo(
                r#"{"outputs": {"term": ["html"]}, "outputFormats": {"RSS": {"baseName": "feed"}}}"#
            )
            .ends_with("feeds = [{ file = \"feed.xml\", format = \"rss\" }]\n")
        );
        let jekyll = |json: &str| said(super::jekyll(&serde_json::from_str(json).unwrap()));
        assert_eq!(jekyll(r#"{"plugins": ["jekyll-redirect-from"]}"#), "");
        assert!(
            jekyll(r#"{"plugins": ["jekyll-feed"]}"#)
                .ends_with("feeds = [{ file = \"feed.xml\", format = \"atom\" }]\n")
        );
        assert!(
            jekyll(r#"{"gems": ["jekyll-feed"], "feed": {"path": "/atom.xml"}}"#).is_empty(),
            "folio's own"
        );
        assert_eq!(
            jekyll(r#"{"plugins": ["jekyll-feed"], "feed": {"path": "/blog/feed.atom"}}"#),
            ""
        );
        let zola = |text: &str| said(super::zola(&toml::from_str(text).unwrap()));
        assert_eq!(zola("generate_feeds = true"), "");
        assert!(
            zola("generate_feeds = true\nfeed_filenames = [\"atom.xml\", \"rss.xml\", \"x.xml\"]\ntaxonomies = [{ name = \"tags\", feed = true }]")
                .ends_with("feeds = [\"atom.xml\", \"rss.xml\"]\nfeeds_for = [\"home\", \"tags\"]\n")
        );
        assert!(
            zola("generate_feed = true\nfeed_filename = \"rss.xml\"")
                .ends_with("feeds = [\"rss.xml\"]\n")
        );
        assert_eq!(zola("title = \"no feeds\""), "");
    }
}
