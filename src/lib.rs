//! folio: an incremental static-site generator for multilingual blogs.
//!
//! The engine is a library so that other build pipelines can embed it; the
//! `folio` binary is a thin command line over the same API.
//!
//! ```no_run
//! use folio::{BuildOptions, Site};
//!
//! let site = Site::open("my-blog")?;
//! let report = site.build(&BuildOptions::default())?;
//! println!("{} pages written, {} deleted", report.written.len(), report.deleted.len());
//! # Ok::<(), folio::Error>(())
//! ```
//!
//! The pipeline runs one way, one module per stage: [`discover`] → [`parse`]
//! → [`identify`] → [`index`] → [`plan`] → [`render`] → [`write`]; [`site`]
//! wires them together. Same input gives the same ids and the same bytes,
//! and a build with nothing changed writes nothing.

pub mod config;
pub mod discover;
pub mod error;
pub mod i18n;
pub mod identify;
pub mod index;
pub mod parse;
pub mod plan;
pub mod render;
pub mod site;
pub mod write;

pub use config::Config;
pub use error::{Error, Problem, ProblemKind};
pub use identify::PostId;
pub use site::{BuildOptions, BuildReport, Explanation, Progress, ProgressFn, Site, Stage};
