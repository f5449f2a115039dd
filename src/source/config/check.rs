//! How links are checked: the `[check]` table, how `folio check
//! --external` treats the links out of the site (read by every build like
//! the rest of site.toml, so a mistake in it is named whether or not the
//! check runs, and used by the check alone); and the `[links]` table, how
//! a build checks the links between documents.

use serde::Deserialize;

/// The `[check]` table of site.toml.
#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
#[non_exhaustive]
pub struct LinkCheck {
    /// Links starting with one of these are not asked for (hosts that
    /// refuse programs, or limit them however slowly they are asked):
    /// `["https://www.linkedin.com/"]`.
    pub skip_prefixes: Vec<String>,
    /// Seconds one link has to answer, redirects included; fractions
    /// allowed.
    pub timeout: f64,
}

impl Default for LinkCheck {
    fn default() -> Self {
        LinkCheck {
            skip_prefixes: Vec::new(),
            timeout: 10.0,
        }
    }
}

/// The longest `timeout` taken: a link slower than five minutes is as
/// good as gone, and a typo of a few zeros would stall a CI job for hours.
const LONGEST_TIMEOUT: f64 = 300.0;

impl LinkCheck {
    /// The table's mistakes: a prefix that no link checked can start with
    /// (it would skip nothing, silently), a timeout that is not a
    /// duration. The message and the help.
    pub(super) fn check(&self) -> Result<(), (String, String)> {
        if let Some(bad) = self
            .skip_prefixes
            .iter()
            .find(|prefix| !prefix.starts_with("https://") && !prefix.starts_with("http://"))
        {
            return Err((
                format!(
                    "check.skip_prefixes: `{bad}` is not the start of an http:// or https:// URL, the only links the check asks for"
                ),
                format!("write the URL's start with its scheme: `https://{bad}`"),
            ));
        }
        if !(self.timeout > 0.0 && self.timeout <= LONGEST_TIMEOUT) {
            return Err((
                format!(
                    "check.timeout: {} is not a number of seconds between 0 and {LONGEST_TIMEOUT}",
                    self.timeout
                ),
                "leave it out for the default, 10 seconds".into(),
            ));
        }
        Ok(())
    }

    /// Whether `link` is one the site says not to ask for.
    pub fn skips(&self, link: &str) -> bool {
        self.skip_prefixes
            .iter()
            .any(|prefix| link.starts_with(prefix.as_str()))
    }
}

/// The `[links]` table: how links between documents are checked.
#[derive(Debug, Clone, Copy, Default, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
#[non_exhaustive]
pub struct Links {
    /// What a link to a heading its target does not have does to the
    /// build: `"error"` (the default) fails it, `"warn"` says so and links
    /// the anchor all the same, as Zola's `internal_level = "warn"` does.
    /// A link to a document that is not there always fails it.
    #[serde(default)]
    pub anchors: Severity,
}

/// How a check that finds a problem ends.
#[derive(Debug, Clone, Copy, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// The build fails, naming what it found.
    #[default]
    Error,
    /// The build says what it found, and goes on.
    Warn,
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use crate::Error;
    use crate::source::config::Config;

    const MINIMAL: &str = "title = \"t\"\nbase_url = \"https://example.org\"\n";

    fn parse(check: &str) -> Result<Config, Error> {
        Config::parse(
            &format!("{MINIMAL}[check]\n{check}"),
            Path::new("site.toml"),
        )
    }

    #[test]
    fn the_check_table_says_which_links_to_skip_and_how_long_to_wait() {
        let default = Config::parse(MINIMAL, Path::new("site.toml"))
            .unwrap()
            .check;
        assert_eq!((default.skip_prefixes.len(), default.timeout), (0, 10.0));
        let set = parse("timeout = 2\nskip_prefixes = [\"https://github.com/\"]\n")
            .unwrap()
            .check;
        assert_eq!(set.timeout, 2.0, "whole seconds are read as seconds");
        assert!(set.skips("https://github.com/getzola/zola"));
        assert!(!set.skips("https://gitlab.com/"));
        assert_eq!(parse("timeout = 0.25\n").unwrap().check.timeout, 0.25);
        for wrong in [
            "timeout = 0",
            "timeout = -1",
            "timeout = 301",
            "timeout = nan",
        ] {
            let refused = parse(wrong).unwrap_err().to_string();
            assert!(refused.contains("check.timeout"), "{wrong}: {refused}");
        }
        let refused = parse("skip_prefixes = [\"github.com\"]\n")
            .unwrap_err()
            .to_string();
        assert!(refused.contains("`https://github.com`"), "{refused}");
        assert!(parse("skip = []\n").is_err(), "an unknown key is refused");
    }
}
