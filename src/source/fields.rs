//! Typed access to the front matter's fields: which fields folio reads,
//! each one's type, the other generators' names for them, and the fields kept
//! for templates; every error names the field and its line.

use std::borrow::Cow;
use std::collections::HashSet;

use serde_json::{Map, Value};

use crate::model::doc::{Source, TemplateChoice};
use crate::model::error::ProblemKind;
use crate::model::id::{PostId, format_ms};
use crate::model::url::{MAX_SLUG_BYTES, TermSlugs, term_slug};
use crate::source::config::Config;
use crate::source::dates::parse_date;
pub(crate) use crate::source::field_names::FIELDS;
use crate::source::front_matter::FrontMatter;
use crate::source::markdown::render_body;
use crate::source::parse::ParseError;

/// A long text as a message quotes it: its first 40 characters and `…`.
fn abridged(text: &str) -> Cow<'_, str> {
    match text.char_indices().nth(40) {
        Some((at, _)) => Cow::Owned(format!("{}…", &text[..at])),
        None => Cow::Borrowed(text),
    }
}

/// A document's terms: its tags, and those of each other taxonomy it has,
/// in site.toml's order.
#[derive(Debug, Default)]
pub(crate) struct Terms {
    pub(crate) tags: Vec<String>,
    pub(crate) others: Vec<(String, Vec<String>)>,
}

/// Typed access to front matter fields, with errors that name the field and
/// its line.
pub(crate) struct Fields<'a> {
    front: &'a FrontMatter<'a>,
}

impl<'a> Fields<'a> {
    pub(crate) fn of(front: &'a FrontMatter<'a>) -> Fields<'a> {
        Fields { front }
    }

    /// No field is one typo away from one folio reads or a taxonomy of
    /// the site (`darft`, `tittle`, `tag`, `serie`): that is a mistake, not
    /// a field of the author's own.
    pub(crate) fn no_typos(&self, taxonomies: &[String]) -> Result<(), ParseError> {
        let read = || {
            FIELDS
                .iter()
                .copied()
                .chain(taxonomies.iter().map(String::as_str))
        };
        for key in self
            .front
            .map
            .keys()
            .filter(|key| !read().any(|f| f == key.as_str()))
        {
            if let Some(meant) = read().find(|field| strsim::osa_distance(key, field) == 1) {
                return Err(self.problem(
                    key,
                    format!("is not a field folio reads; did you mean `{meant}`?"),
                    format!("rename it to `{meant}`; a field of your own needs a name further from folio's (it is given to templates as `extra.<name>`)"),
                ));
            }
        }
        Ok(())
    }

    /// `lang`, where written, is the language of the file's place.
    pub(crate) fn same_language(&self, source: &Source) -> Result<(), ParseError> {
        let Some(lang) = self.string("lang")? else {
            return Ok(());
        };
        let same = lang.replace('_', "-").eq_ignore_ascii_case(&source.lang);
        if same {
            return Ok(());
        }
        Err(self.problem(
            "lang",
            format!(
                "says `{lang}`, but the file's place makes it `{}`",
                source.lang
            ),
            format!("move the file to the `{lang}` language's place, or remove `lang`"),
        ))
    }

    /// `draft`, or Jekyll's `published: false`.
    pub(crate) fn draft(&self) -> Result<bool, ParseError> {
        let draft = self.bool("draft")?;
        let published = self.bool("published")?;
        match (draft, published) {
            (Some(draft), Some(published)) if draft == published => Err(self.problem(
                "published",
                format!("says {published}, but `draft` says {draft}"),
                "keep one of the two".into(),
            )),
            (Some(draft), _) => Ok(draft),
            (None, published) => Ok(published == Some(false)),
        }
    }

    /// The URL the front matter sets (`permalink`, or Hugo's `url`).
    pub(crate) fn written_url(&self) -> Result<Option<String>, ParseError> {
        for field in ["permalink", "url"] {
            if let Some(text) = self.string(field)? {
                return self.url_path(field, &text).map(Some);
            }
        }
        Ok(None)
    }

    /// The old URLs of the document (`aliases`, Jekyll's `redirect_from`),
    /// each once.
    pub(crate) fn aliases(&self) -> Result<Vec<String>, ParseError> {
        let mut aliases = Vec::new();
        for field in ["aliases", "redirect_from"] {
            if let Some(value) = self.get(field) {
                for text in self.strings(field, value, false)? {
                    let path = self.url_path(field, &text)?;
                    if !aliases.contains(&path) {
                        aliases.push(path);
                    }
                }
            }
        }
        Ok(aliases)
    }

    fn url_path(&self, field: &str, text: &str) -> Result<String, ParseError> {
        let path = crate::model::url::written_path(text).ok_or_else(|| {
            self.problem(
                field,
                format!("`{text}` is not a path inside the site"),
                "write a path from the site's root, like `/2024/05/01/hello/`, without `.` or `..`"
                    .into(),
            )
        })?;
        // Each segment becomes the name of a folder or file.
        let longest = path
            .split('/')
            .filter_map(crate::model::url::decode_segment)
            .map(|segment| segment.len())
            .max()
            .unwrap_or(0);
        if longest > MAX_SLUG_BYTES {
            return Err(self.problem(
                field,
                format!(
                    "`{}` has a part of {longest} bytes; each part between slashes becomes a folder name, of at most {MAX_SLUG_BYTES} bytes",
                    abridged(text)
                ),
                "shorten it".into(),
            ));
        }
        Ok(path)
    }

    /// `template`: a template's path under templates/, nothing outside it
    /// (`example` is one, for the help).
    pub(crate) fn template_name(&self, example: &str) -> Result<Option<String>, ParseError> {
        let Some(name) = self.string("template")? else {
            return Ok(None);
        };
        let name = name.trim();
        let outside = name.starts_with('/')
            || name.contains('\\')
            || name.split('/').any(|part| matches!(part, "" | "." | ".."));
        if outside {
            return Err(self.problem(
                "template",
                format!("`{name}` is not the name of a template"),
                format!("name a file of templates/ by its path there, like `{example}` or `wide/{example}`"),
            ));
        }
        Ok(Some(name.to_owned()))
    }

    /// The template the front matter asks for: `template` (which must
    /// exist), or a `layout` (used when the theme has it).
    pub(crate) fn template(&self) -> Result<Option<TemplateChoice>, ParseError> {
        if let Some(name) = self.template_name("post.html")? {
            return Ok(Some(TemplateChoice::Named(name)));
        }
        Ok(self
            .string("layout")?
            .map(|layout| TemplateChoice::Layout(format!("{}.html", layout.trim()))))
    }

    /// The id of the document `slug` in `lang` dated `ms`; a date an id
    /// cannot hold is a problem of `date`.
    pub(crate) fn id(&self, slug: &str, lang: &str, ms: i64) -> Result<PostId, ParseError> {
        PostId::derive(slug, lang, ms).map_err(|e| {
            let when = if e.millis < 0 {
                "before 1970-01-01, the earliest"
            } else {
                "after the last"
            };
            self.problem(
                "date",
                format!("{} is {when} date a post's id can hold", format_ms(e.millis)),
                "use a date from 1970 on; an older date can be kept for the templates in a field of your own (`written: 1969-07-20`)".into(),
            )
        })
    }

    /// A summary written in the front matter (`summary`, or Jekyll's
    /// `excerpt`), as HTML from its Markdown, with the field it is in.
    pub(crate) fn written_summary(
        &self,
        config: &Config,
    ) -> Result<Option<(String, &'static str)>, ParseError> {
        for field in ["summary", "excerpt"] {
            if let Some(text) = self.string(field)?.filter(|t| !t.trim().is_empty()) {
                let (html, _) = render_body(text.trim(), &config.markup);
                return Ok(Some((html.trim_end().to_owned(), field)));
            }
        }
        Ok(None)
    }

    /// The fields folio does not read, for templates, as a JSON object:
    /// Zola's `[extra]` table, the other fields, Zola's taxonomies the
    /// site does not have (but categories, which are tags then), and
    /// `authors` (from `author` or `authors`).
    pub(crate) fn extra(&self, taxonomies: &[String]) -> Result<String, ParseError> {
        let mut extra = match self.get("extra") {
            None => Map::new(),
            Some(Value::Object(table)) => table.clone(),
            Some(other) => return Err(self.wrong_type("extra", "a table", other)),
        };
        for (key, value) in &self.front.map {
            if !FIELDS.contains(&key.as_str()) && !taxonomies.contains(key) {
                extra.insert(key.clone(), value.clone());
            }
        }
        if let Some(Value::Object(table)) = self.get("taxonomies") {
            let others: Map<String, Value> = table
                .iter()
                .filter(|(name, _)| name.as_str() != "categories" && !taxonomies.contains(name))
                .map(|(name, terms)| (name.clone(), terms.clone()))
                .collect();
            if !others.is_empty() {
                extra.insert("taxonomies".into(), Value::Object(others));
            }
        }
        let mut authors = Vec::new();
        for field in ["author", "authors"] {
            if let Some(value) = self.get(field) {
                authors.extend(self.strings(field, value, false)?);
            }
        }
        if !authors.is_empty() {
            extra.insert("authors".into(), Value::from(authors));
        }
        Ok(Value::Object(extra).to_string())
    }

    /// `weight`: a whole number, by which a section sorted by weight lists
    /// the document, and a section's `_index.md` orders it among the
    /// sections beside it (Hugo's and Zola's field of that name).
    pub(crate) fn weight(&self) -> Result<Option<i64>, ParseError> {
        match self.get("weight") {
            None => Ok(None),
            Some(Value::Number(n)) if n.as_i64().is_some() => Ok(n.as_i64()),
            Some(other) => Err(self.wrong_type("weight", "a whole number", other)),
        }
    }

    /// The line where `key` is written, as its reader saw it.
    pub(crate) fn line_of(&self, key: &str) -> Option<usize> {
        self.front.line_of(key)
    }

    pub(crate) fn problem(&self, field: &str, message: String, help: String) -> ParseError {
        (
            self.line_of(field),
            ProblemKind::Field {
                field: field.to_owned(),
                message,
                help,
            },
        )
    }

    fn wrong_type(&self, field: &str, expected: &str, value: &Value) -> ParseError {
        let found = match value {
            Value::Null => "nothing",
            Value::Bool(_) => "a boolean",
            Value::Number(_) => "a number",
            Value::String(_) => "a string",
            Value::Array(_) => "a list",
            Value::Object(_) => "a table",
        };
        self.problem(
            field,
            format!("expected {expected}, found {found}"),
            format!("write `{field}` as {expected}"),
        )
    }

    pub(crate) fn get(&self, field: &str) -> Option<&Value> {
        self.front.map.get(field).filter(|v| !v.is_null())
    }

    /// A string; a number is taken as its text (`title: 1984`).
    pub(crate) fn string(&self, field: &str) -> Result<Option<String>, ParseError> {
        match self.get(field) {
            None => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.clone())),
            Some(Value::Number(n)) => Ok(Some(n.to_string())),
            Some(other) => Err(self.wrong_type(field, "a string", other)),
        }
    }

    pub(crate) fn bool(&self, field: &str) -> Result<Option<bool>, ParseError> {
        match self.get(field) {
            None => Ok(None),
            Some(Value::Bool(b)) => Ok(Some(*b)),
            Some(other) => Err(self.wrong_type(field, "true or false", other)),
        }
    }

    /// The terms of each taxonomy in `taxonomies`: `tags`, then the others
    /// in their order, each without the empty and the repeated. A
    /// taxonomy's field (`series: [...]`) or Zola's `[taxonomies]` table
    /// gives them; the other generators' categories (Jekyll's `categories`
    /// and `category`) are the `categories` taxonomy's when the site has
    /// one, else tags.
    pub(crate) fn terms(
        &self,
        taxonomies: &[String],
        rule: TermSlugs,
    ) -> Result<Terms, ParseError> {
        let declared = |name: &str| taxonomies.iter().any(|t| t == name);
        let categories_into = if declared("categories") {
            "categories"
        } else {
            "tags"
        };
        let mut found: Vec<(&str, Vec<String>)> = taxonomies
            .iter()
            .map(|t| (t.as_str(), Vec::new()))
            .collect();
        let mut add = |into: &str, terms: Vec<String>| {
            if let Some((_, list)) = found.iter_mut().find(|(t, _)| *t == into) {
                list.extend(terms);
            }
        };
        for name in taxonomies.iter().filter(|t| *t != "categories") {
            if let Some(value) = self.get(name) {
                add(name, self.term_names(name, value, (false, rule))?);
            }
        }
        // Jekyll reads a string of categories as words.
        for field in ["categories", "category"] {
            if let Some(value) = self.get(field) {
                add(
                    categories_into,
                    self.term_names(field, value, (field == "categories", rule))?,
                );
            }
        }
        if let Some(table) = self.get("taxonomies") {
            let Value::Object(table) = table else {
                return Err(self.wrong_type("taxonomies", "a table", table));
            };
            let undeclared_categories = (!declared("categories")).then_some("categories");
            let names = taxonomies
                .iter()
                .map(String::as_str)
                .chain(undeclared_categories);
            for name in names {
                if let Some(value) = table.get(name).filter(|v| !v.is_null()) {
                    let into = if name == "categories" {
                        categories_into
                    } else {
                        name
                    };
                    add(into, self.term_names("taxonomies", value, (false, rule))?);
                }
            }
        }
        let mut terms = Terms::default();
        for (name, mut list) in found {
            let mut seen = HashSet::new();
            list.retain(|term| !term.is_empty() && seen.insert(term.clone()));
            if name == "tags" {
                terms.tags = list;
            } else if !list.is_empty() {
                terms.others.push((name.to_owned(), list));
            }
        }
        Ok(terms)
    }

    /// The terms `field` gives: [`Fields::strings`] (with `words`), each
    /// short enough for its URL segment under `rule` to name its folder.
    fn term_names(
        &self,
        field: &str,
        value: &Value,
        (words, rule): (bool, TermSlugs),
    ) -> Result<Vec<String>, ParseError> {
        let terms = self.strings(field, value, words)?;
        let too_long = terms.iter().find_map(|term| {
            let slug = term_slug(term, rule);
            (slug.len() > MAX_SLUG_BYTES).then_some((term, slug.len()))
        });
        if let Some((long, bytes)) = too_long {
            // Most sites have tags alone, and call them so.
            let what = if field == "tags" { "tag" } else { "term" };
            // Written in ASCII, a name may grow (a CJK character becomes a
            // syllable): the length that counts is its slug's.
            let written = match rule {
                TermSlugs::Unicode => "",
                TermSlugs::Ascii => " in ASCII",
            };
            return Err(self.problem(
                field,
                format!(
                    "the {what} `{}` is {bytes} bytes long{written}; its page's folder is named after it, in at most {MAX_SLUG_BYTES} bytes",
                    abridged(long),
                ),
                format!("shorten the {what}"),
            ));
        }
        Ok(terms)
    }

    /// A list of strings; a lone string is one item (or, with `words`, one
    /// item per word). Numbers are taken as their text.
    fn strings(&self, field: &str, value: &Value, words: bool) -> Result<Vec<String>, ParseError> {
        let item = |value: &Value| match value {
            Value::String(s) => Ok(s.trim().to_owned()),
            Value::Number(n) => Ok(n.to_string()),
            other => Err(self.wrong_type(field, "a list of strings", other)),
        };
        match value {
            Value::Array(items) => items.iter().map(item).collect(),
            Value::String(s) if words => Ok(s.split_whitespace().map(str::to_owned).collect()),
            single @ (Value::String(_) | Value::Number(_)) if field != "tags" => {
                Ok(vec![item(single)?])
            }
            other => Err(self.wrong_type(field, "a list of strings", other)),
        }
    }

    /// A date as (Unix ms, read in the site time zone).
    pub(crate) fn date(
        &self,
        field: &str,
        config: &Config,
    ) -> Result<Option<(i64, bool)>, ParseError> {
        let Some(text) = self.string(field)? else {
            return Ok(None);
        };
        parse_date(&text, config)
            .map(Some)
            .map_err(|(message, help)| self.problem(field, message, help.into()))
    }
}

#[cfg(test)]
mod tests {
    use serde_json::Value;

    use crate::source::dates::parse_date;
    use crate::source::parse::tests::{config, field_error, run};

    #[test]
    fn wrong_types_name_the_field_and_line() {
        let (line, field, message) = field_error(run(
            "en/posts/x.md",
            "---\ndate: 2024-01-01\ntitle: [a, b]\n---\n",
        ));
        assert_eq!((line, field.as_str()), (Some(3), "title"));
        assert!(message.contains("found a list"), "{message}");
        let (line, field, _) = field_error(run(
            "en/posts/x.md",
            "---\ntitle: x\ndate: yesterday\n---\n",
        ));
        assert_eq!((line, field.as_str()), (Some(3), "date"));
        let (line, field, _) = field_error(run(
            "en/posts/x.md",
            "---\ntitle: x\ndate: 2024-01-01\ndraft: maybe\n---\n",
        ));
        assert_eq!((line, field.as_str()), (Some(4), "draft"));
        let (_, field, _) = field_error(run(
            "en/posts/x.md",
            "{\"title\": \"x\", \"date\": \"2024-01-01\", \"tags\": \"solo\"}\n",
        ));
        assert_eq!(field, "tags");
    }

    #[test]
    fn fields_folio_does_not_read_are_kept_for_templates() {
        let text = "---\ntitle: x\ndate: 2024-01-01\ntype: posts\nversion: 2\nname: x-post\nauthor: Ada\nnested: {a: [1, 2]}\n---\n";
        let extra: Value =
            serde_json::from_str(&run("en/posts/x.md", text).unwrap().record.extra).unwrap();
        assert_eq!(
            extra,
            serde_json::json!({"type": "posts", "version": 2, "name": "x-post", "nested": {"a": [1, 2]}, "authors": ["Ada"]})
        );
        // Zola: `[extra]` is kept as it is, `[taxonomies]` tags and
        // categories are tags, other taxonomies are kept.
        let text = "+++\ntitle = \"x\"\ndate = 2024-01-01\nauthors = [\"A\", \"B\"]\n[taxonomies]\ntags = [\"t\"]\ncategories = [\"c\"]\nseries = [\"s\"]\n[extra]\ntoc = true\n+++\n";
        let record = run("en/posts/x.md", text).unwrap().record;
        assert_eq!(record.tags, ["t", "c"]);
        let extra: Value = serde_json::from_str(&record.extra).unwrap();
        assert_eq!(
            extra,
            serde_json::json!({"toc": true, "taxonomies": {"series": ["s"]}, "authors": ["A", "B"]})
        );
        let plain = run("en/posts/x.md", "---\ntitle: x\ndate: 2024-01-01\n---\n").unwrap();
        assert_eq!(plain.record.extra, "{}");
    }

    #[test]
    fn other_generators_fields_mean_what_folio_has() {
        let record = |front: &str| {
            let text = format!("---\ntitle: x\ndate: 2024-01-01\n{front}\n---\nThe body.\n");
            run("en/posts/x.md", &text).unwrap().record
        };
        let day = |date: &str| parse_date(date, &config("UTC")).unwrap().0;
        assert_eq!(
            record("lastmod: 2024-02-01").updated_at,
            Some(day("2024-02-01"))
        );
        assert_eq!(
            record("last_modified_at: 2024-03-01").updated_at,
            Some(day("2024-03-01"))
        );
        assert_eq!(
            record("excerpt: In *short*.").summary,
            "<p>In <em>short</em>.</p>"
        );
        assert_eq!(record("summary: Brief.").summary, "<p>Brief.</p>");
        assert_eq!(record("").summary, "<p>The body.</p>");
        assert_eq!(
            record("categories: news releases").tags,
            ["news", "releases"]
        );
        assert_eq!(
            record("category: faqs\ntags: [a, faqs]").tags,
            ["a", "faqs"]
        );
        assert!(record("published: false").draft);
        assert!(!record("published: true").draft);
        let contradiction = "---\ntitle: x\ndate: 2024-01-01\ndraft: true\npublished: true\n---\n";
        assert_eq!(
            field_error(run("en/posts/x.md", contradiction)).1,
            "published"
        );
    }

    #[test]
    fn a_lang_field_must_agree_with_the_files_place() {
        assert!(
            run(
                "fr/posts/x.md",
                "---\ntitle: x\ndate: 2024-01-01\nlang: fr\n---\n"
            )
            .is_ok()
        );
        let (line, field, message) = field_error(run(
            "fr/posts/x.md",
            "---\ntitle: x\ndate: 2024-01-01\nlang: en\n---\n",
        ));
        assert_eq!((line, field.as_str()), (Some(4), "lang"));
        assert!(
            message.contains("`en`") && message.contains("`fr`"),
            "{message}"
        );
    }
}
