//! Everything a wiki content tool needs: `use wiki_tool_sdk::prelude::*;`.
//!
//! The framework's prelude (`#[mcp_tool]`, `Execute`, `ToolContext`, results), the wiki side of
//! the context ([`WikiContext`]: `ctx.doors()`, `ctx.link(..)`, `ctx.store_call(..)`), the doors
//! (the write door `ctx.doors()?.write()?` and its targets, bases and comments among them)
//! and what they hand out (references, versions, locales, rights, documents), the store traits a
//! `store_call` closure calls, and the two date forms tools print. Anything else of the store is
//! under [`crate::store`]; the date library is [`crate::time`].

pub use mcp_runtime::prelude::*;

pub use crate::WikiContext;
pub use crate::access::write::{
    Base, BaseRule, Comment, ObjectChange, PlannedWrite, RowChange, WriteDoor, WriteFailure,
    WriteTarget, already_applied, no_changes, version_line,
};
pub use crate::access::{AuthorizedReference, Doors, StoreReader, store_failure};
pub use crate::categories;
pub use crate::instant::{iso_instant, utc_minute};
pub use crate::links::LinkPage;
pub use crate::locale::parse_locale;
pub use time::OffsetDateTime;
pub use wiki_store::model::document::Document;
pub use wiki_store::model::locale::Locale;
pub use wiki_store::model::version::Version;
pub use wiki_store::model::wiki::WikiId;
pub use wiki_store::reference::{DocumentReference, SpacePath};
pub use wiki_store::rights::Right;
pub use wiki_store::{
    AttachmentStore, DocumentStore, HierarchyStore, LinkStore, ObjectStore, SearchStore, Store,
    StoreError, TrashStore, VectorStore, WikiStore,
};
