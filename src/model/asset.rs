//! Fingerprinted assets (`asset_url`): a file of the site (a static file, a
//! compiled sheet, a site file of the theme such as `style.css`) is also
//! written under a name holding a hash of its bytes, its *twin*, which a
//! browser may cache forever. A page's fingerprint ends with the assets it
//! asked for and their hashes, so its output row says what it asked for
//! when it last rendered: the index keeps no list per page, only the facts
//! of the assets some page names.

use std::collections::{BTreeMap, BTreeSet};

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256, Sha384};

use crate::model::hash::hex;

/// Where a page's fingerprint gives the assets it asked for: what comes
/// before it is the page's own.
const MARK: &str = " assets ";

/// How a twin's fingerprint starts: what tells the index's rows of twins,
/// made and pruned once the pages that name them have rendered, from the
/// plan's outputs.
const TWIN: &str = "twin ";

/// How many hex digits of the SHA-256 of its bytes a twin's name holds:
/// 80 bits, beyond any accidental collision between two versions of one
/// file.
const NAME_HASH_LEN: usize = 20;

/// What one version of an asset is, taken from its bytes as written.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AssetFacts {
    /// The fingerprint of the asset's output when its bytes were taken:
    /// these facts hold while the plan gives it this fingerprint.
    pub fingerprint: String,
    /// The hex SHA-256 of its bytes.
    pub sha256: String,
    /// Its Subresource Integrity value: `sha384-` and the base64 SHA-384
    /// of its bytes, what browsers check a fetched file against.
    pub integrity: String,
}

impl AssetFacts {
    /// Those of `bytes`, written with `fingerprint`.
    pub fn of(bytes: &[u8], fingerprint: &str) -> AssetFacts {
        AssetFacts {
            fingerprint: fingerprint.to_owned(),
            sha256: hex(&Sha256::digest(bytes)),
            integrity: format!("sha384-{}", STANDARD.encode(Sha384::digest(bytes))),
        }
    }

    /// The path of the twin of the asset at `output`: its hash before the
    /// last extension of its name (`css/main.css` → `css/main.<hash>.css`),
    /// or after a name without one.
    pub fn twin(&self, output: &str) -> String {
        let hash = &self.sha256[..NAME_HASH_LEN.min(self.sha256.len())];
        let name_at = output.rfind('/').map_or(0, |slash| slash + 1);
        match output[name_at..].rfind('.').filter(|&dot| dot > 0) {
            Some(dot) => {
                let (stem, extension) = output.split_at(name_at + dot);
                format!("{stem}.{hash}{extension}")
            }
            None => format!("{output}.{hash}"),
        }
    }

    /// The fingerprint of the twin of the asset at `output`.
    pub fn twin_fingerprint(&self, output: &str) -> String {
        format!("{TWIN}{output} {}", self.sha256)
    }
}

/// Whether an output row with `fingerprint` is a twin's.
pub fn is_twin(fingerprint: Option<&str>) -> bool {
    fingerprint.is_some_and(|fingerprint| fingerprint.starts_with(TWIN))
}

/// Per page (by output), the assets its templates asked for (by output).
pub type AssetUses = BTreeMap<String, BTreeSet<String>>;

/// The facts of the assets some page names, by output: what the index
/// keeps of them.
pub type KeptFacts = BTreeMap<String, AssetFacts>;

/// The facts a JSON text holds; none for an index that kept none (or one a
/// version of folio wrote differently: every page naming an asset renders
/// again, and the next build keeps them anew).
pub fn facts_from_json(json: Option<&str>) -> KeptFacts {
    json.and_then(|json| serde_json::from_str(json).ok())
        .unwrap_or_default()
}

pub fn facts_json(facts: &KeptFacts) -> String {
    serde_json::to_string(facts).unwrap_or_default()
}

/// `fingerprint` of a page (the part before any assets, its own) followed
/// by the assets it asks for (`asks`, in order), each with the hash of its
/// bytes as `sha256_of` gives it, or `?` where the build does not know it
/// yet: the page then renders, and learns it. Each asset is written with
/// its length first (`9:style.css=…`), so that any name reads back.
pub fn with_assets<'a, 'f>(
    fingerprint: &str,
    asks: impl IntoIterator<Item = &'a str>,
    sha256_of: impl Fn(&str) -> Option<&'f str>,
) -> String {
    let own = own_fingerprint(fingerprint);
    let mut asks = asks.into_iter().peekable();
    if asks.peek().is_none() {
        return own.to_owned();
    }
    let mut with = String::with_capacity(own.len() + MARK.len() + 100);
    with.push_str(own);
    with.push_str(MARK);
    for asset in asks {
        let sha256 = sha256_of(asset).unwrap_or("?");
        with.push_str(&format!("{}:{asset}={sha256} ", asset.len()));
    }
    with
}

/// The assets a page whose fingerprint is `fingerprint` asked for, in the
/// order [`with_assets`] wrote them; none from a fingerprint it did not
/// write.
pub fn asks_in(fingerprint: &str) -> Vec<&str> {
    Asks::of(fingerprint).map(|(asset, _)| asset).collect()
}

/// Each asset a page's fingerprint gives, with the hash it was written
/// with (`?` where the build did not know it).
pub struct Asks<'f>(&'f str);

impl<'f> Asks<'f> {
    pub fn of(fingerprint: &'f str) -> Asks<'f> {
        Asks(fingerprint.split_once(MARK).map_or("", |(_, part)| part))
    }
}

impl<'f> Iterator for Asks<'f> {
    type Item = (&'f str, &'f str);

    fn next(&mut self) -> Option<Self::Item> {
        let (len, after) = self.0.split_once(':')?;
        let asset = len.parse().ok().and_then(|len: usize| after.get(..len));
        let entry = asset.and_then(|asset| {
            let (sha256, next) = after[asset.len()..].strip_prefix('=')?.split_once(' ')?;
            Some((asset, sha256, next))
        });
        let Some((asset, sha256, next)) = entry else {
            self.0 = "";
            return None;
        };
        self.0 = next;
        Some((asset, sha256))
    }
}

/// Whether a page fingerprinted `old`, now `new`, moved only in the
/// assets it asks for: only their names changed in it.
pub fn only_assets_moved(old: &str, new: &str) -> bool {
    old != new && own_fingerprint(old) == own_fingerprint(new) && new.contains(MARK)
}

/// The end of a page's fingerprint that gives the assets it asked for, if
/// it asked for any: what [`with_assets`] adds to its own part.
pub fn assets_part(fingerprint: &str) -> Option<&str> {
    fingerprint.find(MARK).map(|at| &fingerprint[at..])
}

/// The part of a page's fingerprint before the assets it asked for.
pub fn own_fingerprint(fingerprint: &str) -> &str {
    fingerprint
        .split_once(MARK)
        .map_or(fingerprint, |(own, _)| own)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_twin_holds_the_hash_before_the_last_extension() {
        let facts = AssetFacts::of(b"p { color: red }", "spec");
        let hash = &facts.sha256[..20];
        assert_eq!(facts.twin("style.css"), format!("style.{hash}.css"));
        assert_eq!(facts.twin("css/a.min.js"), format!("css/a.min.{hash}.js"));
        assert_eq!(facts.twin("v1.2/LICENSE"), format!("v1.2/LICENSE.{hash}"));
        assert_eq!(facts.twin(".nojekyll"), format!(".nojekyll.{hash}"));
    }

    #[test]
    fn the_integrity_is_the_base64_sha384_of_the_bytes() {
        // `printf 'alert(1)' | openssl dgst -sha384 -binary | base64`
        let facts = AssetFacts::of(b"alert(1)", "");
        assert_eq!(
            facts.integrity,
            "sha384-HT2E9NfWiuQ/w1PRai+hTyqW16NIoCGA/m8VQDUopfAtcz6YQjtsMmQd5uRbVDpW"
        );
        assert_eq!(facts.sha256, crate::model::hash::source_hash(b"alert(1)"));
    }

    #[test]
    fn a_page_fingerprint_gives_its_assets_after_its_own_part() {
        let asks = ["a.css", "b.js"];
        let known = |asset: &str| (asset == "a.css").then_some("aaa");
        let with = with_assets("own", asks, known);
        assert_eq!(with, "own assets 5:a.css=aaa 4:b.js=? ");
        assert_eq!(own_fingerprint(&with), "own");
        assert_eq!(asks_in(&with), asks);
        let part = assets_part(&with).unwrap();
        assert_eq!(with_assets("", asks_in(part), known), part);
        assert_eq!(assets_part("own"), None);
        // Asked again, the part is made anew, not added to.
        assert_eq!(with_assets(&with, asks, known), with);
        assert_eq!(with_assets(&with, [], known), "own");
        // Any name reads back, spaces and `=` in it too.
        let odd = ["a b=c.css", "d:e.js"];
        assert_eq!(asks_in(&with_assets("own", odd, |_| Some("f"))), odd);
        assert!(asks_in("own").is_empty() && asks_in("own assets 99:x=? ").is_empty());
        assert!(is_twin(Some(
            &AssetFacts::of(b"", "").twin_fingerprint("a.css")
        )));
        assert!(!is_twin(Some("static 1 2")) && !is_twin(None));
        let other = with_assets("own", asks, |_| Some("bbb"));
        assert!(only_assets_moved(&with, &other));
        assert!(!only_assets_moved(&with, &with));
        assert!(!only_assets_moved(
            &with,
            &with_assets("other", asks, known)
        ));
        assert!(!only_assets_moved("own", "own"));
    }
}
