//! `folio init` and `folio new post`: a site or a post started, and what
//! was written printed.

use std::path::{Path, PathBuf};

use folio::{NewPost, Site};

use super::now_ms;

pub(crate) fn init(dir: &Path) -> Result<(), folio::Error> {
    for file in Site::init(dir, now_ms()?)? {
        out!("wrote {}", dir.join(file).display());
    }
    out!(
        "build it with `folio build --root {}`, or preview it with `folio serve`",
        dir.display()
    );
    Ok(())
}

pub(crate) fn new_post(root: PathBuf, post: &NewPost<'_>) -> Result<(), folio::Error> {
    let site = Site::open(&root)?;
    let file = site.new_post(post, now_ms()?)?;
    out!(
        "wrote {} (a draft: `draft: true` keeps it out of builds until you remove it)",
        root.join(file).display()
    );
    Ok(())
}
