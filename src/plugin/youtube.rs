//! A shortcode, as an example of a [`MarkdownTransform`]: Hugo's
//! `{{< youtube ID >}}` becomes an embedded player.

use super::{Document, MarkdownTransform, Phase, Plugin, PluginError};

/// Turns `{{< youtube ID >}}` in a body into a privacy-enhanced YouTube
/// player, before Markdown (which passes the HTML block through). A body
/// without the shortcode is left alone, so its pages do not depend on this
/// plugin.
///
/// ```
/// use folio::plugin::{Document, MarkdownTransform, YouTube};
///
/// let document = Document::new("content/posts/talk.md", "en");
/// let body = "Watch:\n\n{{< youtube dQw4w9WgXcQ >}}\n";
/// let html = YouTube::new().transform(body, &document).unwrap().unwrap();
/// assert!(html.contains("https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ"));
/// assert_eq!(YouTube::new().transform("No video.", &document).unwrap(), None);
/// ```
#[derive(Debug, Clone, Default)]
pub struct YouTube {
    _private: (),
}

impl YouTube {
    /// Its name, which `[plugins] youtube = true` in site.toml turns on.
    pub const NAME: &str = "youtube";

    /// The shortcode plugin.
    pub fn new() -> YouTube {
        YouTube::default()
    }
}

const OPEN: &str = "{{<";
const CLOSE: &str = ">}}";

impl Plugin for YouTube {
    fn name(&self) -> &str {
        YouTube::NAME
    }

    fn version(&self) -> &str {
        "1"
    }
}

impl MarkdownTransform for YouTube {
    fn phase(&self) -> Phase {
        Phase::BeforeMarkdown
    }

    fn transform(&self, body: &str, _: &Document<'_>) -> Result<Option<String>, PluginError> {
        if !body.contains(OPEN) {
            return Ok(None);
        }
        let mut out = String::with_capacity(body.len() + 256);
        let mut rest = body;
        let mut replaced = false;
        while let Some(start) = rest.find(OPEN) {
            let after = &rest[start + OPEN.len()..];
            let Some(end) = after.find(CLOSE) else { break };
            let mut words = after[..end].split_whitespace();
            if words.next() != Some("youtube") {
                // Another generator's shortcode: not this plugin's.
                out.push_str(&rest[..start + OPEN.len()]);
                rest = after;
                continue;
            }
            let id = match (words.next(), words.next()) {
                (Some(id), None) if is_video_id(id) => id,
                _ => {
                    let line = body[..body.len() - rest.len() + start]
                        .lines()
                        .count()
                        .max(1);
                    return Err(format!(
                        "line {line} of the body: `{OPEN}{}{CLOSE}` needs one video id (letters, digits, `-` and `_`), as in `{{{{< youtube dQw4w9WgXcQ >}}}}`",
                        &after[..end]
                    )
                    .into());
                }
            };
            out.push_str(&rest[..start]);
            out.push_str(&format!(
                "<div class=\"video\"><iframe src=\"https://www.youtube-nocookie.com/embed/{id}\" title=\"YouTube video\" loading=\"lazy\" allowfullscreen></iframe></div>"
            ));
            rest = &after[end + CLOSE.len()..];
            replaced = true;
        }
        out.push_str(rest);
        Ok(replaced.then_some(out))
    }
}

fn is_video_id(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= 64
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(body: &str) -> Result<Option<String>, String> {
        YouTube::new()
            .transform(body, &Document::new("content/posts/x.md", "en"))
            .map_err(|e| e.to_string())
    }

    #[test]
    fn each_shortcode_becomes_a_player_and_the_rest_stays() {
        let out = run("a {{< youtube abc >}} b {{<youtube  x_-1>}} c")
            .unwrap()
            .unwrap();
        assert_eq!(out.matches("<iframe").count(), 2);
        assert!(out.starts_with("a <div") && out.ends_with("</div> c"));
        assert!(out.contains("/embed/x_-1\""));
    }

    #[test]
    fn other_shortcodes_and_plain_bodies_are_left_alone() {
        assert_eq!(run("plain"), Ok(None));
        assert_eq!(run("{{< figure src=x >}} and {{< unclosed"), Ok(None));
    }

    #[test]
    fn a_bad_id_names_the_line_and_the_shortcode() {
        let err = run("one\ntwo {{< youtube \"><script> >}}").unwrap_err();
        assert!(err.starts_with("line 2 of the body"), "{err}");
        assert!(run("{{< youtube >}}").is_err());
        assert!(run("{{< youtube a b >}}").is_err());
    }
}
