//! The tables `folio publish` owns in the database, and every statement it
//! sends. The schema's name is the site's (`[publish] schema`), checked by
//! the config to be a plain identifier; it is quoted all the same.

/// The schema version this folio writes: the last migration's.
pub(crate) const VERSION: i32 = MIGRATIONS.len() as i32;

/// Each migration, in order; the first creates the tables. One that is out
/// is never edited: a change is a new one.
const MIGRATIONS: &[(&str, &str)] = &[(
    "posts: one row per published document",
    "CREATE TABLE {schema}.posts (
        id text PRIMARY KEY CHECK (length(id) = 26),
        kind text NOT NULL CHECK (kind IN ('post', 'page')),
        slug text NOT NULL,
        lang text NOT NULL,
        published_at timestamptz,
        updated_at timestamptz,
        title text NOT NULL,
        url text NOT NULL,
        description text,
        summary text NOT NULL,
        body text NOT NULL,
        tags text[] NOT NULL,
        translation_key text NOT NULL,
        extra jsonb NOT NULL,
        source_hash text NOT NULL,
        -- Checked at the end of each statement: two publishes that insert
        -- the same new row at once meet at the id, where ON CONFLICT
        -- resolves it, instead of failing here first.
        UNIQUE (slug, lang) DEFERRABLE INITIALLY IMMEDIATE
    )",
)];

/// A key of PostgreSQL's advisory locks, so that two folio publishes that
/// both find the schema missing create it one after the other.
const MIGRATION_LOCK: i64 = 0x666f_6c69_6f00; // "folio\0"

/// `name` quoted as an identifier.
fn quoted(name: &str) -> String {
    format!("\"{}\"", name.replace('"', "\"\""))
}

/// The schema version the database is at: one round trip. Fails with
/// `3F000` or `42P01` when folio never published there.
pub(crate) fn read_version(schema: &str) -> String {
    format!(
        "SELECT coalesce(max(version), 0) FROM {}.schema_migrations",
        quoted(schema)
    )
}

/// One statement that brings the schema to [`VERSION`], whatever version it
/// is at: under the advisory lock, each migration not yet recorded is
/// applied and recorded, in one transaction. Sent again after a lost
/// acknowledgement it finds every migration recorded and does nothing.
pub(crate) fn migrate(schema: &str) -> String {
    let schema = quoted(schema);
    let mut steps = String::new();
    for (version, (description, sql)) in (1..).zip(MIGRATIONS) {
        steps.push_str(&format!(
            "IF NOT EXISTS (SELECT 1 FROM {schema}.schema_migrations WHERE version = {version}) THEN\n\
             {};\n\
             INSERT INTO {schema}.schema_migrations (version, description) VALUES ({version}, '{}');\n\
             END IF;\n",
            sql.replace("{schema}", &schema),
            description.replace('\'', "''"),
        ));
    }
    format!(
        "DO $folio$ BEGIN\n\
         PERFORM pg_advisory_xact_lock({MIGRATION_LOCK});\n\
         CREATE SCHEMA IF NOT EXISTS {schema};\n\
         CREATE TABLE IF NOT EXISTS {schema}.schema_migrations (version integer PRIMARY KEY, description text NOT NULL);\n\
         {steps}\
         END $folio$"
    )
}

/// What the guard and the skip need of every row: one round trip.
pub(crate) fn read_rows(schema: &str) -> String {
    format!(
        "SELECT id, slug, lang, source_hash FROM {}.posts",
        quoted(schema)
    )
}

/// The columns a row is sent with, in the order of [`upsert`]'s parameters.
pub(crate) const COLUMNS: [&str; 15] = [
    "id",
    "kind",
    "slug",
    "lang",
    "published_at",
    "updated_at",
    "title",
    "url",
    "description",
    "summary",
    "body",
    "tags",
    "translation_key",
    "extra",
    "source_hash",
];

/// Writes a batch of rows in one statement, each column an array
/// parameter (a time as Unix milliseconds, made a timestamp from whole
/// seconds and the milliseconds apart, so that no float rounds it): a row
/// is inserted, or overwritten when its id is there with another
/// `source_hash`; one whose hash is the same is not touched (no new
/// row version, no trigger, no replication traffic). Returns the ids it
/// wrote. Sent again after a lost acknowledgement, it writes nothing.
pub(crate) fn upsert(schema: &str) -> String {
    let columns = COLUMNS.join(", ");
    let updates: Vec<String> = COLUMNS[1..]
        .iter()
        .map(|c| format!("{c} = excluded.{c}"))
        .collect();
    format!(
        "INSERT INTO {schema}.posts AS posts ({columns})
         SELECT id, kind, slug, lang,
                to_timestamp(published_ms / 1000) + (published_ms % 1000) * interval '1 millisecond',
                to_timestamp(updated_ms / 1000) + (updated_ms % 1000) * interval '1 millisecond',
                title, url, description, summary, body,
                ARRAY(SELECT jsonb_array_elements_text(tags::jsonb)),
                translation_key, extra::jsonb, source_hash
         FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::int8[], $6::int8[],
                     $7::text[], $8::text[], $9::text[], $10::text[], $11::text[], $12::text[],
                     $13::text[], $14::text[], $15::text[])
              AS batch(id, kind, slug, lang, published_ms, updated_ms, title, url, description,
                       summary, body, tags, translation_key, extra, source_hash)
         ON CONFLICT (id) DO UPDATE SET {}
         WHERE posts.source_hash IS DISTINCT FROM excluded.source_hash
         RETURNING id",
        updates.join(", "),
        schema = quoted(schema),
    )
}

/// Deletes rows by id; sent again, it finds none.
pub(crate) fn delete(schema: &str) -> String {
    format!(
        "DELETE FROM {}.posts WHERE id = ANY($1::text[]) RETURNING id",
        quoted(schema)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_migration_is_guarded_by_its_version_and_recorded() {
        let sql = migrate("blog");
        assert!(sql.contains("CREATE TABLE \"blog\".posts"));
        assert!(sql.contains("WHERE version = 1) THEN"));
        assert!(sql.contains("VALUES (1, 'posts: one row per published document')"));
        assert_eq!(VERSION, 1);
    }

    #[test]
    fn the_upsert_skips_a_row_whose_hash_is_stored() {
        let sql = upsert("folio");
        assert!(sql.contains("ON CONFLICT (id) DO UPDATE"));
        assert!(sql.contains("WHERE posts.source_hash IS DISTINCT FROM excluded.source_hash"));
        // Every column but the key is overwritten.
        assert!(!sql.contains("id = excluded.id"));
        assert!(sql.contains("source_hash = excluded.source_hash"));
    }
}
