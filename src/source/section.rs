//! A section's `_index.md`: not a document but what a folder of a language
//! says of itself (its title, description, order, pagination, template and
//! feed) in front matter, and its body, the text its list page shows above
//! the list. Read whole at every build that reads anything: a site has a
//! handful of them.

use serde_json::Value;

use crate::model::doc::{InternalLink, Kind, Source};
use crate::model::error::ProblemKind;
use crate::source::config::Config;
use crate::source::fields::Fields;
use crate::source::front_matter;
use crate::source::markdown::render_markdown;
use crate::source::outline::OutlineReader;
use crate::source::parse::{ParseError, line_at, source_text};
use crate::source::shortcodes::Shortcodes;

/// The file name (without language and extension) that makes its folder a
/// section.
pub const SECTION_STEM: &str = "_index";

/// The fields of an `_index.md` folio reads: its names, then Zola's for
/// the same things. Any other field is kept for templates
/// (`section.extra.<name>`), as a document's are, unless it is one typo
/// away from one of these: Hugo's and Zola's other fields (`date`,
/// `insert_anchor_links`, `page_template`…) build as they are.
const SECTION_FIELDS: &[&str] = &[
    "title",
    "description",
    "sort_by",
    "paginate",
    "template",
    "feed",
    "draft",
    "weight",
    "extra",
    "paginate_by",
    "generate_feeds",
];

/// How a section orders its documents.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum SortBy {
    /// Newest first; documents without a date (pages) by slug.
    #[default]
    Date,
    /// By title, letter case aside.
    Title,
    /// Lightest `weight` first, those without one after; then newest first.
    Weight,
}

impl SortBy {
    /// As `sort_by` writes it.
    pub fn name(self) -> &'static str {
        match self {
            SortBy::Date => "date",
            SortBy::Title => "title",
            SortBy::Weight => "weight",
        }
    }
}

/// What one `_index.md` says, read.
#[derive(Debug, Clone, PartialEq)]
pub struct SectionFile {
    /// Relative to the site root.
    pub path: String,
    pub lang: String,
    /// The section's folder inside its language (`posts`, `docs/guides`).
    pub folder: String,
    /// Hex SHA-256 of its bytes: everything it says is a function of them
    /// and of the site's settings.
    pub hash: String,
    pub title: Option<String>,
    pub description: Option<String>,
    pub sort_by: SortBy,
    /// Documents per page, over site.toml's `paginate`; 0: all on one.
    pub paginate: Option<usize>,
    /// The template of its list pages, and the line naming it.
    pub template: Option<(String, Option<usize>)>,
    /// Whether it has feeds, over site.toml's `feeds_for`.
    pub feed: Option<bool>,
    /// A draft's list is made only by a build that shows drafts.
    pub draft: bool,
    /// Where it stands among the sections beside it: lightest first.
    pub weight: Option<i64>,
    /// Its `[extra]` table and the fields folio does not read, for
    /// templates.
    pub extra: Value,
    /// Its body as HTML.
    pub content: String,
    /// The shortcodes its body calls.
    pub shortcodes: Vec<String>,
    /// The links to documents its body writes (`@/…`), with their lines.
    pub links: Vec<InternalLink>,
}

/// Whether any of `files` orders its section's documents by title: a
/// title then decides a document's place.
pub fn any_sorted_by_title(files: &[SectionFile]) -> bool {
    files.iter().any(|f| f.sort_by == SortBy::Title)
}

/// Whether `source` is a section's `_index.md` rather than a document.
pub fn is_section_file(source: &Source) -> bool {
    source.stem == SECTION_STEM
}

/// Reads the `_index.md` at `source`; `hash` is the SHA-256 of `bytes`.
pub fn parse_section(
    source: &Source,
    bytes: &[u8],
    hash: String,
    (config, shortcodes): (&Config, &Shortcodes),
) -> Result<SectionFile, ParseError> {
    let Some(folder) = source.key.strip_suffix("/_index") else {
        return Err((
            None,
            ProblemKind::Layout {
                message: "an `_index.md` at a language's root would be a section of its home, which lists every post of the language".into(),
                help: "delete it: the home's title and description are site.toml's `title` and `description`".into(),
            },
        ));
    };
    let text = source_text(bytes)?;
    // An empty `_index.md` (as Hugo sites have) makes a section of its
    // folder, with every default.
    let text = match text.trim().is_empty() {
        true => "{}\n".into(),
        false => text,
    };
    let front = front_matter::split(&text)?;
    let fields = Fields::of(&front);
    no_typos(&fields, front.map.keys())?;
    let feed = match fields.bool("feed")? {
        Some(feed) => Some(feed),
        None => fields.bool("generate_feeds")?,
    };
    if feed == Some(true) && source.kind == Kind::Page {
        let field = if fields.get("feed").is_some() {
            "feed"
        } else {
            "generate_feeds"
        };
        return Err(fields.problem(
            field,
            "asks for feeds of a folder of pages; feeds list posts".into(),
            format!("remove it, or add `{}` to site.toml's `post_sections` to make it a folder of posts", folder.split('/').next().unwrap_or(folder)),
        ));
    }
    let first_line = line_at(&text, text.len() - front.body.len());
    let mut outline = OutlineReader::new(front.body, first_line);
    let events = pulldown_cmark::Parser::new_ext(front.body, config.markup.options());
    for (event, range) in events.into_offset_iter() {
        outline.see(&event, range);
    }
    let body = render_markdown(
        front.body,
        (&source.lang, first_line),
        (&config.markup, shortcodes),
    )
    .map_err(|(line, kind)| (Some(line), kind))?;
    Ok(SectionFile {
        path: source.path.clone(),
        lang: source.lang.clone(),
        folder: folder.to_owned(),
        hash,
        title: fields.string("title")?,
        description: fields.string("description")?,
        sort_by: sort_by(&fields)?,
        paginate: paginate(&fields)?,
        template: fields
            .template_name("section.html")?
            .map(|name| (name, fields.line_of("template"))),
        feed,
        draft: fields.bool("draft")?.unwrap_or(false),
        weight: fields.weight()?,
        extra: extra(&fields, &front.map)?,
        content: body.html,
        shortcodes: body.called.into_iter().collect(),
        links: [outline.finish().links, body.written_links].concat(),
    })
}

/// No key is one typo away from a field of an `_index.md` (`sortby`,
/// `paginte`) or the start of one (`sort`): that is a mistake, not a field
/// of the author's own.
fn no_typos<'k>(
    fields: &Fields<'_>,
    keys: impl Iterator<Item = &'k String>,
) -> Result<(), ParseError> {
    for key in keys.filter(|key| !SECTION_FIELDS.contains(&key.as_str())) {
        let meant = SECTION_FIELDS.iter().find(|field| {
            strsim::osa_distance(key, field) == 1
                || (key.len() > 2 && field.starts_with(key.as_str()))
        });
        if let Some(meant) = meant {
            return Err(fields.problem(
                key,
                format!("is not a field of a section's `_index.md`; did you mean `{meant}`?"),
                format!("rename it to `{meant}`; a field of your own needs a name further from folio's (it is given to templates as `section.extra.<name>`)"),
            ));
        }
    }
    Ok(())
}

/// Its `[extra]` table, with the fields folio does not read beside what
/// the table holds.
fn extra(fields: &Fields<'_>, map: &serde_json::Map<String, Value>) -> Result<Value, ParseError> {
    let mut extra = match fields.get("extra") {
        None => serde_json::Map::new(),
        Some(Value::Object(table)) => table.clone(),
        Some(_) => {
            return Err(fields.problem(
                "extra",
                "is not a table".into(),
                "write `[extra]` with the values your templates read".into(),
            ));
        }
    };
    for (key, value) in map {
        if !SECTION_FIELDS.contains(&key.as_str()) {
            extra.insert(key.clone(), value.clone());
        }
    }
    Ok(Value::Object(extra))
}

fn sort_by(fields: &Fields<'_>) -> Result<SortBy, ParseError> {
    match fields.string("sort_by")?.as_deref() {
        None | Some("date") => Ok(SortBy::Date),
        Some("title") => Ok(SortBy::Title),
        Some("weight") => Ok(SortBy::Weight),
        Some(other) => Err(fields.problem(
            "sort_by",
            format!("is `{other}`, which is no order folio knows"),
            "write `date` (newest first, the default), `title` or `weight` (lightest first)".into(),
        )),
    }
}

/// `paginate`, or Zola's `paginate_by`.
fn paginate(fields: &Fields<'_>) -> Result<Option<usize>, ParseError> {
    for field in ["paginate", "paginate_by"] {
        match fields.get(field) {
            None => {}
            Some(Value::Number(n)) if n.as_u64().is_some() => {
                return Ok(n.as_u64().map(|n| usize::try_from(n).unwrap_or(usize::MAX)));
            }
            Some(_) => {
                return Err(fields.problem(
                    field,
                    "is not a number of documents per page".into(),
                    format!("write `{field} = 10`, or 0 for all of them on one page"),
                ));
            }
        }
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(rel: &str, text: &str) -> Result<SectionFile, ParseError> {
        let config = crate::source::parse::tests::config("UTC");
        let mut source = crate::source::discover::classify(rel, &config).unwrap();
        source.path = format!("content/{rel}");
        parse_section(
            &source,
            text.as_bytes(),
            "h".into(),
            (&config, &Shortcodes::default()),
        )
    }

    #[test]
    fn an_index_says_what_its_folder_is() {
        let section = read(
            "fr/posts/rust/_index.md",
            "+++\ntitle = \"Rust\"\nsort_by = \"weight\"\npaginate_by = 3\nfeed = true\ntemplate = \"x.html\"\nweight = -2\ninsert_anchor_links = \"left\"\n[extra]\nicon = \"r\"\n+++\nAll about *Rust*.\n",
        )
        .unwrap();
        assert_eq!(
            (section.lang.as_str(), section.folder.as_str()),
            ("fr", "posts/rust")
        );
        assert_eq!(section.title.as_deref(), Some("Rust"));
        assert_eq!(section.sort_by, SortBy::Weight);
        assert_eq!(section.paginate, Some(3));
        assert_eq!(section.feed, Some(true));
        assert_eq!(section.template, Some(("x.html".into(), Some(6))));
        assert_eq!((section.weight, section.draft), (Some(-2), false));
        // Zola's fields folio does not read are the templates'.
        assert_eq!(section.extra["icon"], "r");
        assert_eq!(section.extra["insert_anchor_links"], "left");
        assert_eq!(section.content.trim(), "<p>All about <em>Rust</em>.</p>");
        let linking = read(
            "docs/_index.md",
            "---\ntitle: D\n---\nSee [x](@/docs/x.md#a).\n",
        )
        .unwrap();
        assert_eq!(
            (linking.links[0].target.as_str(), linking.links[0].line),
            ("docs/x.md#a", 4)
        );
        let draft = read(
            "docs/_index.md",
            "---\ndraft: true\npage_template: p.html\n---\n",
        );
        assert!(draft.unwrap().draft);
        let bare = read("docs/_index.md", "").unwrap();
        assert_eq!((bare.folder.as_str(), bare.sort_by), ("docs", SortBy::Date));
    }

    #[test]
    fn mistakes_in_an_index_are_named_with_their_line() {
        let said = |rel: &str, text: &str| {
            let (line, kind) = read(rel, text).unwrap_err();
            (line, kind.to_string())
        };
        let (line, message) = said("posts/_index.md", "---\ntitle: P\nsort: date\n---\n");
        assert_eq!(line, Some(3));
        assert!(message.contains("did you mean `sort_by`?"), "{message}");
        let (line, message) = said("posts/_index.md", "---\nsort_by: slug\n---\n");
        assert_eq!(line, Some(2));
        assert!(message.contains("`slug`"), "{message}");
        let (_, message) = said("docs/_index.md", "---\nfeed: true\n---\n");
        assert!(message.contains("feeds list posts"), "{message}");
        let (line, message) = said("posts/_index.md", "---\ntitle: P\ndarft: true\n---\n");
        assert_eq!(line, Some(3));
        assert!(message.contains("did you mean `draft`?"), "{message}");
        let (_, message) = said("posts/_index.md", "---\npaginate: -1\n---\n");
        assert!(message.contains("per page"), "{message}");
        let (_, message) = said("_index.md", "");
        assert!(message.contains("root"), "{message}");
    }
}
