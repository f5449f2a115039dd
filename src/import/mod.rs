//! Moving a blog in: turns another generator's site into a folio site,
//! keeping every URL its old generator gave a post.
//!
//! Not a stage of the build: it writes a site (sources, `site.toml`) that a
//! build then reads, and never changes the folder it reads from. Every post
//! gets a `permalink` with the URL its generator gave it, so no published
//! link breaks whatever folio's own URL rule would say; what folio cannot
//! carry over (template tags in bodies) is left as it is and counted.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use crate::model::error::Error;
use crate::model::url::{MAX_SLUG_BYTES, heading_id, normalize_slug};
use crate::source::config::is_language_code;
use crate::source::fields::FIELDS as READ_FIELDS;

use folders::{Destination, Source};

mod anchors;
mod carried;
mod feeds;
mod folders;
mod hugo;
mod hugo_config;
mod hugo_shortcodes;
mod jekyll;
mod jekyll_files;
mod jekyll_liquid;
mod kramdown;
mod kramdown_tables;
mod links;
mod liquid;
mod repeats;
mod shortcodes;
mod statics;
mod tree;
mod zola;
mod zola_shortcodes;

/// The generators a site can be imported from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Generator {
    /// Jekyll: `_config.yml` and `_posts/` folders (GitHub Pages).
    Jekyll,
    /// Zola: `config.toml` and `content/` with sections and page bundles.
    Zola,
    /// Hugo: `hugo.toml` and its content folders, with sections, bundles
    /// and per-section permalinks.
    Hugo,
}

/// What an import did, for its summary.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct ImportReport {
    /// Posts written, per language.
    pub posts: BTreeMap<String, usize>,
    /// Pages written, per language.
    pub pages: BTreeMap<String, usize>,
    /// Sections written (`_index.md`, listed at their folder's URL), per
    /// language.
    pub sections: BTreeMap<String, usize>,
    /// Files copied as they are: the old site's static files, and each
    /// bundle's files beside its page.
    pub files_copied: usize,
    /// Documents whose old generator's `template` was kept as
    /// `zola_template`: its templates are not folio's.
    pub zola_templates: usize,
    /// The site's languages, the default first.
    pub languages: Vec<String>,
    /// Language codes that are not BCP 47 as written, and what they became
    /// (`zh_CN` → `zh-CN`).
    pub mapped_languages: BTreeMap<String, String>,
    /// Front matter fields folio keeps for templates (`extra`), by name.
    pub extra_fields: BTreeSet<String>,
    /// Documents linked to a translation in another language as the old
    /// site linked them (Jekyll's `ref` or `name` field, or a permalink
    /// that differs from the translation's only by its language; Hugo's and
    /// Zola's path under the language's content, or Hugo's
    /// `translationKey`), written down as `translation_key` where folio
    /// would not link them otherwise.
    pub translations_linked: usize,
    /// Posts whose old URL the import wrote down as their `permalink`
    /// (the others had one already, which folio honours).
    pub permalinks_written: usize,
    /// Links between documents (Zola's `@/path.md`) written again with the
    /// path the import moved their target to, or a left-out section's URL.
    pub links_rewritten: usize,
    /// Headings given the id their old generator gave them (Zola's ASCII
    /// one) where folio's would differ, so that old anchors still lead there.
    pub anchors_kept: usize,
    /// Posts that share a slug and a language with another (the old
    /// generator told them apart by their dated URLs): the source file, and
    /// the slug it was given.
    pub renamed: Vec<(String, String)>,
    /// Translations whose old URL was their original's too (a Hugo `url`
    /// copied with the text: the old generator wrote one page over the
    /// other): the file and the URL under its language that it was given.
    /// The original keeps the old URL.
    pub relocated: Vec<(String, String)>,
    /// Front matter keys written twice: the file and the key; the last
    /// value was kept, as the old generator's YAML reader did.
    pub repeated_keys: Vec<(String, String)>,
    /// Front matter lines that only Jekyll's lenient YAML reader took (a
    /// quoted value continued at the start of a line), indented as YAML
    /// requires: the file and the key.
    pub reindented: Vec<(String, String)>,
    /// Posts without a title, given the one their old generator showed
    /// (Jekyll's: the file's name, each word capitalized): the file and
    /// the title.
    pub titled: Vec<(String, String)>,
    /// Posts written as drafts, and why: one whose date folio cannot read
    /// (Jekyll left it out as a future post), kept with the date of its
    /// file name.
    pub drafted: Vec<(String, String)>,
    /// Files left out, and why: a Jekyll post without a date in its name
    /// (Jekyll did not publish it), a Zola section without text (a list,
    /// which folio makes).
    pub left_out: Vec<(String, String)>,
    /// Template tags left in bodies for a hand to replace: the tag (`{%
    /// include %}`) and how many files use it.
    pub template_tags: BTreeMap<String, usize>,
    /// Template syntax in bodies evaluated or written as folio's (Jekyll's
    /// `{% include figure %}`, kramdown's attribute lists, Hugo's `{{<
    /// figure >}}`), by kind, with the files, in order.
    pub converted: BTreeMap<String, Vec<String>>,
    /// Template syntax taken out of the text because folio cannot do what
    /// it did (Liquid that needs `site.posts`, a site's Hugo shortcode), by
    /// what it was or needed, with the files, in order.
    pub taken_out: BTreeMap<String, Vec<String>>,
    /// Every URL the old generator served that the new site must serve
    /// too: each document's, its old URLs (`aliases`, `redirect_from`),
    /// each language's home and its feeds. Made from the old site's own
    /// configuration, not by folio's URL rules, for [`verify`] to check in
    /// the built site.
    pub old_urls: Vec<OldUrl>,
    /// Slugs a build would refuse (one that leads out of a folder, names a
    /// Windows device, …), each replaced by a safe one; the post keeps its
    /// old URL as its `permalink`.
    pub slugs_made_safe: Vec<SlugMadeSafe>,
}

/// A URL the old site served, and what it was made from.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct OldUrl {
    /// The source file (or configuration) that made it, relative to the
    /// folder imported.
    pub file: String,
    /// Its path from the site's root (under its base path), as written,
    /// not percent-encoded.
    pub url: String,
}

/// The old URLs of `report` that the site built in `out_dir` serves no
/// file at (a page, or a redirect page that leads on): what an import
/// must not claim to have kept. A URL ending in `/` is served by its
/// `index.html`, one with an extension by that file, another by either.
pub fn verify(report: &ImportReport, out_dir: &Path) -> Vec<OldUrl> {
    report
        .old_urls
        .iter()
        .filter(|old| !served(out_dir, &old.url))
        .cloned()
        .collect()
}

fn served(out_dir: &Path, url: &str) -> bool {
    let path = url
        .split(['#', '?'])
        .next()
        .unwrap_or_default()
        .trim_start_matches('/');
    let decoded = percent_encoding::percent_decode_str(path).decode_utf8_lossy();
    let path = decoded.as_ref();
    // A URL that would name a file outside the output folder is served by
    // none of its files.
    let parts = path.split('/').filter(|part| !part.is_empty());
    if !parts.clone().all(folders::is_plain_name) || path.starts_with('/') {
        return false;
    }
    let index = out_dir.join(path).join("index.html");
    if path.is_empty() || path.ends_with('/') {
        return index.is_file();
    }
    out_dir.join(path).is_file() || index.is_file()
}

impl ImportReport {
    /// Notes that `file` was served at `url` and at its old URLs
    /// ([`aliases_of`] its front matter).
    fn served_at(&mut self, file: &str, url: &str, aliases: &[String]) {
        let urls = std::iter::once(url.to_owned()).chain(aliases.iter().cloned());
        for url in urls {
            let url = if url.starts_with('/') {
                url
            } else {
                format!("/{url}")
            };
            self.old_urls.push(OldUrl {
                file: file.to_owned(),
                url,
            });
        }
    }

    /// Notes the `homes` (`/`, `/fr/`), and the feeds the old site had
    /// there, as served; `config` is the configuration that made them.
    fn homes_served(&mut self, config: &str, homes: Vec<String>, feeds: Option<&feeds::OldFeeds>) {
        for home in homes {
            let feed_files = feeds.map(feeds::OldFeeds::home_files).unwrap_or_default();
            for url in std::iter::once(home.clone())
                .chain(feed_files.iter().map(|file| format!("{home}{file}")))
            {
                self.old_urls.push(OldUrl {
                    file: config.to_owned(),
                    url,
                });
            }
        }
    }
}

/// A title from a slug, as Jekyll's `titleize_slug` makes it: each word
/// between hyphens capitalized (`edge-case` → `Edge Case`).
fn titleize_slug(slug: &str) -> String {
    let words = slug.split('-').filter(|word| !word.is_empty()).map(|word| {
        let mut chars = word.chars();
        let first = chars.next().map(|c| c.to_uppercase().collect::<String>());
        first.unwrap_or_default() + &chars.as_str().to_lowercase()
    });
    words.collect::<Vec<_>>().join(" ")
}

/// `count` bodies made of `pieces` in any order, from `seed` (xorshift):
/// the cases the fuzzers of the conversions found, kept as tests.
#[cfg(test)]
fn shuffled(pieces: &[&str], count: usize, seed: u64) -> Vec<String> {
    let mut state = seed;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    (0..count)
        .map(|_| {
            let len = 1 + next() % 60;
            (0..len)
                .map(|_| pieces[(next() % pieces.len() as u64) as usize])
                .collect()
        })
        .collect()
}

/// HTML as Markdown that shows it as it was: without its blank lines,
/// after which CommonMark would end its HTML block and read an indented
/// line as code; those inside `<pre>`, `<textarea>`, `<script>` or
/// `<style>`, which are text, are kept.
fn html_as_markdown(html: &str) -> String {
    let mut text = String::with_capacity(html.len());
    let mut verbatim = 0usize;
    for line in html.lines() {
        let lower = line.to_ascii_lowercase();
        let opens = ["<pre", "<textarea", "<script", "<style"]
            .iter()
            .filter(|tag| lower.contains(**tag))
            .count();
        let closes = ["</pre", "</textarea", "</script", "</style"]
            .iter()
            .filter(|tag| lower.contains(**tag))
            .count();
        if verbatim > 0 || !line.trim().is_empty() {
            text.push_str(line);
            text.push('\n');
        }
        verbatim = (verbatim + opens).saturating_sub(closes);
    }
    text
}

/// The old URLs a front matter names (`aliases`, Jekyll's
/// `redirect_from`), which folio serves as redirects.
fn aliases_of(fields: &serde_json::Value) -> Vec<String> {
    let mut urls = Vec::new();
    for key in ["aliases", "redirect_from"] {
        match fields.get(key) {
            Some(serde_json::Value::String(alias)) => urls.push(alias.clone()),
            Some(serde_json::Value::Array(aliases)) => {
                urls.extend(aliases.iter().filter_map(scalar_text))
            }
            _ => {}
        }
    }
    urls
}

/// A slug the old site had that a build would refuse, and the one the
/// import gave instead.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct SlugMadeSafe {
    /// The source file, relative to the folder imported.
    pub file: String,
    /// What a build says is wrong with the slug.
    pub why: String,
    /// The slug written instead.
    pub slug: String,
}

impl ImportReport {
    /// Notes the codes of `languages` that folio writes otherwise.
    fn map_languages<'c>(&mut self, languages: impl Iterator<Item = &'c String>) {
        for code in languages {
            let mapped = language_code(code);
            if mapped != *code {
                self.mapped_languages.insert(code.clone(), mapped);
            }
        }
    }

    /// `slug` as a build takes it, checked by the build's own rule
    /// ([`normalize_slug`]): a slug becomes a file name, and one the rule
    /// refuses (`../../x`, `/home/me/notes`, `con`) would be written
    /// outside its folder or refused by the build. Such a slug is replaced
    /// by its letters and digits, else by `fallback`'s (the file's own
    /// name), and noted for `file`: the old URL does not depend on it, it
    /// is kept as the permalink.
    fn safe_slug(&mut self, file: &str, slug: &str, fallback: &str) -> String {
        let why = match normalize_slug(slug) {
            Ok(slug) => return slug,
            Err(why) => why,
        };
        let safe = [slug, fallback, "post"]
            .into_iter()
            .map(slugified)
            .find(|safe| normalize_slug(safe).is_ok())
            .unwrap_or_else(|| "post".to_owned());
        self.slugs_made_safe.push(SlugMadeSafe {
            file: file.to_owned(),
            why,
            slug: safe.clone(),
        });
        safe
    }
}

/// `text`'s letters and digits, lowercased, other runs a dash (as a
/// heading's anchor is made), at most a slug's length; empty when it has
/// none.
fn slugified(text: &str) -> String {
    let mut slug = heading_id(text);
    // `heading_id` names a heading without letters `section`.
    if !text.chars().any(char::is_alphanumeric) {
        slug.clear();
    }
    while slug.len() > MAX_SLUG_BYTES {
        slug.pop();
    }
    slug.trim_end_matches('-').to_owned()
}

/// `code` as folio writes a language (`zh_CN` is `zh-CN`), refused when it
/// is not a language code as the build checks them ([`is_language_code`]):
/// a language becomes a folder name, and `../../x` would lead out of it.
/// `file` is where it was read, `key` what set it.
fn checked_language(code: &str, file: &Path, key: &str) -> Result<String, Error> {
    let mapped = language_code(code);
    if is_language_code(&mapped) {
        return Ok(mapped);
    }
    Err(Error::Config {
        path: file.to_owned(),
        line: None,
        message: format!(
            "`{key}` is `{}`, which is not a language code (BCP 47, like `en` or `zh-CN`); a language becomes a folder name",
            code.escape_debug()
        ),
        help: format!(
            "write `{key}` as the code of the language the text is in, like `en`, `pt-BR` or `zh_CN`"
        ),
    })
}

/// Imports the site at `source` made by `generator` into `into`, a folder
/// that must not exist yet or be empty. `source` is only read.
/// Nothing is read outside `source` (a link out of it, or a configured
/// folder outside it, is refused) and nothing written outside `into`.
pub fn import(generator: Generator, source: &Path, into: &Path) -> Result<ImportReport, Error> {
    let into = Destination::new(into)?;
    let source = Source::open(source)?;
    match generator {
        Generator::Jekyll => jekyll::jekyll(&source, &into),
        Generator::Zola => zola::zola(&source, &into),
        Generator::Hugo => hugo::hugo(&source, &into),
    }
}

/// A YAML document as JSON values; `None` if it does not parse, or if its
/// aliases or its nesting go beyond what a build reads (the post is then
/// copied as it is, and the build names its line). gray_matter reads it, as
/// no line is needed here.
fn yaml_map(text: &str) -> Option<serde_json::Value> {
    use gray_matter::engine::Engine as _;
    // gray_matter's reader copies an anchored value for each alias and
    // recurses for each level: the build's bounds are checked first.
    if !crate::source::front_matter::yaml::fits(text) {
        return None;
    }
    let pod = gray_matter::engine::YAML::parse(text).ok()?;
    pod.deserialize::<serde_json::Value>().ok()
}

/// `zh_CN` is `zh-CN`: the folder name and BCP 47 form folio uses.
fn language_code(code: &str) -> String {
    code.trim().replace('_', "-")
}

fn relative(source: &Path, file: &Path) -> String {
    file.strip_prefix(source)
        .unwrap_or(file)
        .to_string_lossy()
        .replace('\\', "/")
}

/// A scalar front matter value as text.
fn scalar_text(value: &serde_json::Value) -> Option<String> {
    match value {
        serde_json::Value::String(s) => Some(s.clone()),
        serde_json::Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

/// Counts the Liquid tags (`{% include %}`) and output tags (`{{ }}`) of a
/// body, once per file.
fn count_template_tags(body: &str, report: &mut ImportReport) {
    let mut kinds = BTreeSet::new();
    for (at, _) in body.match_indices("{%") {
        let name: String = body[at + 2..]
            .trim_start_matches(['-', ' '])
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        if !name.is_empty() && !name.starts_with("end") {
            kinds.insert(format!("{{% {name} %}}"));
        }
    }
    for (at, _) in body.match_indices("{{") {
        // Hugo's shortcodes: `{{< name … >}}`, `{{% name … %}}`.
        if let Some(open @ ('<' | '%')) = body[at + 2..].chars().next() {
            let name: String = body[at + 3..]
                .trim_start()
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '-')
                .collect();
            let close = if open == '<' { '>' } else { '%' };
            if !name.is_empty() {
                kinds.insert(format!("{{{{{open} {name} {close}}}}}"));
            }
            continue;
        }
        let rest = body[at + 2..].trim_start();
        let name: String = rest
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        // A shortcode (Zola, Hugo's are `{{< >}}`): `{{ name(…) }}`.
        let call = rest[name.len()..].starts_with('(');
        kinds.insert(if call && !name.is_empty() {
            format!("{{{{ {name}() }}}}")
        } else {
            "{{ … }}".to_owned()
        });
    }
    for kind in kinds {
        *report.template_tags.entry(kind).or_default() += 1;
    }
}

/// What a language calls itself, for the language switcher; a language
/// not listed is named by its code until the site names it.
const ENDONYMS: &[(&str, &str)] = &[
    ("ar", "العربية"),
    ("ca", "Català"),
    ("cs", "Čeština"),
    ("de", "Deutsch"),
    ("en", "English"),
    ("es", "Español"),
    ("fa", "فارسی"),
    ("fr", "Français"),
    ("hu", "Magyar"),
    ("id", "Bahasa Indonesia"),
    ("it", "Italiano"),
    ("ja", "日本語"),
    ("ko", "한국어"),
    ("nl", "Nederlands"),
    ("pl", "Polski"),
    ("pt", "Português"),
    ("pt-BR", "Português (Brasil)"),
    ("ru", "Русский"),
    ("tr", "Türkçe"),
    ("uk", "Українська"),
    ("vi", "Tiếng Việt"),
    ("zh", "中文"),
    ("zh-CN", "简体中文"),
    ("zh-TW", "繁體中文"),
];

/// What `site.toml` of an imported site says.
struct SiteSettings {
    generator: &'static str,
    title: String,
    base_url: String,
    default_language: String,
    timezone: Option<String>,
    post_sections: Vec<String>,
    /// The old site only warned of a link to a missing anchor (Zola's
    /// `internal_level = "warn"`).
    anchors_warn: bool,
    feeds: Option<feeds::OldFeeds>,
    carried: carried::Carried,
    /// The old site's term URLs were ASCII (Zola's default `slugify`).
    ascii_terms: bool,
}

impl SiteSettings {
    /// The file, with a table for each of `languages`.
    fn site_toml(&self, languages: &[String]) -> String {
        let quote = |text: &str| toml::Value::String(text.to_owned()).to_string();
        let mut toml = format!(
            "# Imported from a {} site by `folio import`.\ntitle = {}\nbase_url = {}\ndefault_language = {}\n",
            self.generator,
            quote(&self.title),
            quote(&self.base_url),
            quote(&self.default_language),
        );
        if let Some(timezone) = &self.timezone {
            toml.push_str(&format!("timezone = {}\n", quote(timezone)));
        }
        if self.post_sections != ["posts"] {
            let sections: Vec<String> = self.post_sections.iter().map(|s| quote(s)).collect();
            toml.push_str(&format!("post_sections = [{}]\n", sections.join(", ")));
        }
        if self.ascii_terms {
            toml.push_str(&format!(
                "# The {} site wrote its terms' URLs in ASCII.\nterm_slugs = \"ascii\"\n",
                self.generator
            ));
        }
        if let Some(feeds) = &self.feeds {
            toml.push_str(&feeds.toml(self.generator));
        }
        let (carried_keys, carried_tables) = self.carried.toml();
        toml.push_str(&carried_keys);
        if self.anchors_warn {
            toml.push_str("\n# The old site only warned of links to missing anchors.\n[links]\nanchors = \"warn\"\n");
        }
        toml.push_str(&carried_tables);
        for lang in languages.iter().filter(|l| is_language_code(l)) {
            let name = ENDONYMS
                .iter()
                .find(|(code, _)| code.eq_ignore_ascii_case(lang))
                .map_or(lang.as_str(), |(_, name)| name);
            toml.push_str(&format!(
                "\n[languages.{}]\nname = {}\n",
                quote(lang),
                quote(name)
            ));
            toml.push_str(&self.carried.language_toml(lang));
        }
        toml
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_slug_the_build_refuses_is_made_safe_and_noted() {
        let mut report = ImportReport::default();
        assert_eq!(report.safe_slug("a.md", "hello world", "a"), "hello-world");
        assert_eq!(report.safe_slug("a.md", "京都の秋", "a"), "京都の秋");
        assert!(report.slugs_made_safe.is_empty());
        let cases = [
            ("/home/me/notes", "home-me-notes"),
            ("../../../../home/me/x", "home-me-x"),
            ("a\\b", "a-b"),
            ("..", "file-name"),
            ("", "file-name"),
            ("con", "file-name"),
            ("draft.", "draft"),
        ];
        for (slug, safe) in cases {
            assert_eq!(
                report.safe_slug("a.md", slug, "file-name"),
                safe,
                "{slug:?}"
            );
        }
        // The file's name is checked by the same rule.
        assert_eq!(report.safe_slug("nul.md", "..", "nul"), "post");
        assert_eq!(report.slugs_made_safe.len(), cases.len() + 1);
        let first = &report.slugs_made_safe[0];
        assert_eq!(first.file, "a.md");
        assert_eq!(first.why, "`/home/me/notes` contains `/`");
        let long = report.safe_slug("a.md", &"a/".repeat(300), "x");
        assert!(normalize_slug(&long).is_ok(), "{long}");
    }

    #[test]
    fn an_old_url_is_served_by_its_page_file_or_folder_index() {
        let out = tempfile::tempdir().unwrap();
        for file in [
            "index.html",
            "a/index.html",
            "b.html",
            "post formats/c/index.html",
            "d",
        ] {
            let path = out.path().join(file);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, "x").unwrap();
        }
        let report = ImportReport {
            old_urls: [
                "/",
                "/a/",
                "/a",
                "/b.html",
                "/post%20formats/c/",
                "/post formats/c/#top",
                "/d",
                "/b/",
                "/e.html",
                "/a/index.html",
            ]
            .map(|url| OldUrl {
                file: "x.md".into(),
                url: url.into(),
            })
            .to_vec(),
            ..ImportReport::default()
        };
        let missed: Vec<String> = verify(&report, out.path())
            .into_iter()
            .map(|m| m.url)
            .collect();
        assert_eq!(missed, ["/b/", "/e.html"]);
        // A URL naming a file outside the folder is not served by it.
        let outside = out.path().parent().unwrap().join("outside.html");
        std::fs::write(&outside, "x").unwrap();
        let escapes = ImportReport {
            old_urls: ["/../outside.html", "/%2E%2E/outside.html", "/%2Fetc/passwd"]
                .map(|url| OldUrl {
                    file: "x.md".into(),
                    url: url.into(),
                })
                .to_vec(),
            ..ImportReport::default()
        };
        assert_eq!(verify(&escapes, out.path()).len(), 3);
        std::fs::remove_file(outside).unwrap();
    }

    #[test]
    fn a_language_that_is_not_a_code_is_refused_naming_its_file_and_key() {
        let file = Path::new("_posts/2024-01-01-a.md");
        assert_eq!(checked_language("zh_CN", file, "lang").unwrap(), "zh-CN");
        for bad in ["../../x", "/home/me", "en/x", "", "english"] {
            let refused = checked_language(bad, file, "lang").unwrap_err().to_string();
            assert!(
                refused.starts_with("_posts/2024-01-01-a.md: `lang` is")
                    && refused.contains("help:"),
                "{refused}"
            );
        }
    }
}
