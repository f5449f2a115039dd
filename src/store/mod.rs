//! Storing: the SQLite index, folio's state folder (with the variants of
//! images made), and the output folder's files (staged, renamed into
//! place, pruned), each never reached through a link folio did not place.

pub mod image_cache;
pub mod index;
pub mod state;
pub mod write;
