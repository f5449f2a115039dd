//! folio: an incremental static-site generator for multilingual blogs.
//!
//! The engine is a library so that other build pipelines can embed it; the
//! `folio` binary is a thin command line over the same API.
//!
//! ```
//! use folio::{BuildOptions, Site};
//! # let dir = tempfile::tempdir().unwrap();
//! # let root = dir.path();
//! # std::fs::write(root.join("site.toml"), "title = \"Blog\"\nbase_url = \"https://example.org\"\ndefault_language = \"en\"\n\n[languages.en]\nname = \"English\"\n").unwrap();
//! # std::fs::create_dir_all(root.join("content/posts")).unwrap();
//! # std::fs::write(root.join("content/posts/hello.md"), "---\ntitle: Hello\ndate: 2025-05-01\n---\nFirst post.\n").unwrap();
//!
//! let site = Site::open(root)?;
//! // The library reads no clock: the caller says what time it is, which
//! // decides which posts are out yet.
//! let now_ms = 1_767_225_600_000;
//! let report = site.build(&BuildOptions::new(now_ms))?;
//! assert!(report.written.iter().any(|page| page == "posts/hello/index.html"));
//!
//! // Nothing changed: nothing is written.
//! let again = site.build(&BuildOptions::new(now_ms))?;
//! assert!(again.written.is_empty());
//! # Ok::<(), folio::Error>(())
//! ```
//!
//! Same input gives the same ids and the same bytes, and a build with
//! nothing changed writes nothing. The library never prints, exits, or reads
//! the environment or the clock. How a build runs, stage by stage, is in
//! docs/ARCHITECTURE.md.

// Without `internals` every stage module is private, so each `pub` item in
// one is unreachable by construction; with it, the lint (Cargo.toml) holds
// `pub` to what the crate's users and its benches can reach.
#![cfg_attr(not(feature = "internals"), allow(unreachable_pub))]

// The engine's rooms, in pipeline order: the model every stage shares,
// reading sources, planning, rendering, storing, the build that runs them
// in order, and the tools built on a build. Private: the public API is the
// re-exports below. The `internals` feature opens them to the stage
// benchmarks (benches/stages.rs) and the fuzz targets, and promises
// nothing about them.
#[cfg(feature = "internals")]
#[doc(hidden)]
pub mod model;
#[cfg(not(feature = "internals"))]
mod model;

#[cfg(feature = "internals")]
#[doc(hidden)]
pub mod source;
#[cfg(not(feature = "internals"))]
mod source;

#[cfg(feature = "internals")]
#[doc(hidden)]
pub mod plan;
#[cfg(not(feature = "internals"))]
mod plan;

#[cfg(feature = "internals")]
#[doc(hidden)]
pub mod render;
#[cfg(not(feature = "internals"))]
mod render;

#[cfg(feature = "internals")]
#[doc(hidden)]
pub mod store;
#[cfg(not(feature = "internals"))]
mod store;

#[cfg(feature = "internals")]
#[doc(hidden)]
pub mod build;
#[cfg(not(feature = "internals"))]
mod build;

#[cfg(feature = "internals")]
#[doc(hidden)]
pub mod tools;
#[cfg(not(feature = "internals"))]
mod tools;

// The features that only use the engine: the preview server (its HTTP
// stack behind the `serve` feature), `folio publish` (its PostgreSQL client
// behind `publish`), `folio import`, and the plugin API.
pub mod import;
pub mod plugin;
#[cfg(feature = "publish")]
mod publish;
#[cfg(feature = "serve")]
mod serve;

pub use build::options::BuildOptions;
pub use build::session::Session;
pub use build::site::Site;
pub use model::error::{AnotherId, Error, LinkAnswer, Problem, ProblemKind};
pub use model::id::PostId;
pub use model::report::{BuildReport, Event, Explanation, Observer, Stage};
pub use plugin::Plugins;
#[cfg(feature = "publish")]
pub use publish::{PublishOptions, PublishReport};
#[cfg(feature = "serve")]
pub use serve::{Changes, LiveReload, PreviewServer, Watcher, rebuild_on_changes};
pub use source::config::{Config, LinkCheck, Overrides, Publish};
pub use tools::amend::{Amendment, Change};
#[cfg(feature = "external-links")]
pub use tools::external::LinkReport;
pub use tools::scaffold::NewPost;
