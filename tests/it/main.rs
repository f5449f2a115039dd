//! Every integration test suite, in one test binary: each suite was its own
//! binary linking the whole engine (~42 MB each, 25 of them), which made
//! links the longest part of a CI build and once filled its disk.
//! `cargo test --test it SUITE::` runs one suite (`hostile::`, `serve::`);
//! `tests/quiet.rs` stays a binary of its own, since it needs its own
//! harness.

#[path = "../pg/mod.rs"]
mod pg;
#[path = "../util/mod.rs"]
mod util;

mod amend;
mod api;
mod assets;
#[cfg(feature = "serve")]
mod browser;
mod build;
mod bundles;
mod check;
#[cfg(feature = "external-links")]
mod check_external;
mod cli;
mod convergence;
mod edit_matrix;
mod embedded_blog;
mod explain;
mod faults;
mod feeds;
mod front_matter;
#[cfg(feature = "internals")]
mod fuzz_regressions;
mod highlight;
mod hostile;
mod images;
mod import;
mod inputs;
mod kills;
mod layout;
mod listing;
mod math;
mod menus;
mod minify;
mod moves;
mod multilingual;
mod places;
mod plugins;
mod publish;
mod publish_faults;
mod publish_tls;
mod report;
mod sass;
mod scaffold;
mod sections;
#[cfg(feature = "serve")]
mod serve;
mod session;
mod sharing;
mod shortcodes;
mod taxonomies;
mod themes;
mod writing;
