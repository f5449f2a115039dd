//! The index's schema and the migrations from each older version.

/// Bumped whenever the schema changes; older indexes are migrated, newer
/// ones refused.
pub const SCHEMA_VERSION: i64 = 14;

/// What brings an index of version `n` (0: a new file) to the next, at `n`:
/// an index of version `n` runs those from `n` on.
pub(super) const MIGRATIONS: [&str; SCHEMA_VERSION as usize] = [
    SCHEMA_V1,
    MIGRATE_V1_TO_V2,
    MIGRATE_V2_TO_V3,
    MIGRATE_V3_TO_V4,
    MIGRATE_V4_TO_V5,
    MIGRATE_V5_TO_V6,
    MIGRATE_V6_TO_V7,
    MIGRATE_V7_TO_V8,
    MIGRATE_V8_TO_V9,
    MIGRATE_V9_TO_V10,
    MIGRATE_V10_TO_V11,
    MIGRATE_V11_TO_V12,
    MIGRATE_V12_TO_V13,
    MIGRATE_V13_TO_V14,
];

pub(super) const SCHEMA_V1: &str = "
CREATE TABLE posts (
    id              TEXT PRIMARY KEY,
    kind            TEXT NOT NULL CHECK (kind IN ('post', 'page')),
    slug            TEXT NOT NULL,
    lang            TEXT NOT NULL,
    published_at    INTEGER NOT NULL,
    updated_at      INTEGER,
    source_path     TEXT NOT NULL UNIQUE,
    source_hash     TEXT NOT NULL,
    source_size     INTEGER NOT NULL,
    source_mtime_ns INTEGER NOT NULL,
    title           TEXT NOT NULL,
    url             TEXT NOT NULL,
    summary         TEXT NOT NULL,
    description     TEXT,
    tags            TEXT NOT NULL,
    draft           INTEGER NOT NULL,
    translation_key TEXT NOT NULL,
    UNIQUE (slug, lang)
);
CREATE TABLE outputs (
    path        TEXT PRIMARY KEY,
    hash        TEXT,
    fingerprint TEXT,
    size        INTEGER,
    mtime_ns    INTEGER
);
CREATE TABLE meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
";

/// Version 2 keys outputs by their folder too: a build into another folder
/// (`--out`) keeps the rows of the folder it does not touch, so coming back
/// finds its files still folio's. The rows of a version 1 index belong to the
/// folder its last build wrote to.
const MIGRATE_V1_TO_V2: &str = "
CREATE TABLE outputs_v2 (
    dir         TEXT NOT NULL,
    path        TEXT NOT NULL,
    hash        TEXT,
    fingerprint TEXT,
    size        INTEGER,
    mtime_ns    INTEGER,
    PRIMARY KEY (dir, path)
);
INSERT INTO outputs_v2 (dir, path, hash, fingerprint, size, mtime_ns)
    SELECT COALESCE((SELECT value FROM meta WHERE key = 'output_dir'), ''),
           path, hash, fingerprint, size, mtime_ns
    FROM outputs;
DROP TABLE outputs;
ALTER TABLE outputs_v2 RENAME TO outputs;
";

/// Version 3 records which Markdown transform plugins changed a document's
/// body (a JSON list), since its pages' fingerprints name them.
const MIGRATE_V2_TO_V3: &str = "
ALTER TABLE posts ADD COLUMN plugins TEXT NOT NULL DEFAULT '[]';
";

/// Version 4 keeps the front matter fields folio does not read (a JSON
/// object), which templates and list pages show.
const MIGRATE_V3_TO_V4: &str = "
ALTER TABLE posts ADD COLUMN extra TEXT NOT NULL DEFAULT '{}';
";

/// Version 5 keeps a document's old URLs (a JSON list of paths) and the
/// template its front matter asks for (`template:NAME` or `layout:NAME`).
const MIGRATE_V4_TO_V5: &str = "
ALTER TABLE posts ADD COLUMN aliases TEXT NOT NULL DEFAULT '[]';
ALTER TABLE posts ADD COLUMN template TEXT;
";

/// Version 6 remembers that a post was published, once and for all: a
/// post made a draft again keeps its id guarded. What older indexes know is
/// whether it is published now.
const MIGRATE_V5_TO_V6: &str = "
ALTER TABLE posts ADD COLUMN ever_published INTEGER NOT NULL DEFAULT 0;
UPDATE posts SET ever_published = NOT draft;
";

/// Version 7 keeps what a body holds besides its HTML: its word count and
/// reading time, its headings (a JSON list) and its `@/` links (a JSON
/// list). Older rows never had them read: forgetting the content settings
/// has the next build read every source again.
const MIGRATE_V6_TO_V7: &str = "
ALTER TABLE posts ADD COLUMN word_count INTEGER NOT NULL DEFAULT 0;
ALTER TABLE posts ADD COLUMN reading_time INTEGER NOT NULL DEFAULT 1;
ALTER TABLE posts ADD COLUMN headings TEXT NOT NULL DEFAULT '[]';
ALTER TABLE posts ADD COLUMN links TEXT NOT NULL DEFAULT '[]';
DELETE FROM meta WHERE key = 'content_settings';
";

/// Version 8 keeps which shortcodes a body calls (a JSON list of names),
/// whose templates are in the fingerprints of the pages that show it; older
/// rows never had them read.
const MIGRATE_V7_TO_V8: &str = "
ALTER TABLE posts ADD COLUMN shortcodes TEXT NOT NULL DEFAULT '[]';
DELETE FROM meta WHERE key = 'content_settings';
";

/// Version 9 keeps when a document stops being published (`expires`, Unix
/// milliseconds). Older rows kept the field among those folio did not
/// read: forgetting the content settings has every source read again.
const MIGRATE_V8_TO_V9: &str = "
ALTER TABLE posts ADD COLUMN expires_at INTEGER;
DELETE FROM meta WHERE key = 'content_settings';
";

/// Version 10 keeps a document's terms of the taxonomies other than tags
/// (a JSON list of `[taxonomy, [terms]]`). Older rows kept those fields
/// among the ones folio did not read: forgetting the content settings has
/// every source read again.
const MIGRATE_V9_TO_V10: &str = "
ALTER TABLE posts ADD COLUMN terms TEXT NOT NULL DEFAULT '[]';
DELETE FROM meta WHERE key = 'content_settings';
";

/// Version 11 keeps a document's `weight`, by which a section may order its
/// list. Older rows kept the field among those folio did not read:
/// forgetting the content settings has every source read again.
const MIGRATE_V10_TO_V11: &str = "
ALTER TABLE posts ADD COLUMN weight INTEGER;
DELETE FROM meta WHERE key = 'content_settings';
";

/// Version 12 keeps the local images a document's body shows (a JSON list,
/// as written), and what folio measured of each image file it made
/// responsive (`[images]`): its content hash, its size once turned upright
/// and its format, by its path and stat, so that an unchanged image is not
/// opened again. Older rows never had their images read: forgetting the
/// content settings has every source read again.
const MIGRATE_V11_TO_V12: &str = "
ALTER TABLE posts ADD COLUMN images TEXT NOT NULL DEFAULT '[]';
CREATE TABLE images (
    path     TEXT PRIMARY KEY,
    size     INTEGER NOT NULL,
    mtime_ns INTEGER NOT NULL,
    hash     TEXT NOT NULL,
    width    INTEGER NOT NULL,
    height   INTEGER NOT NULL,
    format   TEXT NOT NULL
);
DELETE FROM meta WHERE key = 'content_settings';
";

/// Version 13 keeps, beside each page's output, which page it is and the
/// documents its fingerprint covers (`page`, `covers`): a one-off build
/// whose documents changed alone finds the pages that show them by these.
/// Older rows have none: the next build that plans keeps every page's.
const MIGRATE_V12_TO_V13: &str = "
ALTER TABLE outputs ADD COLUMN page TEXT;
ALTER TABLE outputs ADD COLUMN covers BLOB;
";

/// Version 14 keeps the documents' arrangement (`crate::plan::Arrangement`),
/// encoded: at most one row, which answers the inputs the `arrangement` row
/// of `meta` names (apart, so that a build that keeps it as it is writes
/// a few bytes rather than the whole of it again).
const MIGRATE_V13_TO_V14: &str = "
CREATE TABLE arrangement (state BLOB NOT NULL);
";
