//! Tree queries: top-level spaces with counts, children of a page, page listings.
//!
//! Spaces are not stored on their own: a space exists while a document lives in it or below it.
//! Top-level totals come from one grouped scan of the `(wiki, space, locale, hidden,
//! updated_ms)` index, folded into the top level by [`crate::tree`], and the home titles from
//! one more statement. The children of a page are what one caller may view: every page row goes
//! through the caller's `authorize` before it is listed or counted, and a nested-space node is
//! built from authorized rows only ([`space_nodes`]).

use std::collections::HashMap;

use crate::Result;
use crate::api::HierarchyStore;
use crate::model::hierarchy::{ChildrenPage, SpaceSummary, TreeNode};
use crate::model::wiki::WikiId;
use crate::postgres::PostgresStore;
use crate::postgres::binds::Binds;
use crate::postgres::convert::{RowExt, unsigned};
use crate::postgres::pool::Conn;
use crate::reference::{DocumentReference, HOME_PAGE, SpacePath};
use crate::stored::{self, from_ms, to_i64};
use crate::tree;

mod space_nodes;

use space_nodes::space_nodes;

/// Title and hidden flag of the home pages of `spaces` (those that exist), by space.
pub(crate) fn home_states(
    conn: &mut Conn,
    wiki: &WikiId,
    spaces: &[String],
) -> Result<HashMap<String, (String, bool)>> {
    if spaces.is_empty() {
        return Ok(HashMap::new());
    }
    let rows = conn.query(
        "SELECT space, title, hidden FROM documents \
         WHERE wiki = $1 AND space = ANY($2::text[]) AND name = $3 AND locale = ''",
        &[&wiki.as_str(), &spaces, &HOME_PAGE],
    )?;
    rows.iter()
        .map(|row| Ok((row.col(0)?, (row.col(1)?, row.col(2)?))))
        .collect()
}

impl HierarchyStore for PostgresStore {
    fn top_level_spaces(&self, wiki: &WikiId, include_hidden: bool) -> Result<Vec<SpaceSummary>> {
        self.snapshot(|conn| {
            let rows = conn.query(
                "SELECT space, hidden, count(*), max(updated_ms) FROM documents \
                 WHERE wiki = $1 AND locale = '' GROUP BY space, hidden",
                &[&wiki.as_str()],
            )?;
            let mut counted = Vec::with_capacity(rows.len());
            for row in &rows {
                counted.push((
                    stored::space(row.col(0)?)?,
                    row.col(1)?,
                    unsigned(row.col::<i64>(2)?, "page count")?,
                    row.col(3)?,
                ));
            }
            let counts = tree::top_level_counts(counted);
            let tops: Vec<String> = counts.keys().map(SpacePath::to_string).collect();
            let homes = home_states(conn, wiki, &tops)?;
            tree::space_summaries(wiki, counts, include_hidden, |home| {
                Ok(homes
                    .get(&home.space().to_string())
                    .map(|(title, _)| title.clone()))
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
        self.snapshot(|conn| {
            // The pages of the space, then its nested spaces; all of them viewable.
            let rows = conn.query(
                "SELECT name, title, hidden, updated_ms FROM documents \
                 WHERE wiki = $1 AND space = $2 AND locale = '' AND name <> $3 AND (NOT hidden OR $4)",
                &[&wiki.as_str(), &space.to_string(), &HOME_PAGE, &include_hidden],
            )?;
            let mut nodes: Vec<TreeNode> = Vec::new();
            for row in &rows {
                let reference = stored::page(wiki, space, row.col(0)?)?;
                if !authorize(&reference) {
                    continue;
                }
                nodes.push(TreeNode {
                    reference,
                    title: Some(row.col(1)?),
                    hidden: row.col(2)?,
                    has_children: false,
                    updated: Some(from_ms(row.col(3)?)),
                });
            }
            nodes.extend(space_nodes(conn, wiki, space, include_hidden, &mut *authorize)?);
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
        let mut binds = Binds::default();
        let mut sql = format!(
            "SELECT space, name, title, hidden, updated_ms FROM documents WHERE wiki = {} AND locale = ''",
            binds.push(wiki.as_str().to_owned())
        );
        if let Some(space) = space {
            let space = space.to_string();
            let exact = binds.push(space.clone());
            let above = binds.push(format!("{space}."));
            let below = binds.push(format!("{space}/"));
            sql.push_str(&format!(
                " AND (space = {exact} OR (space > {above} AND space < {below}))"
            ));
        }
        if !include_hidden {
            sql.push_str(" AND NOT hidden");
        }
        sql.push_str(&format!(
            " ORDER BY space, name LIMIT {} OFFSET {}",
            binds.push(to_i64(limit)),
            binds.push(to_i64(offset))
        ));
        self.read(|conn| {
            conn.query(&sql, &binds.params())?
                .iter()
                .map(|row| {
                    let reference = stored::reference(wiki.as_str(), row.col(0)?, row.col(1)?)?;
                    Ok(tree::page_node(
                        reference,
                        row.col(2)?,
                        row.col(3)?,
                        row.col(4)?,
                    ))
                })
                .collect()
        })
    }
}
