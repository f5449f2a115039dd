//! Reading sources: `site.toml`, the content layout and its walk, each
//! source's front matter and Markdown, and the invariants the documents
//! read must keep (one per slug and language, dates that never move), and
//! page bundles: a folder's `index.md` and the files beside it; the
//! stylesheets of `sass/`; the images of posts.

pub mod bundle;
pub mod config;
pub mod dates;
pub mod discover;
pub(crate) mod field_names;
pub(crate) mod fields;
pub(crate) mod front_matter;
pub mod highlight;
pub mod html;
pub mod identify;
pub mod image;
pub mod markdown;
pub mod math;
pub mod outline;
pub mod parse;
pub mod sass;
pub mod section;
pub mod shortcodes;
