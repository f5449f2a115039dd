//! Hashing what a page is built from, in a form that cannot be read two
//! ways.

use super::*;

/// Hashes what a page is built from, in a form that cannot be read two ways.
pub(super) struct KeyHasher(pub(super) Sha256);

impl KeyHasher {
    /// What every page of `template` in `lang` starts from: folio's
    /// version, the template's closure, the config and the language's words.
    pub(super) fn prefix(
        theme: &Theme,
        template: &str,
        (views, menus): (&Views<'_>, &BTreeMap<String, LanguageMenus>),
        lang: &str,
    ) -> KeyHasher {
        let mut key = KeyHasher(Sha256::new());
        key.text(concat!("folio ", env!("CARGO_PKG_VERSION")));
        key.text(template);
        key.text(theme.closure_hash(template));
        key.text(&views.globals);
        key.text(lang);
        key.text(views.wording.get(lang).map_or("", String::as_str));
        key.text(menus.get(lang).map_or("", |menus| menus.digest()));
        key
    }

    pub(super) fn text(&mut self, text: &str) {
        self.0.update((text.len() as u64).to_le_bytes());
        self.0.update(text.as_bytes());
    }

    pub(super) fn number(&mut self, n: usize) {
        self.0.update((n as u64).to_le_bytes());
    }

    /// A moment, in Unix milliseconds (before 1970 too).
    pub(super) fn moment(&mut self, ms: i64) {
        self.0.update(ms.to_le_bytes());
    }

    /// A document stands in by its digest ([`Model::digest`]).
    pub(super) fn document(&mut self, model: &Model, i: usize) {
        self.0.update(model.digest(i));
    }

    pub(super) fn documents(&mut self, model: &Model, indices: impl IntoIterator<Item = usize>) {
        let mut count = 0;
        for i in indices {
            self.document(model, i);
            count += 1;
        }
        self.number(count);
    }

    /// Documents a page names by some of their values alone (`values`
    /// gives them), and how many: an edit to anything else of theirs
    /// leaves the page's fingerprint as it is.
    pub(super) fn named<'r, const N: usize>(
        &mut self,
        model: &'r Model,
        indices: impl IntoIterator<Item = usize>,
        values: impl Fn(&'r Record) -> [&'r str; N],
    ) {
        let mut count = 0;
        for i in indices {
            let record = model.records[i].whole();
            for value in values(record) {
                self.text(value);
            }
            count += 1;
        }
        self.number(count);
    }

    pub(super) fn finish(self) -> String {
        hex(&self.0.finalize())
    }
}

/// The [`KeyHasher::prefix`] of every (template, language) pair, hashed once
/// rather than once per page.
pub(super) struct KeyPrefixes<'a> {
    pub(super) theme: &'a Theme,
    pub(super) views: &'a Views<'a>,
    /// Each language's menus, which every page of it shows.
    pub(super) menus: &'a BTreeMap<String, LanguageMenus>,
    pub(super) prefixes: FxHashMap<(&'a str, &'a str), KeyHasher>,
}

impl<'a> KeyPrefixes<'a> {
    pub(super) fn new(
        theme: &'a Theme,
        (views, menus): (&'a Views<'a>, &'a BTreeMap<String, LanguageMenus>),
        pairs: impl Iterator<Item = (&'a str, &'a str)>,
    ) -> KeyPrefixes<'a> {
        let mut prefixes = FxHashMap::default();
        for (template, lang) in pairs {
            prefixes
                .entry((template, lang))
                .or_insert_with(|| KeyHasher::prefix(theme, template, (views, menus), lang));
        }
        KeyPrefixes {
            theme,
            views,
            menus,
            prefixes,
        }
    }

    /// The hasher of the page at `url`, of `template` in `lang`.
    pub(super) fn start(&self, template: &str, lang: &str, url: &str) -> KeyHasher {
        let mut key = match self.prefixes.get(&(template, lang)) {
            Some(prefix) => KeyHasher(prefix.0.clone()),
            None => KeyHasher::prefix(self.theme, template, (self.views, self.menus), lang),
        };
        key.text(url);
        key
    }
}
