//! The `images` table: what folio measured of each image file a document
//! shows, by its path and at its stat.

use super::*;

use crate::source::config::ImageFormat;
use crate::source::image::{Facts, Measured};

/// What one build changes in the table: the images it measured again, and
/// those no document shows any more.
#[derive(Debug, Default)]
pub struct ImageRows<'a> {
    pub measured: Vec<(&'a str, &'a Measured)>,
    pub forgotten: Vec<&'a str>,
}

pub(super) fn read_images(conn: &Connection) -> rusqlite::Result<FxHashMap<String, Measured>> {
    let mut stmt =
        conn.prepare("SELECT path, size, mtime_ns, hash, width, height, format FROM images")?;
    stmt.query_map([], |row| {
        let format = str_ref(row, 6)?;
        let measured = Measured {
            stat: Stat {
                size: row.get::<_, i64>(1)? as u64,
                mtime_ns: row.get(2)?,
            },
            facts: Facts {
                hash: text(row, 3)?,
                width: row.get(4)?,
                height: row.get(5)?,
                format: ImageFormat::parse(format).ok_or_else(|| corrupt(6, "format"))?,
            },
        };
        Ok((text(row, 0)?, measured))
    })?
    .collect()
}

pub(super) fn apply_images(tx: &Transaction<'_>, rows: &ImageRows<'_>) -> rusqlite::Result<()> {
    let mut forget = tx.prepare_cached("DELETE FROM images WHERE path = ?1")?;
    for path in &rows.forgotten {
        forget.execute([path])?;
    }
    let mut put = tx.prepare_cached(
        "INSERT INTO images (path, size, mtime_ns, hash, width, height, format)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
         ON CONFLICT (path) DO UPDATE SET size = excluded.size, mtime_ns = excluded.mtime_ns,
             hash = excluded.hash, width = excluded.width, height = excluded.height,
             format = excluded.format",
    )?;
    for (path, measured) in &rows.measured {
        let Measured { stat, facts } = measured;
        put.execute(params![
            path,
            stat.size as i64,
            stat.mtime_ns,
            facts.hash,
            facts.width,
            facts.height,
            facts.format.name(),
        ])?;
    }
    Ok(())
}
