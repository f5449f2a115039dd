//! A fenced block's info string, in Zola's form (`rust,linenos,hl_lines=2-3
//! 5`) or Hugo's (`rust {linenos=true,hl_lines=[2,"4-5"]}`), and what
//! highlighting it has to say.

/// What rendering a body found to say, the build warning with it: about
/// a code block's highlighting, or a formula (`source::math`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Note {
    /// No grammar has this name.
    UnknownLanguage(String),
    /// An option of the info string folio does not read, or a bad value.
    IgnoredOption(String),
    /// A formula that does not parse, shown as code.
    Formula(crate::source::math::Unparsed),
}

impl std::fmt::Display for Note {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Note::UnknownLanguage(lang) => write!(
                f,
                "no grammar for the language `{lang}` of this code block: it is shown plain (write `text` for a block meant plain)"
            ),
            Note::IgnoredOption(option) => write!(
                f,
                "the code block option `{option}` is not one folio reads (linenos, linenostart=N, hl_lines=2-3 5, name=FILE): it is ignored"
            ),
            Note::Formula(formula) => formula.fmt(f),
        }
    }
}

/// What the info string of a fenced block asks for.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Info<'a> {
    pub lang: &'a str,
    pub linenos: bool,
    pub linenostart: usize,
    /// Inclusive ranges of lines, counted from 1.
    pub hl_lines: Vec<(usize, usize)>,
    /// The file the block shows (Zola's `name=src/main.rs`), written as
    /// the `<code>`'s `data-name` for the theme to label the block with,
    /// as Zola writes it.
    pub name: Option<&'a str>,
}

impl Info<'_> {
    pub(super) fn wraps_lines(&self) -> bool {
        self.linenos || !self.hl_lines.is_empty()
    }

    pub(super) fn is_highlighted(&self, line: usize) -> bool {
        self.hl_lines.iter().any(|&(a, b)| (a..=b).contains(&line))
    }
}

/// Reads an info string in Zola's form or Hugo's; options it cannot read
/// are added to `notes` and ignored.
pub fn parse_info<'a>(info: &'a str, notes: &mut Vec<Note>) -> Info<'a> {
    let info = info.trim();
    let lang_end = info.find([',', ' ', '\t', '{']).unwrap_or(info.len());
    let mut parsed = Info {
        lang: &info[..lang_end],
        linenostart: 1,
        ..Info::default()
    };
    let rest = info[lang_end..].trim_start_matches([',', ' ', '\t']).trim();
    let rest = match rest.strip_prefix('{') {
        Some(inner) => inner.strip_suffix('}').unwrap_or(inner),
        None => rest,
    };
    for option in split_options(rest) {
        let (key, value) = match option.split_once('=') {
            Some((key, value)) => (key.trim(), Some(value.trim())),
            None => (option, None),
        };
        let read = match (key, value) {
            ("linenos", None | Some("true" | "table" | "inline")) => {
                parsed.linenos = true;
                true
            }
            ("linenos", Some("false")) => true,
            ("linenostart", Some(n)) => n.parse().map(|n| parsed.linenostart = n).is_ok(),
            ("hl_lines", Some(lines)) => line_ranges(lines).map(|r| parsed.hl_lines = r).is_some(),
            ("name", Some(name)) => {
                let name = name.trim_matches('"').trim();
                parsed.name = Some(name).filter(|name| !name.is_empty());
                parsed.name.is_some()
            }
            // rustdoc's attributes, which Rust blogs copy from their docs
            // (`rust,ignore`): they mean nothing on a page.
            (attribute, None) if is_rustdoc_attribute(attribute) => true,
            _ => false,
        };
        if !read {
            notes.push(Note::IgnoredOption(option.to_owned()));
        }
    }
    parsed
}

/// Whether `word` is one of rustdoc's code block attributes.
fn is_rustdoc_attribute(word: &str) -> bool {
    matches!(
        word,
        "ignore" | "no_run" | "should_panic" | "compile_fail" | "standalone_crate" | "test_harness"
    ) || word
        .strip_prefix("edition")
        .is_some_and(|year| year.parse::<u16>().is_ok())
        || word
            .strip_prefix("ignore-")
            .is_some_and(|target| !target.is_empty())
}

/// The options of an info string, split at commas outside brackets and
/// quotes (Hugo's `hl_lines=[2,"4-5"]` is one).
fn split_options(text: &str) -> impl Iterator<Item = &str> {
    let mut depth = 0usize;
    let mut quoted = false;
    let mut start = 0;
    let mut parts = Vec::new();
    for (at, c) in text.char_indices() {
        match c {
            '"' => quoted = !quoted,
            '[' if !quoted => depth += 1,
            ']' if !quoted => depth = depth.saturating_sub(1),
            ',' if !quoted && depth == 0 => {
                parts.push(&text[start..at]);
                start = at + 1;
            }
            _ => {}
        }
    }
    parts.push(&text[start..]);
    parts.into_iter().map(str::trim).filter(|p| !p.is_empty())
}

/// `2-3 5` (Zola), `[2,"4-5"]` or `"2-3 5"` (Hugo) as inclusive ranges;
/// `None` when any part is not a line or a range of lines.
fn line_ranges(text: &str) -> Option<Vec<(usize, usize)>> {
    let text = text.trim_start_matches('[').trim_end_matches(']');
    let mut ranges = Vec::new();
    for part in text
        .split([',', ' '])
        .map(|p| p.trim().trim_matches('"').trim())
    {
        if part.is_empty() {
            continue;
        }
        let (a, b) = part.split_once('-').unwrap_or((part, part));
        let (a, b) = (a.trim().parse().ok()?, b.trim().parse().ok()?);
        if a == 0 || b < a {
            return None;
        }
        ranges.push((a, b));
    }
    (!ranges.is_empty()).then_some(ranges)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rustdoc_attributes_are_read_silently() {
        let mut notes = Vec::new();
        let info = parse_info("rust,ignore,no_run,edition2021,linenos", &mut notes);
        assert!(notes.is_empty(), "{notes:?}");
        assert!(info.linenos && info.lang == "rust");
        parse_info("rust,edition20x,ignore=1", &mut notes);
        assert_eq!(notes.len(), 2, "{notes:?}");
    }

    #[test]
    fn zola_and_hugo_info_strings_read_alike() {
        let mut notes = Vec::new();
        let zola = parse_info("rust,linenos,hl_lines=2-3 5,linenostart=10", &mut notes);
        let hugo = parse_info(
            "rust {linenos=true,hl_lines=[\"2-3\",5],linenostart=10}",
            &mut notes,
        );
        assert!(notes.is_empty(), "{notes:?}");
        assert_eq!(zola, hugo);
        assert_eq!(zola.lang, "rust");
        assert!(zola.linenos);
        assert_eq!(zola.linenostart, 10);
        assert_eq!(zola.hl_lines, [(2, 3), (5, 5)]);
        let hugo = parse_info("go {hl_lines=\"1 3-4\", linenos=false}", &mut notes);
        assert!(notes.is_empty(), "{notes:?}");
        assert!(!hugo.linenos);
        assert_eq!(hugo.hl_lines, [(1, 1), (3, 4)]);
    }

    #[test]
    fn a_name_is_the_file_the_block_shows() {
        let mut notes = Vec::new();
        let zola = parse_info("rust,linenos,name=src/main.rs", &mut notes);
        let hugo = parse_info("rust {linenos=true,name=\"src/main.rs\"}", &mut notes);
        assert!(notes.is_empty(), "{notes:?}");
        assert_eq!(zola, hugo);
        assert_eq!(zola.name, Some("src/main.rs"));
        assert_eq!(parse_info("rust,name=", &mut notes).name, None);
        assert_eq!(notes, [Note::IgnoredOption("name=".into())]);
    }

    #[test]
    fn malformed_options_are_noted_and_ignored() {
        let mut notes = Vec::new();
        for info in [
            "rust,hl_lines=3-1,linenostart=x,bogus",
            "rust {hl_lines=[a],linenos=maybe",
            "rust,,{,}[\"",
        ] {
            let parsed = parse_info(info, &mut notes);
            assert_eq!(parsed.lang, "rust");
            assert!(parsed.hl_lines.is_empty() && !parsed.linenos);
        }
        let ignored: Vec<String> = notes.iter().map(ToString::to_string).collect();
        assert!(ignored[0].contains("`hl_lines=3-1`"), "{ignored:?}");
        assert!(ignored.iter().any(|n| n.contains("`bogus`")), "{ignored:?}");
        assert!(
            ignored.iter().any(|n| n.contains("`linenos=maybe`")),
            "{ignored:?}"
        );
    }
}
