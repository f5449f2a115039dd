//! The theme's words and date formats, per language.
//!
//! Owns the string tables that templates reach through `t("key")`: folio's
//! built-in tables, over which a site's `i18n/<lang>.toml` and then its
//! `[languages.<lang>.i18n]` table in site.toml win. A key a language lacks
//! falls back to the default language (then to folio's English), and the
//! build warns once per language. The resolved table is part of every page's
//! context, so a changed word re-renders exactly the pages of that language.

use std::collections::BTreeMap;
use std::path::Path;

use jiff::ZonedDateTime as Zoned;
use sha2::{Digest, Sha256};

use crate::config::{Config, line_of_offset};
use crate::error::Error;

pub const I18N_DIR: &str = "i18n";

const BUILT_IN: &[(&str, &str)] = &[
    ("de", include_str!("../i18n/de.toml")),
    ("en", include_str!("../i18n/en.toml")),
    ("fr", include_str!("../i18n/fr.toml")),
    ("ja", include_str!("../i18n/ja.toml")),
];

/// The last resort for a key no table of the site has.
const FALLBACK_LANGUAGE: &str = "en";

/// Keys with a shape of their own; every other key is a string.
const MONTHS: &str = "months";
const DATE_FORMAT: &str = "date_format";

/// One language's words.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Strings {
    /// Every string key, resolved (`date_format` included).
    pub text: BTreeMap<String, String>,
    months: Vec<String>,
}

impl Strings {
    /// A date in this language's own format (`{day}`, `{month}` (its name),
    /// `{month_number}`, `{year}`).
    pub fn format_date(&self, date: &Zoned) -> String {
        use std::fmt::Write as _;
        let month = usize::try_from(date.month()).unwrap_or(1).saturating_sub(1);
        let format = self
            .text
            .get(DATE_FORMAT)
            .map_or("{year}-{month_number}-{day}", String::as_str);
        let mut out = String::with_capacity(format.len() + 16);
        crate::url::fill_placeholders(format, &mut out, |name, out| {
            // Writing to a String cannot fail.
            let _ = match name {
                "year" => write!(out, "{}", date.year()),
                "month_number" => write!(out, "{:02}", date.month()),
                "day" => write!(out, "{}", date.day()),
                "month" => match self.months.get(month) {
                    Some(month_name) => out.write_str(month_name),
                    None => write!(out, "{}", date.month()),
                },
                _ => return false,
            };
            true
        });
        out
    }
}

/// Every language's words, and what had to fall back.
#[derive(Debug, Clone, Default)]
pub struct I18n {
    by_lang: BTreeMap<String, Strings>,
    pub warnings: Vec<String>,
    /// Hex SHA-256 of the site's i18n files as read.
    pub digest: String,
    /// The site's tables that were read, relative to the root.
    pub files: Vec<String>,
}

/// A table as written: strings, and `months` as a list.
type RawTable = BTreeMap<String, toml::Value>;

impl I18n {
    /// Reads the site's tables over the built-in ones.
    pub fn load(root: &Path, config: &Config) -> Result<I18n, Error> {
        let mut layered: BTreeMap<String, Strings> = BTreeMap::new();
        let mut files = Sha256::new();
        let mut read = Vec::new();
        for code in config.languages.keys() {
            let mut strings = Strings::default();
            if let Some((_, text)) = BUILT_IN.iter().find(|(lang, _)| lang == code) {
                let table = parse_table(text, Path::new("(built-in)"))?;
                apply(&mut strings, table, Path::new("(built-in)"))?;
            }
            let file = root.join(I18N_DIR).join(format!("{code}.toml"));
            match std::fs::read_to_string(&file) {
                Ok(text) => {
                    // Length-prefixed, so two files can never hash like one.
                    for part in [code.as_str(), text.as_str()] {
                        files.update((part.len() as u64).to_le_bytes());
                        files.update(part.as_bytes());
                    }
                    let shown = file.strip_prefix(root).unwrap_or(&file).to_owned();
                    read.push(format!("{I18N_DIR}/{code}.toml"));
                    let table = parse_table(&text, &shown)?;
                    apply(&mut strings, table, &shown)?;
                }
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                Err(e) => return Err(Error::io(file, e)),
            }
            let inline = config.languages[code].i18n.clone();
            apply(&mut strings, inline, &root.join(crate::config::CONFIG_FILE))?;
            layered.insert(code.clone(), strings);
        }

        let fallback = built_in_fallback()?;
        let default = layered
            .get(&config.default_language)
            .cloned()
            .unwrap_or_default();
        let mut warnings = Vec::new();
        for (code, strings) in &mut layered {
            let mut missing = Vec::new();
            for source in [&default, &fallback] {
                for (key, text) in &source.text {
                    if !strings.text.contains_key(key) {
                        strings.text.insert(key.clone(), text.clone());
                        missing.push(key.clone());
                    }
                }
                if strings.months.is_empty() && !source.months.is_empty() {
                    strings.months = source.months.clone();
                    missing.push(MONTHS.to_owned());
                }
            }
            if !missing.is_empty() {
                warnings.push(format!(
                    "{I18N_DIR}/{code}.toml: no `{code}` text for {}; using the {} text (add the keys to {I18N_DIR}/{code}.toml or to [languages.{code}.i18n] in site.toml)",
                    missing.join(", "),
                    if *code == config.default_language { FALLBACK_LANGUAGE } else { config.default_language.as_str() },
                ));
            }
        }
        Ok(I18n {
            by_lang: layered,
            warnings,
            digest: crate::hash::hex(&files.finalize()),
            files: read,
        })
    }

    /// The words of `lang` (empty for an undeclared language).
    pub fn strings(&self, lang: &str) -> &Strings {
        static EMPTY: Strings = Strings {
            text: BTreeMap::new(),
            months: Vec::new(),
        };
        self.by_lang.get(lang).unwrap_or(&EMPTY)
    }
}

fn built_in_fallback() -> Result<Strings, Error> {
    let mut strings = Strings::default();
    if let Some((_, text)) = BUILT_IN.iter().find(|(lang, _)| *lang == FALLBACK_LANGUAGE) {
        apply(
            &mut strings,
            parse_table(text, Path::new("(built-in)"))?,
            Path::new("(built-in)"),
        )?;
    }
    Ok(strings)
}

fn parse_table(text: &str, path: &Path) -> Result<RawTable, Error> {
    toml::from_str(text).map_err(|e| Error::Config {
        path: path.to_owned(),
        line: e.span().map(|span| line_of_offset(text, span.start)),
        message: e.message().to_owned(),
        help: "an i18n table holds `key = \"text\"` lines and `months = [12 names]`".into(),
    })
}

fn apply(strings: &mut Strings, table: RawTable, path: &Path) -> Result<(), Error> {
    let invalid = |message: String| Error::Config {
        path: path.to_owned(),
        line: None,
        message,
        help: "an i18n table holds `key = \"text\"` lines and `months = [12 names]`".into(),
    };
    for (key, value) in table {
        match (key.as_str(), value) {
            (MONTHS, toml::Value::Array(items)) => {
                let months: Option<Vec<String>> = items
                    .iter()
                    .map(|v| v.as_str().map(str::to_owned))
                    .collect();
                match months {
                    Some(months) if months.len() == 12 => strings.months = months,
                    _ => return Err(invalid("`months` must be a list of 12 strings".into())),
                }
            }
            (_, toml::Value::String(text)) => {
                strings.text.insert(key, text);
            }
            (_, _) => return Err(invalid(format!("`{key}` must be a string"))),
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(extra: &str) -> Config {
        Config::parse(
            &format!(
                "title='t'\nbase_url='x'\ndefault_language='en'\n[languages.en]\nname='English'\n[languages.fr]\nname='Français'\n[languages.ar]\nname='العربية'\n{extra}"
            ),
            Path::new("site.toml"),
        )
        .unwrap()
    }

    fn date(text: &str) -> Zoned {
        text.parse().unwrap()
    }

    #[test]
    fn built_in_tables_format_dates_with_month_names() {
        let dir = tempfile::tempdir().unwrap();
        let i18n = I18n::load(dir.path(), &config("")).unwrap();
        let d = date("2024-08-05T10:00:00+02:00[Europe/Paris]");
        assert_eq!(i18n.strings("en").format_date(&d), "August 5, 2024");
        assert_eq!(i18n.strings("fr").format_date(&d), "5 août 2024");
        assert_eq!(i18n.strings("fr").text["read_more"], "Lire la suite");
    }

    #[test]
    fn a_date_format_fills_each_placeholder_wherever_it_is_and_keeps_other_braces() {
        let mut strings = Strings {
            text: BTreeMap::from([(
                DATE_FORMAT.into(),
                "{day}/{month_number}/{year} {month} {{x} {y {day}{".into(),
            )]),
            months: vec!["Jan".into(); 12],
        };
        let d = date("2024-03-07T10:00:00+00:00[UTC]");
        assert_eq!(strings.format_date(&d), "7/03/2024 Jan {{x} {y 7{");
        // Without a month name for it, the month's number stands in.
        strings.months.clear();
        strings
            .text
            .insert(DATE_FORMAT.into(), "{month} {year}".into());
        assert_eq!(strings.format_date(&d), "3 2024");
    }

    #[test]
    fn a_missing_language_falls_back_to_the_default_and_warns_once() {
        let dir = tempfile::tempdir().unwrap();
        let i18n = I18n::load(dir.path(), &config("")).unwrap();
        assert_eq!(i18n.strings("ar").text["read_more"], "Read more");
        assert_eq!(i18n.warnings.len(), 1, "{:?}", i18n.warnings);
        assert!(
            i18n.warnings[0].contains("i18n/ar.toml") && i18n.warnings[0].contains("read_more")
        );
    }

    #[test]
    fn site_files_and_site_toml_override_in_that_order() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("i18n")).unwrap();
        std::fs::write(
            dir.path().join("i18n/fr.toml"),
            "read_more = \"Lire\"\ntags = \"Mots-clés\"\n",
        )
        .unwrap();
        std::fs::write(
            dir.path().join("i18n/ar.toml"),
            "read_more = \"اقرأ المزيد\"\n",
        )
        .unwrap();
        let i18n = I18n::load(
            dir.path(),
            &config("[languages.fr.i18n]\ntags = \"Thèmes\"\n"),
        )
        .unwrap();
        assert_eq!(i18n.strings("fr").text["read_more"], "Lire");
        assert_eq!(i18n.strings("fr").text["tags"], "Thèmes");
        assert_eq!(i18n.strings("ar").text["read_more"], "اقرأ المزيد");
        assert_eq!(i18n.strings("ar").text["tags"], "Tags");
    }

    #[test]
    fn malformed_tables_name_their_file() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("i18n")).unwrap();
        std::fs::write(dir.path().join("i18n/fr.toml"), "months = [\"a\"]\n").unwrap();
        let err = I18n::load(dir.path(), &config("")).unwrap_err().to_string();
        assert!(err.contains("i18n/fr.toml") && err.contains("12"), "{err}");
        std::fs::write(dir.path().join("i18n/fr.toml"), "read_more = 3\n").unwrap();
        assert!(I18n::load(dir.path(), &config("")).is_err());
    }
}
