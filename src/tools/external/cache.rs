//! The links out of the site that a check found alive, and when: the
//! state folder's `links.json`. Only links found alive are kept: a broken
//! link, or one that could not be told (429, a timeout), is asked again at
//! every check, so a link mended at its end stops failing at once.
//!
//! It is a cache: a file that cannot be read as one (damaged, or written by
//! another version of folio) is taken for an empty one, and every link is
//! asked again.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::model::error::Error;
use crate::store::state::StateDir;

/// Its file in the state folder.
const FILE: &str = "links.json";

/// The shape of the file; another is read as an empty cache.
const VERSION: u32 = 1;

#[derive(Serialize, Deserialize)]
struct Stored {
    version: u32,
    /// URL (as the check asks for it) → when it answered, Unix ms.
    alive: BTreeMap<String, i64>,
}

/// The links found alive, each with the moment it was.
pub(super) struct Cache {
    alive: BTreeMap<String, i64>,
}

impl Cache {
    /// The cache of the state folder `state`; empty when it has none.
    pub(super) fn read(state: &StateDir) -> Result<Cache, Error> {
        let alive = state
            .read(FILE)?
            .and_then(|bytes| serde_json::from_slice::<Stored>(&bytes).ok())
            .filter(|stored| stored.version == VERSION)
            .map(|stored| stored.alive)
            .unwrap_or_default();
        Ok(Cache { alive })
    }

    /// When a check found `url` alive.
    pub(super) fn checked_at(&self, url: &str) -> Option<i64> {
        self.alive.get(url).copied()
    }

    /// Whether a check found `url` alive within `fresh_for` ms before
    /// `now` (a moment after `now`, from a clock set back since, is not
    /// trusted).
    pub(super) fn alive_at(&self, url: &str, now: i64, fresh_for: i64) -> bool {
        self.checked_at(url)
            .is_some_and(|at| (0..fresh_for).contains(&(now - at)))
    }

    /// Puts `alive` (URL → when it answered) in place of the state
    /// folder's cache: the links of the site now, not those it dropped.
    pub(super) fn write(state: &StateDir, alive: BTreeMap<String, i64>) -> Result<(), Error> {
        let stored = Stored {
            version: VERSION,
            alive,
        };
        let mut bytes =
            serde_json::to_vec_pretty(&stored).expect("a map of strings to numbers serializes");
        bytes.push(b'\n');
        state.replace(FILE, &bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_answer_is_trusted_for_its_time_and_a_damaged_cache_is_empty() {
        let dir = tempfile::tempdir().unwrap();
        let state = StateDir::open(dir.path()).unwrap();
        assert!(Cache::read(&state).unwrap().alive.is_empty());
        let url = "https://example.org/";
        Cache::write(&state, BTreeMap::from([(url.to_owned(), 1_000)])).unwrap();
        let cache = Cache::read(&state).unwrap();
        assert!(cache.alive_at(url, 1_000, 100));
        assert!(cache.alive_at(url, 1_099, 100));
        assert!(!cache.alive_at(url, 1_100, 100), "expired");
        assert!(!cache.alive_at(url, 999, 100), "from the future");
        assert!(!cache.alive_at("https://example.org/other", 1_000, 100));
        std::fs::write(dir.path().join(FILE), "{\"version\": 1, \"alive\": ").unwrap();
        assert!(Cache::read(&state).unwrap().alive.is_empty());
    }
}
