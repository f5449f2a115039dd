//! The deterministic id of a document, and the invariants that guard it.
//!
//! Owns DESIGN.md's id rule (a ULID whose time part is the publication date and
//! whose random part is a hash of slug and language) and the checks that must
//! pass before anything is written: one document per (slug, lang), one document
//! per translation key and language, and the immutability of a post's date.

use std::collections::HashSet;
use std::fmt;
use std::path::PathBuf;

use rayon::prelude::*;
use rustc_hash::FxHashMap;
use sha2::{Digest, Sha256};
use ulid::Ulid;
use unicode_normalization::UnicodeNormalization;

use crate::error::{Error, Problem, ProblemKind};
use crate::parse::{Parsed, Record};

/// The largest timestamp a ULID can hold: 48 bits of milliseconds.
const MAX_ULID_MS: i64 = (1 << 48) - 1;

/// A document's permanent id: 26 characters of Crockford base32 that sort by
/// publication time.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PostId(Ulid);

/// A date that a ULID cannot hold.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DateOutOfRange {
    pub millis: i64,
}

impl PostId {
    /// Derives the id of (slug, lang) published at `published_ms` (Unix
    /// milliseconds, UTC). The slug is NFC-normalized first so that the same
    /// post gets the same id whatever normalization its file system uses.
    pub fn derive(slug: &str, lang: &str, published_ms: i64) -> Result<PostId, DateOutOfRange> {
        if !(0..=MAX_ULID_MS).contains(&published_ms) {
            return Err(DateOutOfRange {
                millis: published_ms,
            });
        }
        let slug: String = slug.nfc().collect();
        let digest = Sha256::new()
            .chain_update(slug.as_bytes())
            .chain_update(b":")
            .chain_update(lang.as_bytes())
            .finalize();
        let random = digest[..10]
            .iter()
            .fold(0u128, |acc, &byte| (acc << 8) | u128::from(byte));
        Ok(PostId(Ulid::from_parts(published_ms as u64, random)))
    }

    /// The publication time the id carries, in Unix milliseconds.
    pub fn published_ms(&self) -> i64 {
        self.0.timestamp_ms() as i64
    }

    /// The same 128 bits as a UUID, for Atom entry ids (`urn:uuid:…`).
    pub fn to_uuid(&self) -> String {
        let hex: String = self
            .0
            .to_bytes()
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        format!(
            "{}-{}-{}-{}-{}",
            &hex[0..8],
            &hex[8..12],
            &hex[12..16],
            &hex[16..20],
            &hex[20..32]
        )
    }
}

impl fmt::Display for PostId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut buf = [0u8; ulid::ULID_LEN];
        f.write_str(self.0.array_to_str(&mut buf))
    }
}

impl std::str::FromStr for PostId {
    type Err = ulid::DecodeError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Ulid::from_string(s).map(PostId)
    }
}

/// A time-zone change the index has not seen yet: (old, new) names.
pub struct TimezoneChange<'a> {
    pub old: &'a str,
    pub new: &'a str,
}

/// What the checks decided about the stored rows.
#[derive(Debug, Default)]
pub struct Verdict {
    /// Stored rows that no current source claims any more, to delete.
    pub retired: Vec<PostId>,
}

/// Checks the invariants over the documents of this build: `unchanged` are the
/// stored rows whose sources were not read, `fresh` the sources parsed now,
/// `stored` every other row of the index before this build (an unchanged row
/// keeps its slot and its id, so it can neither be re-dated nor retired; a
/// fresh document that claims its slot is a duplicate of it).
pub fn check(
    fresh: &[Parsed],
    unchanged: &[Record],
    stored: &[Record],
    timezone_change: Option<TimezoneChange<'_>>,
    accept_date_changes: bool,
) -> Result<Verdict, Error> {
    let current: Vec<&Record> = unchanged
        .iter()
        .chain(fresh.iter().map(|p| &p.record))
        .collect();
    let mut problems = duplicates(&current);
    if !problems.is_empty() {
        problems.sort_by(|a, b| a.path.cmp(&b.path));
        return Err(Error::Content(problems));
    }

    let by_path: FxHashMap<&str, &Record> = current
        .iter()
        .map(|r| (r.source.path.as_str(), *r))
        .collect();
    let stored_by_slot: FxHashMap<(&str, &str), &Record> = stored
        .iter()
        .map(|r| ((r.slug.as_str(), r.lang.as_str()), r))
        .collect();

    let mut retired: HashSet<PostId> = HashSet::new();
    let mut moved_by_timezone: Vec<PathBuf> = Vec::new();
    for parsed in fresh {
        let new = &parsed.record;
        let Some(old) = stored_by_slot.get(&(new.slug.as_str(), new.lang.as_str())) else {
            continue;
        };
        if old.id == new.id {
            continue;
        }
        // The slot's previous owner is another file that now claims something
        // else: the slug was handed over, not re-dated.
        let handed_over = old.source.path != new.source.path
            && by_path
                .get(old.source.path.as_str())
                .is_some_and(|owner| owner.slug != new.slug || owner.lang != new.lang);
        if handed_over {
            continue;
        }
        if timezone_change.is_some() && parsed.date_is_local {
            moved_by_timezone.push(PathBuf::from(&new.source.path));
        } else if accept_date_changes {
            retired.insert(old.id);
        } else {
            problems.push(Problem::new(
                &new.source.path,
                parsed.date_line,
                ProblemKind::DateChanged {
                    slug: new.slug.clone(),
                    lang: new.lang.clone(),
                    old: format_ms(old.published_at),
                    new: format_ms(new.published_at),
                },
            ));
        }
    }
    if let Some(change) = timezone_change
        && !moved_by_timezone.is_empty()
    {
        moved_by_timezone.sort();
        return Err(Error::TimezoneMovedDates {
            old: change.old.to_owned(),
            new: change.new.to_owned(),
            files: moved_by_timezone,
        });
    }
    if !problems.is_empty() {
        problems.sort_by(|a, b| a.path.cmp(&b.path));
        return Err(Error::Content(problems));
    }

    for row in stored {
        let claimed = by_path
            .get(row.source.path.as_str())
            .is_some_and(|current| current.id == row.id);
        if !claimed {
            retired.insert(row.id);
        }
    }
    let mut retired: Vec<PostId> = retired.into_iter().collect();
    retired.sort();
    Ok(Verdict { retired })
}

/// One document per (slug, lang) and per (kind, translation key, lang).
fn duplicates(current: &[&Record]) -> Vec<Problem> {
    let mut problems = Vec::new();
    // Sorting and scanning runs of equal keys finds every clash without a
    // map entry per document; the first of each run (by path) is the one
    // the others are reported against.
    let mut by_slot = current.to_vec();
    by_slot.par_sort_unstable_by(|a, b| {
        (&a.slug, &a.lang, &a.source.path).cmp(&(&b.slug, &b.lang, &b.source.path))
    });
    for claimants in by_slot
        .chunk_by(|a, b| a.slug == b.slug && a.lang == b.lang)
        .filter(|c| c.len() > 1)
    {
        let first = claimants[0];
        for later in &claimants[1..] {
            problems.push(Problem::new(
                &later.source.path,
                None,
                ProblemKind::DuplicateSlug {
                    slug: later.slug.clone(),
                    lang: later.lang.clone(),
                    other: PathBuf::from(&first.source.path),
                },
            ));
        }
    }
    let mut by_key = by_slot;
    by_key.par_sort_unstable_by(|a, b| {
        (a.kind, &a.translation_key, &a.lang, &a.source.path).cmp(&(
            b.kind,
            &b.translation_key,
            &b.lang,
            &b.source.path,
        ))
    });
    for claimants in by_key
        .chunk_by(|a, b| {
            a.kind == b.kind && a.translation_key == b.translation_key && a.lang == b.lang
        })
        .filter(|c| c.len() > 1)
    {
        let first = claimants[0];
        // Two claimants of one slot are already reported above.
        for later in claimants[1..].iter().filter(|r| r.slug != first.slug) {
            problems.push(Problem::new(
                &later.source.path,
                None,
                ProblemKind::DuplicateTranslation {
                    key: later.translation_key.clone(),
                    lang: later.lang.clone(),
                    other: PathBuf::from(&first.source.path),
                },
            ));
        }
    }
    problems
}

/// A Unix-milliseconds date as RFC 3339 in UTC, for messages and templates.
pub fn format_ms(ms: i64) -> String {
    jiff::Timestamp::from_millisecond(ms)
        .map(|t| t.to_string())
        .unwrap_or_else(|_| format!("{ms} ms"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(rfc3339: &str) -> i64 {
        rfc3339.parse::<jiff::Timestamp>().unwrap().as_millisecond()
    }

    #[test]
    fn design_test_vectors() {
        let at = ms("2024-05-01T09:00:00Z");
        assert_eq!(
            PostId::derive("hello-world", "en", at).unwrap().to_string(),
            "01HWSP3MM02BC0VWVKC580KT23"
        );
        assert_eq!(
            PostId::derive("hello-world", "fr", at).unwrap().to_string(),
            "01HWSP3MM0WH8KC7X90Y5108NS"
        );
    }

    #[test]
    fn nfd_and_nfc_slugs_get_the_same_id() {
        let nfc = "caf\u{e9}";
        let nfd = "cafe\u{301}";
        assert_ne!(nfc, nfd);
        let at = ms("2024-05-01T09:00:00Z");
        assert_eq!(
            PostId::derive(nfc, "fr", at).unwrap(),
            PostId::derive(nfd, "fr", at).unwrap()
        );
    }

    #[test]
    fn id_sorts_by_date_and_round_trips() {
        let early = PostId::derive("b", "en", ms("2020-01-01T00:00:00Z")).unwrap();
        let late = PostId::derive("a", "en", ms("2021-01-01T00:00:00Z")).unwrap();
        assert!(early < late);
        assert!(early.to_string() < late.to_string());
        assert_eq!(early.to_string().parse::<PostId>().unwrap(), early);
        assert_eq!(late.published_ms(), ms("2021-01-01T00:00:00Z"));
    }

    #[test]
    fn dates_outside_the_ulid_range_are_refused() {
        assert!(PostId::derive("x", "en", -1).is_err());
        assert!(PostId::derive("x", "en", MAX_ULID_MS + 1).is_err());
        assert!(PostId::derive("x", "en", 0).is_ok());
        assert!(PostId::derive("x", "en", MAX_ULID_MS).is_ok());
    }

    #[test]
    fn uuid_form_carries_the_same_bits() {
        let id = PostId::derive("hello-world", "en", ms("2024-05-01T09:00:00Z")).unwrap();
        let uuid = id.to_uuid();
        assert_eq!(uuid.len(), 36);
        assert_eq!(uuid.replace('-', ""), format!("{:032x}", u128::from(id.0)));
    }
}
