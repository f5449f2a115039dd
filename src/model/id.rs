//! A document's permanent id (the rule and its test vectors are in
//! docs/ARCHITECTURE.md): a ULID whose time part is the publication date and
//! whose random part is a hash of slug and language.

use std::fmt;

use sha2::{Digest, Sha256};
use ulid::Ulid;
use unicode_normalization::UnicodeNormalization;

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
    /// The id of a [`crate::model::doc::Record::stub`], which no document
    /// is given: none is derived from the first moment of 1970 alone.
    pub(crate) const fn unknown() -> PostId {
        PostId(Ulid::nil())
    }

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
