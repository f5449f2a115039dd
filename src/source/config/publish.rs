//! The `[publish]` table: where `folio publish` writes. Its URL may hold a
//! password, which its `Debug` never shows.

use serde::Deserialize;

/// The `[publish]` table: where `folio publish` writes.
#[derive(Clone, Default, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
#[non_exhaustive]
pub struct Publish {
    /// The PostgreSQL URL; `--database` and `DATABASE_URL` come first. A
    /// password is better kept out of a file under version control: put it
    /// in `PGPASSWORD`.
    pub database: Option<String>,
    /// The PostgreSQL schema folio's tables are in; `folio` when absent. A
    /// site owns its schema: a post removed from the site is deleted from
    /// it, so two sites sharing a database need a schema each.
    pub schema: Option<String>,
}

impl std::fmt::Debug for Publish {
    // The URL may hold a password: whether there is one is all it shows.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Publish")
            .field("database", &self.database.as_ref().map(|_| "…"))
            .field("schema", &self.schema)
            .finish()
    }
}

impl Publish {
    /// The schema folio publishes into.
    pub fn schema(&self) -> &str {
        self.schema.as_deref().unwrap_or("folio")
    }
}
