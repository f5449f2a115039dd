//! Output paths: where a page goes under the output folder, a path that
//! cannot leave it.

use super::*;

/// A path relative to the output folder, `/`-separated, that cannot leave it:
/// no empty, `.` or `..` segment, no backslash, no NUL.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct OutputPath(String);

impl OutputPath {
    pub fn new(path: &str) -> Option<OutputPath> {
        OutputPath::checked(path.to_owned())
    }

    /// Every page's path is checked on every build: one pass over the bytes
    /// for the forbidden ones, then the segments, and no copy.
    pub(super) fn checked(path: String) -> Option<OutputPath> {
        let confined = !path.is_empty()
            && !path.bytes().any(|b| b == b'\\' || b == 0)
            && path
                .split('/')
                .all(|s| !s.is_empty() && s != "." && s != "..");
        confined.then_some(OutputPath(path))
    }

    /// The file a page at `url` (`/fr/posts/x/`, percent-encoded) is
    /// written to: its segments decoded, then `index.html`. A URL ending in
    /// a file name (`/fr/atom.xml`) is that file.
    pub fn for_url(url: &str) -> Option<OutputPath> {
        let rest = url.strip_prefix('/')?;
        if !rest.contains('%') {
            // Nothing to decode: the URL's own path, plus `index.html` for a
            // folder.
            let path = if rest.is_empty() || rest.ends_with('/') {
                format!("{rest}index.html")
            } else {
                rest.to_owned()
            };
            return OutputPath::checked(path);
        }
        let parts: Vec<&str> = rest.split('/').collect();
        let (last, dirs) = parts.split_last()?;
        let mut segments = Vec::with_capacity(parts.len());
        for dir in dirs {
            segments.push(crate::model::url::decode_segment(dir)?);
        }
        segments.push(if last.is_empty() {
            "index.html".to_owned()
        } else {
            crate::model::url::decode_segment(last)?
        });
        if segments.iter().any(|s| s.contains('/')) {
            return None;
        }
        OutputPath::checked(segments.join("/"))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

// Hash and Eq are the String's, so a map of paths can be asked with a &str.
impl Borrow<str> for OutputPath {
    fn borrow(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for OutputPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}
