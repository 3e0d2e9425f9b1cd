//! The nested-space nodes of a children listing, built only from pages the caller may view.
//!
//! A nested space has no row of its own: it shows as a node because pages live in it or below
//! it. Built from counts taken before authorization, a space whose every page is denied would
//! still show up, leaking its name, whether it holds visible pages and when it last changed. So
//! each stored space of the subtree is read partition by partition (`space, hidden`), newest
//! first along the `(wiki, space, locale, hidden, updated_ms)` index, and stops at the first row
//! the caller may view: that row is the newest they can see there. One statement reads the
//! newest few rows of every partition; only a partition whose first rows are all denied is read
//! further, a chunk at a time, so a call never reads more rows than the subtree holds and never
//! loads a whole partition at once.

use std::collections::BTreeMap;

use postgres::Row;

use super::home_states;
use crate::Result;
use crate::model::hierarchy::TreeNode;
use crate::model::wiki::WikiId;
use crate::postgres::convert::RowExt;
use crate::postgres::pool::Conn;
use crate::reference::{DocumentReference, SpacePath};
use crate::stored::{self, corrupt};
use crate::tree::{Newest, space_node};

/// Rows of each partition read by the first statement.
const FIRST_ROWS: i64 = 8;

/// Rows read per further statement of a partition whose first rows were all denied.
const CHUNK_ROWS: i64 = 64;

/// The nested spaces directly under `parent` that hold at least one page the caller may view
/// (a hidden one only when `include_hidden`), as nodes on their home pages, unsorted.
///
/// A node's title is its home page's, only when the caller may view the home page; its hidden
/// flag is the home page's then, else whether every page they may view in it is hidden; its
/// update is the newest page they may view in it (hidden ones only when `include_hidden`).
pub(super) fn space_nodes(
    conn: &mut Conn,
    wiki: &WikiId,
    parent: &SpacePath,
    include_hidden: bool,
    authorize: &mut dyn FnMut(&DocumentReference) -> bool,
) -> Result<Vec<TreeNode>> {
    let parent_text = parent.to_string();
    let rows = conn.query(
        "SELECT p.space, p.hidden, n.name, n.updated_ms FROM \
           (SELECT DISTINCT space, hidden FROM documents \
            WHERE wiki = $1 AND space > $2 AND space < $3 AND locale = '' AND (NOT hidden OR $4)) p \
         CROSS JOIN LATERAL (SELECT name, updated_ms FROM documents d \
            WHERE d.wiki = $1 AND d.space = p.space AND d.locale = '' AND d.hidden = p.hidden \
            ORDER BY d.updated_ms DESC, d.name DESC LIMIT $5) n \
         ORDER BY p.space, p.hidden, n.updated_ms DESC, n.name DESC",
        &[
            &wiki.as_str(),
            &format!("{parent_text}."),
            &format!("{parent_text}/"),
            &include_hidden,
            &FIRST_ROWS,
        ],
    )?;
    // Rows of one partition are adjacent, newest first.
    let mut partitions: Vec<Partition> = Vec::new();
    for row in &rows {
        let space: &str = row.col(0)?;
        let hidden: bool = row.col(1)?;
        if partitions
            .last()
            .is_none_or(|last| last.space != space || last.hidden != hidden)
        {
            partitions.push(Partition {
                space: space.to_owned(),
                hidden,
                rows: Vec::new(),
            });
        }
        if let Some(last) = partitions.last_mut() {
            last.rows.push(page_row(row)?);
        }
    }

    let mut newest: BTreeMap<SpacePath, Newest> = BTreeMap::new();
    for partition in partitions {
        let space = stored::space(&partition.space)?;
        let Some(updated) = newest_viewable(conn, wiki, &space, &partition, authorize)? else {
            continue;
        };
        let child = SpacePath::new(space.names()[..=parent.depth()].iter().cloned())
            .map_err(|_| corrupt("stored space does not parse"))?;
        newest
            .entry(child)
            .or_default()
            .note(partition.hidden, updated);
    }
    let children: Vec<String> = newest.keys().map(SpacePath::to_string).collect();
    let homes = home_states(conn, wiki, &children)?;
    let mut nodes = Vec::with_capacity(newest.len());
    for (child, newest) in newest {
        let home = child.home(wiki);
        let viewable_home = match homes.get(&child.to_string()) {
            Some(state) if authorize(&home) => Some(state.clone()),
            _ => None,
        };
        nodes.push(space_node(home, viewable_home, newest, include_hidden));
    }
    Ok(nodes)
}

/// One `(stored space, hidden)` partition and its newest rows as first read.
struct Partition {
    space: String,
    hidden: bool,
    rows: Vec<(String, i64)>,
}

fn page_row(row: &Row) -> Result<(String, i64)> {
    Ok((row.col(2)?, row.col(3)?))
}

/// The update time of the newest page of the partition the caller may view: its first rows,
/// then (when all of those were denied and there may be more) chunks after the last one read.
fn newest_viewable(
    conn: &mut Conn,
    wiki: &WikiId,
    space: &SpacePath,
    partition: &Partition,
    authorize: &mut dyn FnMut(&DocumentReference) -> bool,
) -> Result<Option<i64>> {
    let mut rows = partition.rows.clone();
    let mut full = rows.len() as i64 == FIRST_ROWS;
    loop {
        for (name, updated) in &rows {
            if authorize(&stored::page(wiki, space, name.clone())?) {
                return Ok(Some(*updated));
            }
        }
        let Some((last_name, last_updated)) = rows.last().cloned().filter(|_| full) else {
            return Ok(None);
        };
        let next = conn.query(
            "SELECT space, hidden, name, updated_ms FROM documents \
             WHERE wiki = $1 AND space = $2 AND locale = '' AND hidden = $3 \
             AND (updated_ms, name) < ($4, $5) \
             ORDER BY updated_ms DESC, name DESC LIMIT $6",
            &[
                &wiki.as_str(),
                &partition.space,
                &partition.hidden,
                &last_updated,
                &last_name,
                &CHUNK_ROWS,
            ],
        )?;
        full = next.len() as i64 == CHUNK_ROWS;
        rows = next.iter().map(page_row).collect::<Result<_>>()?;
    }
}
