//! The model: the types and rules every stage shares, and what a caller
//! hands in and gets back. Nothing here imports a stage.

pub mod asset;
pub mod doc;
pub mod error;
pub mod hash;
pub mod id;
pub mod report;
pub mod url;
