//! The theme's words and date formats, per language.
//!
//! Owns the string tables that templates reach through `t("key")`: folio's
//! built-in tables, over which its theme's `themes/<name>/i18n/<lang>.toml`,
//! the site's own `i18n/<lang>.toml` and then its `[languages.<lang>.i18n]`
//! table in site.toml win, key by key. A key a language lacks
//! falls back to the default language (then to folio's English), and the
//! build warns once per language. The resolved table is part of every page's
//! context, so a changed word re-renders exactly the pages of that language.

use std::collections::BTreeMap;
use std::path::Path;

use std::sync::Arc;

use icu_calendar::Gregorian;
use icu_datetime::FixedCalendarDateTimeFormatter;
use icu_datetime::fieldsets;
use icu_datetime::input::Date;
use icu_locale_core::Locale;
use jiff::ZonedDateTime as Zoned;
use sha2::{Digest, Sha256};

use crate::model::error::Error;
use crate::source::config::{Config, line_of_offset};

pub const I18N_DIR: &str = "i18n";

/// The theme's words in the 20 languages most used on the web (W3Techs),
/// Chinese in both scripts. Dates come from CLDR for every language.
const BUILT_IN: &[(&str, &str)] = &[
    ("ar", include_str!("../../i18n/ar.toml")),
    ("cs", include_str!("../../i18n/cs.toml")),
    ("de", include_str!("../../i18n/de.toml")),
    ("en", include_str!("../../i18n/en.toml")),
    ("es", include_str!("../../i18n/es.toml")),
    ("fa", include_str!("../../i18n/fa.toml")),
    ("fr", include_str!("../../i18n/fr.toml")),
    ("hu", include_str!("../../i18n/hu.toml")),
    ("id", include_str!("../../i18n/id.toml")),
    ("it", include_str!("../../i18n/it.toml")),
    ("ja", include_str!("../../i18n/ja.toml")),
    ("ko", include_str!("../../i18n/ko.toml")),
    ("nl", include_str!("../../i18n/nl.toml")),
    ("pl", include_str!("../../i18n/pl.toml")),
    ("pt", include_str!("../../i18n/pt.toml")),
    ("ru", include_str!("../../i18n/ru.toml")),
    ("tr", include_str!("../../i18n/tr.toml")),
    ("uk", include_str!("../../i18n/uk.toml")),
    ("vi", include_str!("../../i18n/vi.toml")),
    ("zh", include_str!("../../i18n/zh.toml")),
    ("zh-Hant", include_str!("../../i18n/zh-Hant.toml")),
];

/// folio's table for the language `code`: its own, else its script's
/// (`zh-TW` is written in traditional characters), else its primary
/// language's (`pt-BR` takes `pt`).
fn built_in(code: &str) -> Option<&'static str> {
    let table = |name: &str| {
        BUILT_IN
            .iter()
            .find(|(lang, _)| *lang == name)
            .map(|(_, text)| *text)
    };
    let lower = code.to_ascii_lowercase();
    let traditional = ["zh-tw", "zh-hk", "zh-mo", "zh-hant"];
    if traditional.iter().any(|prefix| lower.starts_with(prefix)) {
        return table("zh-Hant");
    }
    table(code).or_else(|| table(code.split('-').next().unwrap_or(code)))
}

/// The last resort for a key no table of the site has.
const FALLBACK_LANGUAGE: &str = "en";

/// Keys with a shape of their own; every other key is a string.
const MONTHS: &str = "months";
const DATE_FORMAT: &str = "date_format";

/// One language's words.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Strings {
    /// Every string key, resolved (`date_format` included when the site
    /// sets one).
    pub text: BTreeMap<String, String>,
    months: Vec<String>,
    /// How CLDR writes dates in this language.
    cldr: Option<CldrDates>,
}

/// CLDR's long date and month names for one language, through ICU4X's
/// compiled data: every language a site declares gets its dates written as
/// its readers write them, with no table to maintain.
#[derive(Clone)]
struct CldrDates {
    locale: String,
    date: Arc<FixedCalendarDateTimeFormatter<Gregorian, fieldsets::YMD>>,
    month: Arc<FixedCalendarDateTimeFormatter<Gregorian, fieldsets::M>>,
}

impl CldrDates {
    /// For the BCP 47 code `lang`; CLDR's root data for a language it does
    /// not know. `None` for a code ICU cannot read as a locale.
    fn new(lang: &str) -> Option<CldrDates> {
        let locale = Locale::try_from_str(lang).ok()?;
        let date =
            FixedCalendarDateTimeFormatter::try_new(locale.clone().into(), fieldsets::YMD::long())
                .ok()?;
        let month =
            FixedCalendarDateTimeFormatter::try_new(locale.into(), fieldsets::M::long()).ok()?;
        Some(CldrDates {
            locale: lang.to_owned(),
            date: Arc::new(date),
            month: Arc::new(month),
        })
    }

    fn gregorian(date: &Zoned) -> Option<Date<Gregorian>> {
        let month = u8::try_from(date.month()).ok()?;
        let day = u8::try_from(date.day()).ok()?;
        Date::try_new_gregorian(i32::from(date.year()), month, day).ok()
    }

    /// `May 1, 2024`, `1 mai 2024`, `2024年5月1日`.
    fn long(&self, date: &Zoned) -> Option<String> {
        Some(self.date.format(&Self::gregorian(date)?).to_string())
    }

    /// `May`, `mai`, `5月`.
    fn month(&self, date: &Zoned) -> Option<String> {
        Some(self.month.format(&Self::gregorian(date)?).to_string())
    }
}

impl PartialEq for CldrDates {
    fn eq(&self, other: &CldrDates) -> bool {
        self.locale == other.locale
    }
}

impl Eq for CldrDates {}

impl std::fmt::Debug for CldrDates {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "CldrDates({})", self.locale)
    }
}

impl Strings {
    /// A date as this language writes it: CLDR's long date, unless the
    /// site set a `date_format` (`{day}`, `{month}` (its name: the site's
    /// `months`, else CLDR's), `{month_number}`, `{year}`).
    pub fn format_date(&self, date: &Zoned) -> String {
        use std::fmt::Write as _;
        let format = match (self.text.get(DATE_FORMAT), &self.cldr) {
            (Some(format), _) => format.as_str(),
            (None, Some(cldr)) => match cldr.long(date) {
                Some(long) => return long,
                None => "{year}-{month_number}-{day}",
            },
            (None, None) => "{year}-{month_number}-{day}",
        };
        let month = usize::try_from(date.month()).unwrap_or(1).saturating_sub(1);
        let mut out = String::with_capacity(format.len() + 16);
        crate::model::url::fill_placeholders(format, &mut out, |name, out| {
            // Writing to a String cannot fail.
            let _ = match name {
                "year" => write!(out, "{}", date.year()),
                "month_number" => write!(out, "{:02}", date.month()),
                "day" => write!(out, "{}", date.day()),
                "month" => match self.months.get(month) {
                    Some(month_name) => out.write_str(month_name),
                    None => match self.cldr.as_ref().and_then(|cldr| cldr.month(date)) {
                        Some(month_name) => out.write_str(&month_name),
                        None => write!(out, "{}", date.month()),
                    },
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
    /// Hex SHA-256 of the site's i18n files (and its theme's) as read.
    pub digest: String,
    /// The site's tables (and its theme's) that were read, relative to the
    /// root.
    pub files: Vec<String>,
}

/// A table as written: strings, and `months` as a list.
type RawTable = BTreeMap<String, toml::Value>;

impl I18n {
    /// Reads the site's tables over its theme's, over the built-in ones.
    pub fn load(root: &Path, config: &Config) -> Result<I18n, Error> {
        let mut layered: BTreeMap<String, Strings> = BTreeMap::new();
        let mut files = Sha256::new();
        let mut read = Vec::new();
        for code in config.languages.keys() {
            let mut strings = Strings::default();
            if let Some(text) = built_in(code) {
                let table = parse_table(text, Path::new("(built-in)"))?;
                apply(&mut strings, table, Path::new("(built-in)"))?;
            }
            // The theme's words over folio's, the site's over both.
            let folders = config
                .theme_dir
                .as_deref()
                .map(|theme| format!("{theme}/{I18N_DIR}"))
                .into_iter()
                .chain([I18N_DIR.to_owned()]);
            for folder in folders {
                let rel = format!("{folder}/{code}.toml");
                let file = root.join(&rel);
                match std::fs::read_to_string(&file) {
                    Ok(text) => {
                        // Length-prefixed, so two files can never hash like one.
                        for part in [rel.as_str(), text.as_str()] {
                            files.update((part.len() as u64).to_le_bytes());
                            files.update(part.as_bytes());
                        }
                        let table = parse_table(&text, Path::new(&rel))?;
                        apply(&mut strings, table, Path::new(&rel))?;
                        read.push(rel);
                    }
                    Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                    Err(e) => return Err(Error::io(file, e)),
                }
            }
            let inline = config.languages[code].i18n.clone();
            apply(
                &mut strings,
                inline,
                &root.join(crate::source::config::CONFIG_FILE),
            )?;
            strings.cldr = CldrDates::new(code);
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
                // Dates come from CLDR: another language's way of writing
                // them is no fallback.
                let words = source.text.iter().filter(|(key, _)| *key != DATE_FORMAT);
                for (key, text) in words {
                    if !strings.text.contains_key(key) {
                        strings.text.insert(key.clone(), text.clone());
                        missing.push(key.clone());
                    }
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
            digest: crate::model::hash::hex(&files.finalize()),
            files: read,
        })
    }

    /// The words of `lang` (empty for an undeclared language).
    pub fn strings(&self, lang: &str) -> &Strings {
        static EMPTY: Strings = Strings {
            text: BTreeMap::new(),
            months: Vec::new(),
            cldr: None,
        };
        self.by_lang.get(lang).unwrap_or(&EMPTY)
    }
}

fn built_in_fallback() -> Result<Strings, Error> {
    let mut strings = Strings::default();
    if let Some(text) = built_in(FALLBACK_LANGUAGE) {
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
                "title='t'\nbase_url='x'\ndefault_language='en'\n[languages.en]\nname='English'\n[languages.fr]\nname='Français'\n[languages.ar]\nname='العربية'\n[languages.sw]\nname='Kiswahili'\n{extra}"
            ),
            Path::new("site.toml"),
        )
        .unwrap()
    }

    fn date(text: &str) -> Zoned {
        text.parse().unwrap()
    }

    #[test]
    fn dates_are_written_as_cldr_writes_them_in_every_language() {
        let dir = tempfile::tempdir().unwrap();
        let languages = [
            "de", "es", "ru", "zh-CN", "ja", "ko", "pl", "pt-BR", "tr", "hi",
        ]
        .map(|code| format!("[languages.{code}]\nname='{code}'\n"))
        .concat();
        let i18n = I18n::load(dir.path(), &config(&languages)).unwrap();
        let d = date("2024-08-05T10:00:00+02:00[Europe/Paris]");
        for (lang, written) in [
            ("en", "August 5, 2024"),
            ("fr", "5 août 2024"),
            ("de", "5. August 2024"),
            ("es", "5 de agosto de 2024"),
            ("ru", "5 августа 2024\u{202f}г."),
            ("zh-CN", "2024年8月5日"),
            ("ja", "2024年8月5日"),
            ("ko", "2024년 8월 5일"),
            ("pl", "5 sierpnia 2024"),
            ("pt-BR", "5 de agosto de 2024"),
            ("tr", "5 Ağustos 2024"),
            ("ar", "5 أغسطس 2024"),
        ] {
            assert_eq!(i18n.strings(lang).format_date(&d), written, "{lang}");
        }
        assert_eq!(i18n.strings("fr").text["read_more"], "Lire la suite");
    }

    #[test]
    fn a_sites_date_format_wins_and_takes_cldrs_month_names() {
        let dir = tempfile::tempdir().unwrap();
        let i18n = I18n::load(
            dir.path(),
            &config("[languages.fr.i18n]\ndate_format = \"{day} {month} {year}\"\n"),
        )
        .unwrap();
        let d = date("2024-08-05T10:00:00+02:00[Europe/Paris]");
        assert_eq!(i18n.strings("fr").format_date(&d), "5 août 2024");
        // Another language does not take it as a fallback.
        assert_eq!(i18n.strings("en").format_date(&d), "August 5, 2024");
    }

    #[test]
    fn a_date_format_fills_each_placeholder_wherever_it_is_and_keeps_other_braces() {
        let mut strings = Strings {
            text: BTreeMap::from([(
                DATE_FORMAT.into(),
                "{day}/{month_number}/{year} {month} {{x} {y {day}{".into(),
            )]),
            months: vec!["Jan".into(); 12],
            cldr: None,
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
        // folio has no Swahili words: English stands in, once, with a warning.
        assert_eq!(i18n.strings("sw").text["read_more"], "Read more");
        assert_eq!(i18n.warnings.len(), 1, "{:?}", i18n.warnings);
        assert!(
            i18n.warnings[0].contains("i18n/sw.toml") && i18n.warnings[0].contains("read_more")
        );
        // Its dates are still CLDR's.
        let d = date("2024-08-05T10:00:00+02:00[Europe/Paris]");
        assert_eq!(i18n.strings("sw").format_date(&d), "5 Agosti 2024");
        // Regional variants and scripts take their language's table.
        let variants = config(
            "[languages.pt-BR]\nname='pt'\n[languages.zh-TW]\nname='zh'\n[languages.zh-CN]\nname='zh'\n",
        );
        let i18n = I18n::load(dir.path(), &variants).unwrap();
        assert_eq!(i18n.strings("pt-BR").text["read_more"], "Continuar lendo");
        assert_eq!(i18n.strings("zh-TW").text["tags"], "標籤");
        assert_eq!(i18n.strings("zh-CN").text["tags"], "标签");
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
            dir.path().join("i18n/sw.toml"),
            "read_more = \"Soma zaidi\"\n",
        )
        .unwrap();
        let i18n = I18n::load(
            dir.path(),
            &config("[languages.fr.i18n]\ntags = \"Thèmes\"\n"),
        )
        .unwrap();
        assert_eq!(i18n.strings("fr").text["read_more"], "Lire");
        assert_eq!(i18n.strings("fr").text["tags"], "Thèmes");
        assert_eq!(i18n.strings("sw").text["read_more"], "Soma zaidi");
        assert_eq!(i18n.strings("sw").text["tags"], "Tags");
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
