//! The page tree over any backend: a backend reads default rows per stored space, the rules of
//! [`crate::tree`] fold them into top-level totals and nodes.
//!
//! The children of a page are what one caller may view: every page row goes through the
//! caller's `authorize` before it is listed or counted, and a nested-space node is built from
//! authorized rows only (the newest page the caller may view in each stored space below), so a
//! space whose every page is denied leaves no trace.

use std::collections::BTreeMap;

use crate::Result;
use crate::api::HierarchyStore;
use crate::backend::Backend;
use crate::model::hierarchy::{ChildrenPage, SpaceSummary, TreeNode};
use crate::model::wiki::WikiId;
use crate::reference::{DocumentReference, SpacePath};
use crate::stored::{self, corrupt, from_ms};
use crate::tree::{self, Newest, space_node};

/// A default row as a listing shows it: name, title, hidden flag, last update (milliseconds).
pub(crate) type PageRow = (String, String, bool, i64);

/// What tree reads fetch.
pub(crate) trait HierarchyReads {
    /// Per stored space of `wiki` and hidden flag: how many default rows, and the newest
    /// update. Not authorized.
    fn space_counts(&mut self, wiki: &WikiId) -> Result<Vec<(SpacePath, bool, u64, i64)>>;

    /// The title and hidden flag of the home pages of `spaces` that exist, by space.
    fn home_states(
        &mut self,
        wiki: &WikiId,
        spaces: &[SpacePath],
    ) -> Result<BTreeMap<SpacePath, (String, bool)>>;

    /// The pages of `space` itself (its home page aside; hidden ones only when
    /// `include_hidden`), in any order.
    fn space_pages(
        &mut self,
        wiki: &WikiId,
        space: &SpacePath,
        include_hidden: bool,
    ) -> Result<Vec<PageRow>>;

    /// For each `(stored space, hidden)` partition strictly below `parent` (hidden ones only
    /// when `include_hidden`), the update of its newest page that `authorize` accepts, read
    /// newest first and stopping there; partitions without one are left out.
    fn newest_viewable_below(
        &mut self,
        wiki: &WikiId,
        parent: &SpacePath,
        include_hidden: bool,
        authorize: &mut dyn FnMut(&DocumentReference) -> bool,
    ) -> Result<Vec<(SpacePath, bool, i64)>>;

    /// Pages of `wiki` (under `space` and its nested spaces, when given) sorted by reference,
    /// `limit` of them after `offset`.
    fn pages(
        &mut self,
        wiki: &WikiId,
        space: Option<&SpacePath>,
        include_hidden: bool,
        offset: usize,
        limit: usize,
    ) -> Result<Vec<TreeNode>>;
}

impl<B: Backend> HierarchyStore for B {
    fn top_level_spaces(&self, wiki: &WikiId, include_hidden: bool) -> Result<Vec<SpaceSummary>> {
        self.snapshot(|rows| {
            let counts = tree::top_level_counts(rows.space_counts(wiki)?);
            let listed: Vec<SpacePath> = counts
                .iter()
                .filter(|(_, counts)| include_hidden || counts.visible > 0)
                .map(|(space, _)| space.clone())
                .collect();
            let homes = rows.home_states(wiki, &listed)?;
            tree::space_summaries(wiki, counts, include_hidden, |home| {
                Ok(homes.get(home.space()).map(|(title, _)| title.clone()))
            })
        })
    }

    fn children(
        &self,
        parent: &DocumentReference,
        include_hidden: bool,
        offset: usize,
        limit: usize,
        authorize: &mut dyn FnMut(&DocumentReference) -> bool,
    ) -> Result<ChildrenPage> {
        if let Some(none) = tree::childless(parent) {
            return Ok(none);
        }
        let wiki = parent.wiki();
        let space = parent.space();
        self.snapshot(|rows| {
            // The pages of the space, then its nested spaces; all of them viewable.
            let mut nodes = Vec::new();
            for (name, title, hidden, updated) in rows.space_pages(wiki, space, include_hidden)? {
                let reference = stored::page(wiki, space, name)?;
                if !authorize(&reference) {
                    continue;
                }
                nodes.push(TreeNode {
                    reference,
                    title: Some(title),
                    hidden,
                    has_children: false,
                    updated: Some(from_ms(updated)),
                });
            }
            nodes.extend(space_nodes(
                rows,
                wiki,
                space,
                include_hidden,
                &mut *authorize,
            )?);
            Ok(tree::children_page(nodes, include_hidden, offset, limit))
        })
    }

    fn pages(
        &self,
        wiki: &WikiId,
        space: Option<&SpacePath>,
        include_hidden: bool,
        offset: usize,
        limit: usize,
    ) -> Result<Vec<TreeNode>> {
        self.read(|rows| rows.pages(wiki, space, include_hidden, offset, limit))
    }
}

/// The nested spaces directly under `parent` that hold at least one page the caller may view
/// (a hidden one only when `include_hidden`), as nodes on their home pages, unsorted.
///
/// A node's title is its home page's, only when the caller may view the home page; its hidden
/// flag is the home page's then, else whether every page they may view in it is hidden; its
/// update is the newest page they may view in it (hidden ones only when `include_hidden`).
fn space_nodes<R: HierarchyReads>(
    rows: &mut R,
    wiki: &WikiId,
    parent: &SpacePath,
    include_hidden: bool,
    authorize: &mut dyn FnMut(&DocumentReference) -> bool,
) -> Result<Vec<TreeNode>> {
    let mut newest: BTreeMap<SpacePath, Newest> = BTreeMap::new();
    for (space, hidden, updated) in
        rows.newest_viewable_below(wiki, parent, include_hidden, &mut *authorize)?
    {
        let child = SpacePath::new(space.names()[..=parent.depth()].iter().cloned())
            .map_err(|_| corrupt("stored space does not parse"))?;
        newest.entry(child).or_default().note(hidden, updated);
    }
    let children: Vec<SpacePath> = newest.keys().cloned().collect();
    let mut homes = rows.home_states(wiki, &children)?;
    let mut nodes = Vec::with_capacity(newest.len());
    for (child, newest) in newest {
        let home = child.home(wiki);
        let viewable_home = homes.remove(&child).filter(|_| authorize(&home));
        nodes.push(space_node(home, viewable_home, newest, include_hidden));
    }
    Ok(nodes)
}
