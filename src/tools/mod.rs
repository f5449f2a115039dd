//! The tools built on a build: `folio check` and its links, the
//! sanctioned changes to a published post's id (`folio redate`, `folio
//! move`), each driving a [`Session`](crate::Session) from outside it, and
//! starting a site or a post (`folio init`, `folio new post`). The one
//! tool that goes on the network, `folio check --external`, is behind the
//! `external-links` feature.

pub mod amend;
pub mod check;
#[cfg(feature = "external-links")]
pub mod external;
pub mod scaffold;
