//! The parameters write tools share, declared and documented once and flattened into each tool
//! (`#[param(flatten)]`): agents see them as top-level parameters, worded alike in every tool.
//!
//! `base_version` of the saving tools is not here: its rule differs per tool (an optional lock
//! for edit_document, required to overwrite for write_document), so each tool documents its own.

use wiki_tool_sdk::prelude::*;

/// How a save is recorded, and in which wiki (edit_document, write_document, write_object,
/// write_schema).
#[derive(Debug, ParamObject)]
pub(crate) struct WriteParams {
    /// Why, saved prefixed "[AI] ".
    pub(crate) comment: Option<String>,
    /// Save a major version.
    pub(crate) major: bool,
    /// Another wiki (list_wikis).
    #[param(extended)]
    pub(crate) wiki: Option<String>,
}

/// The version a deletion is checked against, why it was made and in which wiki
/// (delete_document, delete_attachment, delete_object).
#[derive(Debug, ParamObject)]
pub(crate) struct DeleteParams {
    /// The document's current version.
    pub(crate) base_version: String,
    /// Why, saved prefixed "[AI] ".
    pub(crate) comment: Option<String>,
    /// Another wiki (list_wikis).
    #[param(extended)]
    pub(crate) wiki: Option<String>,
}
