//! What a tree view needs: top-level spaces with counts, and children of a page.

use time::OffsetDateTime;

use crate::reference::{DocumentReference, SpacePath};

/// A top-level space with its page counts (default rows only, nested spaces included).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SpaceSummary {
    /// The space.
    pub space: SpacePath,
    /// Its home page reference (`Space.WebHome`), whether or not it exists.
    pub home: DocumentReference,
    /// The home page's title, when the home page exists.
    pub home_title: Option<String>,
    /// Visible (non-hidden) pages in the space and its nested spaces.
    pub pages: u64,
    /// Hidden pages in the space and its nested spaces.
    pub hidden_pages: u64,
    /// The newest update among the counted pages (hidden ones only when asked for).
    pub last_modified: Option<OffsetDateTime>,
}

/// A node of the tree: a page, or a nested space (shown as its home page).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TreeNode {
    /// The page, or the nested space's home page.
    pub reference: DocumentReference,
    /// The page's title; `None` when the node is a nested space whose home page is missing or
    /// not viewable by the caller.
    pub title: Option<String>,
    /// Whether the page is hidden (a space node: its home page's flag when the caller may view
    /// it, else whether every page in it the caller may view is hidden).
    pub hidden: bool,
    /// Whether this node is a space home that may have children.
    pub has_children: bool,
    /// The page's last update (a space node: the newest page in it the caller may view, hidden
    /// ones only when they were asked for).
    pub updated: Option<OffsetDateTime>,
}

/// A page of a node's direct children the caller may view, sorted by name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChildrenPage {
    /// The requested slice.
    pub nodes: Vec<TreeNode>,
    /// How many children the caller may view there are in all (with the same hidden handling).
    pub total: u64,
}
