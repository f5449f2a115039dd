//! The variants of images folio made, each in a file named by its key
//! (`.folio/images/KEY.EXT`, the key a hash of the image's bytes, the
//! variant and the encoders): no build, and no `folio serve`, makes a
//! variant again while its file is here. Opened, read and written like
//! the rest of the state folder, never through a link.

use std::path::Path;

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
}
