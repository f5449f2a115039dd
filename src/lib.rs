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

#![warn(missing_docs)]

// The stages are private: the public API is the re-exports below. The
// `internals` feature opens them to the stage benchmarks (benches/stages.rs)
// and promises nothing about them.
macro_rules! stages {
    ($($name:ident),* $(,)?) => {$(
        #[cfg(feature = "internals")]
        #[doc(hidden)]
        pub mod $name;
        #[cfg(not(feature = "internals"))]
        mod $name;
    )*};
}

stages!(
    // Leaf modules: the types and rules every stage shares, and what a
    // caller hands in and gets back.
    doc, error, hash, id, url, options, report,
    // The stages' own rules, in pipeline order.
    config, discover, parse, identify, state, index, i18n, plan, render, write,
    // One build, step by step: scan → analyse → (plan) → select → produce
    // → commit; explain says what it decided.
    scan, analyse, select, produce, commit, explain,
    // The site, and the session that runs its builds.
    site, session, // The sanctioned changes to a published post's id: redate and move.
    amend, check,
);

pub use amend::{Amendment, Change};
pub use config::{Config, Publish};
pub use error::{AnotherId, Error, Problem, ProblemKind};
pub use id::PostId;
// The preview server's HTTP side, with its stack behind the `serve` feature.
#[cfg(feature = "serve")]
mod serve;

// `folio publish`: the documents into a shared PostgreSQL, with its client
// behind the `publish` feature.
#[cfg(feature = "publish")]
mod publish;

pub mod import;
pub mod plugin;

pub use options::BuildOptions;
pub use plugin::Plugins;
#[cfg(feature = "publish")]
pub use publish::{PublishOptions, PublishReport};
pub use report::{BuildReport, Event, Explanation, Observer, Stage};
#[cfg(feature = "serve")]
pub use serve::{Changes, LiveReload, PreviewServer, Watcher, rebuild_on_changes};
pub use session::Session;
pub use site::Site;
