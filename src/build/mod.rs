//! One build, step by step, and the engine that runs it: a [`site::Site`]
//! and the [`session::Session`] that keeps its builds, then the steps in
//! order: scan → analyse → (plan) → select → produce → commit, and
//! `explain`, which says what a build decided and why.

pub mod analyse;
pub mod assets;
pub mod commit;
pub mod explain;
pub mod images;
pub mod options;
pub mod produce;
pub mod scan;
pub mod select;
pub mod session;
pub mod site;
