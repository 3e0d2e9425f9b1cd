//! What `get_tree` returns, structured: the same spaces or pages its lines show, with the
//! counts and markers as fields rather than text. A page the caller may not view is no more
//! here than in the lines; a space whose home page is missing or denied names no reference.

use wiki_tool_sdk::prelude::*;

/// A survey (no root) or an explore (root).
#[mcp_output]
pub(crate) struct TreeOutput {
    /// The wiki read.
    pub(crate) wiki: String,
    /// `survey` (top-level spaces) or `explore` (the pages under root).
    pub(crate) mode: TreeMode,
    /// Explore: the root's reference (a space root is its home page); survey: null.
    pub(crate) root: Option<String>,
    /// Survey: the top-level spaces shown (this page of them, sorted by name); explore: empty.
    pub(crate) spaces: Vec<TreeSpace>,
    /// Explore: the root first, then every page shown, in tree order; survey: the pages of
    /// the small spaces expanded inline.
    pub(crate) pages: Vec<TreePage>,
    /// Survey: top-level spaces in all; explore: the root's direct children in all.
    pub(crate) total: u64,
    /// Survey: whether the counts are sampled (more pages than are counted); explore: false.
    pub(crate) sampled: bool,
    /// The `offset` that shows the next page of spaces or of root's children; null on the
    /// last page.
    pub(crate) next_offset: Option<u64>,
}

/// Which listing a [`TreeOutput`] holds.
#[mcp_output]
#[serde(rename_all = "snake_case")]
pub(crate) enum TreeMode {
    /// The top-level spaces (no root).
    Survey,
    /// The pages under a root.
    Explore,
}

/// One top-level space of a survey.
#[mcp_output]
pub(crate) struct TreeSpace {
    /// The space's name.
    pub(crate) space: String,
    /// Its home page, when it exists and you may view it; null otherwise (explore the space
    /// as root).
    pub(crate) reference: Option<String>,
    /// The home page's title, with its reference.
    pub(crate) title: Option<String>,
    /// Visible pages counted (nested spaces included); null for a space beyond the sample,
    /// which is listed but not counted.
    pub(crate) pages: Option<u64>,
    /// Hidden pages counted; null when not counted.
    pub(crate) hidden: Option<u64>,
    /// The newest change among the pages counted (ISO-8601, UTC); null when none.
    pub(crate) updated: Option<String>,
}

/// One page of an explore (or of a survey's inline expansion).
#[mcp_output]
pub(crate) struct TreePage {
    /// Its reference; null for a space node whose home page is missing or not viewable
    /// (explore its `space` as root).
    pub(crate) reference: Option<String>,
    /// The page's space.
    pub(crate) space: String,
    /// Its name as the tree shows it (a space home shows its space's name).
    pub(crate) name: String,
    /// Its title, when the page exists and you may view it.
    pub(crate) title: Option<String>,
    /// Levels below the root (the root is 0; a survey's inline pages are 1).
    pub(crate) level: u64,
    /// Whether it is a space home that may hold more pages.
    pub(crate) has_children: bool,
    /// Whether its children are listed here (false with `has_children`: explore it as root).
    pub(crate) expanded: bool,
    /// The classes of its objects (bookkeeping classes left out).
    pub(crate) classes: Vec<String>,
    /// How many attachments it has.
    pub(crate) attachments: u64,
    /// Whether it is a hidden page.
    pub(crate) hidden: bool,
}

/// A reference as the output writes it.
pub(crate) fn reference(reference: &DocumentReference) -> String {
    reference.to_string()
}
