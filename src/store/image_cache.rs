//! The variants of images folio made, each in a file named by its key
//! (`.folio/images/KEY.EXT`, the key a hash of the image's bytes, the
//! variant and the encoders): no build, and no `folio serve`, makes a
//! variant again while its file is here. Opened, read and written like
//! the rest of the state folder, never through a link.

use std::path::Path;

use rustc_hash::FxHashSet;

use crate::model::doc::nanos_since_epoch;
use crate::model::error::Error;
use crate::store::state::StateDir;

/// The cache's folder in the state folder.
pub const IMAGES_DIR: &str = "images";

pub(crate) struct ImageCache(StateDir);

impl ImageCache {
    /// The cache of the state folder at `state_dir`, made when absent.
    pub(crate) fn open(state_dir: &Path) -> Result<ImageCache, Error> {
        StateDir::open(&state_dir.join(IMAGES_DIR)).map(ImageCache)
    }

    /// The bytes of the variant `name` (`KEY.EXT`), when made before.
    pub(crate) fn get(&self, name: &str) -> Result<Option<Vec<u8>>, Error> {
        self.0.read(name)
    }

    /// Keeps `bytes` as the variant `name`, in one rename.
    pub(crate) fn put(&self, name: &str, bytes: &[u8]) -> Result<(), Error> {
        self.0.replace(name, bytes)
    }

    /// Deletes the variants not among `kept` that were made before
    /// `before_ns` (the file system's clock): a variant no page has shown
    /// for a month. Those of another output folder, or of `folio serve`'s
    /// drafts, made within the month, stay. How many went.
    pub(crate) fn prune(&self, kept: &FxHashSet<String>, before_ns: i64) -> Result<usize, Error> {
        let folder = self.0.path();
        let entries = std::fs::read_dir(folder).map_err(|e| Error::io(folder, e))?;
        let mut pruned = 0;
        for entry in entries.flatten() {
            let name = entry.file_name();
            let Some(name) = name.to_str() else { continue };
            if kept.contains(name) || name.starts_with('.') {
                continue;
            }
            // Not followed: a link is no variant of folio's, and stays.
            let Ok(meta) = entry.metadata() else { continue };
            let made = meta.modified().map(nanos_since_epoch).unwrap_or(i64::MAX);
            if meta.is_file() && made < before_ns && std::fs::remove_file(entry.path()).is_ok() {
                pruned += 1;
            }
        }
        Ok(pruned)
    }
}
