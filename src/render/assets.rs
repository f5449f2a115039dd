//! `asset_url(path)`: the URL of the twin of a file of the site, a copy
//! named by a hash of its bytes that a browser may cache forever, and its
//! `integrity`. Which assets a page's templates name is known only once it
//! renders: each call is recorded for the page being rendered; the build
//! makes an asset's bytes (and so its hash) before a page that asks for it
//! renders, or renders that page again once it has them, and writes the
//! twins the pages name after they render (pruning those none names).

use std::collections::BTreeSet;
use std::fmt;
use std::sync::{Arc, Mutex, PoisonError, RwLock};

use minijinja::value::{Enumerator, Object};
use minijinja::{Error as TemplateError, ErrorKind, Value};
use rustc_hash::FxHashMap;

use crate::model::asset::{AssetFacts, AssetUses, own_fingerprint, with_assets};

/// What one build's `asset_url` calls find and record.
pub struct AssetUrls {
    /// Where the site is under its host: URLs start with it.
    base_path: String,
    /// Every output a template may name: the files of `static/`, the
    /// sheets of `sass/` and the theme's site files that are no page.
    names: BTreeSet<String>,
    /// Those of them made from a template (`style.css`): a site file's
    /// template may not name one, which would wait on itself or on a
    /// file waiting on it.
    site_files: BTreeSet<String>,
    /// The facts of the assets whose bytes the build knows, by output.
    known: RwLock<FxHashMap<String, AssetFacts>>,
    /// Per page rendered, the assets its templates asked for.
    asked: Mutex<AssetUses>,
    /// Per page rendered, the assets it was answered for without their
    /// facts: it shows a placeholder, and must render again.
    missed: Mutex<AssetUses>,
}

impl AssetUrls {
    /// The calls of a build whose assets are at `names` (`site_files`
    /// among them made from templates), those of `known` with their facts.
    pub fn new(
        (names, site_files): (BTreeSet<String>, BTreeSet<String>),
        known: impl IntoIterator<Item = (String, AssetFacts)>,
        base_path: &str,
    ) -> AssetUrls {
        AssetUrls {
            base_path: base_path.to_owned(),
            names,
            site_files,
            known: RwLock::new(known.into_iter().collect()),
            asked: Mutex::default(),
            missed: Mutex::default(),
        }
    }

    /// Calls that find no asset: what tests of templates that call none
    /// are given.
    #[cfg(any(test, feature = "internals"))]
    pub fn without_files() -> Arc<AssetUrls> {
        Arc::new(AssetUrls::new(Default::default(), [], ""))
    }

    /// Whether a template may name the output at `asset`.
    pub fn names(&self, asset: &str) -> bool {
        self.names.contains(asset)
    }

    /// The facts of the asset at `asset`, once the build knows its bytes.
    pub fn facts(&self, asset: &str) -> Option<AssetFacts> {
        let known = self.known.read().unwrap_or_else(PoisonError::into_inner);
        known.get(asset).cloned()
    }

    /// Learns the facts of the asset at `asset` from its bytes.
    pub fn know(&self, asset: &str, facts: AssetFacts) {
        let mut known = self.known.write().unwrap_or_else(PoisonError::into_inner);
        known.insert(asset.to_owned(), facts);
    }

    /// What the page at `page`, rendered just now, asked for before the
    /// build knew its facts, taken: the page shows a placeholder for each,
    /// and must render again once the build knows them.
    pub fn take_missed(&self, page: &str) -> Vec<String> {
        let mut missed = self.missed.lock().unwrap_or_else(PoisonError::into_inner);
        missed.remove(page).into_iter().flatten().collect()
    }

    /// The fingerprint of the page at `page`, rendered just now, made from
    /// `fingerprint` (its plan's) and the assets its templates asked for.
    pub fn fingerprint_of(&self, page: &str, fingerprint: String) -> String {
        let asked = self.asked.lock().unwrap_or_else(PoisonError::into_inner);
        let Some(asks) = asked.get(page) else {
            let own = own_fingerprint(&fingerprint);
            return match own.len() == fingerprint.len() {
                true => fingerprint,
                false => own.to_owned(),
            };
        };
        let known = self.known.read().unwrap_or_else(PoisonError::into_inner);
        with_assets(&fingerprint, asks.iter().map(String::as_str), |asset| {
            known.get(asset).map(|facts| facts.sha256.as_str())
        })
    }

    /// What the pages rendered asked for, taken.
    pub fn take_asked(&self) -> AssetUses {
        std::mem::take(&mut *self.asked.lock().unwrap_or_else(PoisonError::into_inner))
    }

    /// `asset_url(path)`: the twin's URL (what the value prints as, and
    /// its `url`), its `integrity`, and the asset's own `path`.
    pub fn call(&self, path: &str) -> Result<Value, TemplateError> {
        let asset = path.trim_start_matches('/');
        if !self.names(asset) {
            return Err(self.unknown(path));
        }
        let page = super::rendering_page();
        if let Some(page) = &page {
            if self.site_files.contains(page) && self.site_files.contains(asset) {
                return Err(TemplateError::new(
                    ErrorKind::InvalidOperation,
                    format!(
                        "asset_url: {page} is made from a template, as `{asset}` is: its template may fingerprint the files of static/ and sass/, not another file made from a template"
                    ),
                ));
            }
            let mut asked = self.asked.lock().unwrap_or_else(PoisonError::into_inner);
            asked
                .entry(page.clone())
                .or_default()
                .insert(asset.to_owned());
        }
        let (url, integrity) = match self.facts(asset) {
            Some(facts) => (
                format!("{}/{}", self.base_path, facts.twin(asset)),
                facts.integrity,
            ),
            // Not known yet, the page renders again once it is: what it
            // shows this time is never written.
            None => {
                if let Some(page) = page {
                    let mut missed = self.missed.lock().unwrap_or_else(PoisonError::into_inner);
                    missed.entry(page).or_default().insert(asset.to_owned());
                }
                (format!("{}/{asset}", self.base_path), String::new())
            }
        };
        Ok(Value::from_object(Asset {
            url,
            integrity,
            path: asset.to_owned(),
        }))
    }

    fn unknown(&self, path: &str) -> TemplateError {
        let asset = path.trim_start_matches('/');
        let near = (self.names.iter())
            .min_by_key(|name| strsim::levenshtein(name, asset))
            .filter(|name| strsim::levenshtein(name, asset) <= 3);
        let hint = match near {
            Some(name) => format!("; did you mean \"{name}\"?"),
            None => String::new(),
        };
        TemplateError::new(
            ErrorKind::InvalidOperation,
            format!(
                "asset_url: the site writes no file `{asset}` from static/, sass/ or the theme's site files (give its path in the output folder){hint}"
            ),
        )
    }
}

/// What `asset_url` gives: prints as its URL.
#[derive(Debug)]
struct Asset {
    url: String,
    integrity: String,
    path: String,
}

impl Object for Asset {
    fn get_value(self: &Arc<Self>, key: &Value) -> Option<Value> {
        match key.as_str()? {
            "url" => Some(Value::from(self.url.as_str())),
            "integrity" => Some(Value::from(self.integrity.as_str())),
            "path" => Some(Value::from(self.path.as_str())),
            _ => None,
        }
    }

    fn enumerate(self: &Arc<Self>) -> Enumerator {
        Enumerator::Str(&["url", "integrity", "path"])
    }

    fn render(self: &Arc<Self>, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.url)
    }
}
