//! What a site.toml must say, and what a site of one language need not.

use std::collections::BTreeMap;

use super::{Language, RawConfig};

/// The keys a site.toml must have, all named in one error when several
/// are missing: `title` and `base_url` always, `default_language` when
/// more than one language is declared.
pub(super) fn missing_keys(raw: &RawConfig) -> Result<(), (String, String)> {
    let mut missing = Vec::new();
    if raw.title.is_empty() {
        missing.push(("title", "title = \"My blog\""));
    }
    if raw.base_url.is_empty() {
        missing.push(("base_url", "base_url = \"https://example.org\""));
    }
    if raw.default_language.is_none() && raw.languages.len() > 1 {
        missing.push(("default_language", "default_language = \"en\""));
    }
    let names: Vec<String> = missing.iter().map(|(key, _)| format!("`{key}`")).collect();
    let Some((last, rest)) = names.split_last() else {
        return Ok(());
    };
    let message = match rest {
        [] => format!("{last} is missing"),
        rest => format!("{} and {last} are missing", rest.join(", ")),
    };
    let lines: Vec<&str> = missing.iter().map(|(_, line)| *line).collect();
    Err((message, format!("add, at the top: {}", lines.join("; "))))
}

/// A site of one language needs to declare none: the default language
/// is the only declared one, or `en`, and a language without a name is
/// called by its code.
pub(super) fn with_language_defaults(raw: &mut RawConfig) {
    let default = raw.default_language.clone().unwrap_or_else(|| {
        raw.languages
            .keys()
            .next()
            .cloned()
            .unwrap_or_else(|| "en".to_owned())
    });
    if raw.languages.is_empty() {
        raw.languages.insert(
            default.clone(),
            Language {
                name: String::new(),
                title: None,
                description: None,
                extra: toml::Table::new(),
                i18n: BTreeMap::new(),
                menus: BTreeMap::new(),
            },
        );
    }
    for (code, language) in &mut raw.languages {
        if language.name.trim().is_empty() {
            language.name = code.clone();
        }
    }
    raw.default_language = Some(default);
}
