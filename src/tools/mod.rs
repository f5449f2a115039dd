//! The tools built on a build: `folio check` and its links, and the
//! sanctioned changes to a published post's id (`folio redate`, `folio
//! move`). Each drives a [`Session`](crate::Session) from outside it.

pub mod amend;
pub mod check;
