//! The nested-space nodes of a children listing, built only from pages the caller may view.
//!
//! A nested space has no row of its own: it shows as a node because pages live in it or below
//! it. Built from counts taken before authorization, a space whose every page is denied would
//! still show up, leaking its name, whether it holds visible pages and when it last changed. So
//! each stored space of the subtree is probed partition by partition (`space, hidden`), newest
//! first along the `(wiki, space, locale, hidden, updated_ms)` index, and the probe stops at the
//! first row the caller may view: that row is the newest they can see there. An open space costs
//! one row per stored space; only a partition of denied pages is read to its end, so a call never
//! reads more rows than the subtree holds and never loads them all at once.

use std::collections::BTreeMap;

use rusqlite::{Connection, params};

use super::page_state;
use crate::Result;
use crate::model::hierarchy::TreeNode;
use crate::model::wiki::WikiId;
use crate::reference::{DocumentReference, SpacePath};
use crate::sqlite::convert::DbResultExt;
use crate::stored::{self, corrupt};
use crate::tree::{Newest, space_node};

/// The nested spaces directly under `parent` that hold at least one page the caller may view
/// (a hidden one only when `include_hidden`), as nodes on their home pages, unsorted.
///
/// A node's title is its home page's, only when the caller may view the home page; its hidden
/// flag is the home page's then, else whether every page they may view in it is hidden; its
/// update is the newest page they may view in it (hidden ones only when `include_hidden`).
pub(super) fn space_nodes(
    conn: &Connection,
    wiki: &WikiId,
    parent: &SpacePath,
    include_hidden: bool,
    authorize: &mut dyn FnMut(&DocumentReference) -> bool,
) -> Result<Vec<TreeNode>> {
    let mut newest: BTreeMap<SpacePath, Newest> = BTreeMap::new();
    for (space, hidden) in partitions_below(conn, wiki, parent, include_hidden)? {
        let Some(updated) = newest_viewable(conn, wiki, &space, hidden, authorize)? else {
            continue;
        };
        let child = SpacePath::new(space.names()[..=parent.depth()].iter().cloned())
            .map_err(|_| corrupt("stored space does not parse"))?;
        newest.entry(child).or_default().note(hidden, updated);
    }
    let mut nodes = Vec::with_capacity(newest.len());
    for (child, newest) in newest {
        let home = child.home(wiki);
        let viewable_home = match page_state(conn, &home)? {
            Some((title, hidden, _)) if authorize(&home) => Some((title, hidden)),
            _ => None,
        };
        nodes.push(space_node(home, viewable_home, newest, include_hidden));
    }
    Ok(nodes)
}

/// The `(stored space, hidden)` partitions strictly below `parent` (hidden ones only when
/// `include_hidden`), from the tree index alone.
fn partitions_below(
    conn: &Connection,
    wiki: &WikiId,
    parent: &SpacePath,
    include_hidden: bool,
) -> Result<Vec<(SpacePath, bool)>> {
    let parent = parent.to_string();
    let mut stmt = conn
        .prepare_cached(
            "SELECT space, hidden FROM documents \
             WHERE wiki = ?1 AND space > ?2 AND space < ?3 AND locale = '' AND hidden <= ?4 \
             GROUP BY space, hidden",
        )
        .db()?;
    let mut rows = stmt
        .query(params![
            wiki.as_str(),
            format!("{parent}."),
            format!("{parent}/"),
            include_hidden
        ])
        .db()?;
    let mut out = Vec::new();
    while let Some(row) = rows.next().db()? {
        out.push((
            stored::space(&row.get::<_, String>(0).db()?)?,
            row.get(1).db()?,
        ));
    }
    Ok(out)
}

/// The update time of the newest page of `space` (default rows with this hidden flag) that the
/// caller may view, reading newest first and stopping there.
fn newest_viewable(
    conn: &Connection,
    wiki: &WikiId,
    space: &SpacePath,
    hidden: bool,
    authorize: &mut dyn FnMut(&DocumentReference) -> bool,
) -> Result<Option<i64>> {
    let mut stmt = conn
        .prepare_cached(
            "SELECT name, updated_ms FROM documents \
             WHERE wiki = ?1 AND space = ?2 AND locale = '' AND hidden = ?3 \
             ORDER BY updated_ms DESC",
        )
        .db()?;
    let mut rows = stmt
        .query(params![wiki.as_str(), space.to_string(), hidden])
        .db()?;
    while let Some(row) = rows.next().db()? {
        let reference = stored::page(wiki, space, row.get(0).db()?)?;
        if authorize(&reference) {
            return Ok(Some(row.get(1).db()?));
        }
    }
    Ok(None)
}
