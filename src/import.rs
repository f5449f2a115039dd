//! Moving a blog in: turns another generator's site into a folio site,
//! keeping every URL its old generator gave a post.
//!
//! Not a stage of the build: it writes a site (sources, `site.toml`) that a
//! build then reads, and never changes the folder it reads from. Every post
//! gets a `permalink` with the URL its generator gave it, so no published
//! link breaks whatever folio's own URL rule would say; what folio cannot
//! carry over (template tags in bodies) is left as it is and counted.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::Path;

use crate::config::is_language_code;
use crate::error::Error;
use crate::parse::FIELDS as READ_FIELDS;

mod hugo;
mod jekyll;
mod tree;
mod zola;

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
    /// Posts linked to a translation in another language by the old
    /// site's `ref` or `name` field, or by a permalink that differs from
    /// the translation's only by its language, written down as
    /// `translation_key`.
    pub translations_linked: usize,
    /// Posts whose old URL the import wrote down as their `permalink`
    /// (the others had one already, which folio honours).
    pub permalinks_written: usize,
    /// Posts that share a slug and a language with another (the old
    /// generator told them apart by their dated URLs): the source file, and
    /// the slug it was given.
    pub renamed: Vec<(String, String)>,
    /// Front matter keys written twice: the file and the key; the last
    /// value was kept, as the old generator's YAML reader did.
    pub repeated_keys: Vec<(String, String)>,
    /// Front matter lines that only Jekyll's lenient YAML reader took (a
    /// quoted value continued at the start of a line), indented as YAML
    /// requires: the file and the key.
    pub reindented: Vec<(String, String)>,
    /// Files left out, and why: a Jekyll post without a date in its name
    /// (Jekyll did not publish it), a Zola section without text (a list,
    /// which folio makes).
    pub left_out: Vec<(String, String)>,
    /// Template tags left in bodies for a hand to replace: the tag (`{%
    /// include %}`) and how many files use it.
    pub template_tags: BTreeMap<String, usize>,
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
}

/// Imports the site at `source` made by `generator` into `into`, a folder
/// that must not exist yet or be empty. `source` is only read.
pub fn import(generator: Generator, source: &Path, into: &Path) -> Result<ImportReport, Error> {
    let empty = fs::read_dir(into).map_or(true, |mut entries| entries.next().is_none());
    if !empty {
        return Err(Error::Config {
            path: into.to_owned(),
            line: None,
            message: "the folder to import into is not empty".into(),
            help: "name a new folder with --into; an import never writes over files".into(),
        });
    }
    match generator {
        Generator::Jekyll => jekyll::jekyll(source, into),
        Generator::Zola => zola::zola(source, into),
        Generator::Hugo => hugo::hugo(source, into),
    }
}

/// A YAML document as JSON values; `None` if it does not parse, or if its
/// aliases would have the reader copy more than a build reads (the post is
/// then copied as it is, and the build names its line).
fn yaml_map(text: &str) -> Option<serde_json::Value> {
    use gray_matter::engine::Engine as _;
    if crate::parse::alias_bomb(text).is_some() {
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
    if body.contains("](@/") {
        kinds.insert("[…](@/…) (Zola's internal links)".to_owned());
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
        }
        toml
    }
}
