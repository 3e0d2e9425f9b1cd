//! Tree queries: top-level spaces with counts, children of a page, page listings.
//!
//! Spaces are not stored on their own: a space exists while a document lives in it or below
//! it. Top-level totals come from one scan of the `(wiki, space, locale, hidden, updated_ms)`
//! index, grouped per stored space and folded into the top level here. The children of a page
//! are what one caller may view: every page row goes through the caller's `authorize` before it
//! is listed or counted, and a nested-space node is built from authorized rows only
//! ([`space_nodes`]).

use std::collections::BTreeMap;

use rusqlite::types::Value;
use rusqlite::{Connection, OptionalExtension, params, params_from_iter};

use crate::Result;
use crate::api::HierarchyStore;
use crate::model::hierarchy::{ChildrenPage, SpaceSummary, TreeNode};
use crate::model::wiki::WikiId;
use crate::reference::{DocumentReference, HOME_PAGE, SpacePath};
use crate::sqlite::SqliteStore;
use crate::sqlite::convert::DbResultExt;
use crate::stored::{self, from_ms, to_i64};
use crate::tree::{self, Counts};

mod space_nodes;

use space_nodes::space_nodes;

/// Counts per top-level space, nested spaces folded in. Not authorized: the totals of
/// [`HierarchyStore::top_level_spaces`], which say how much a space holds, not what one caller
/// may see of it.
fn top_level_counts(conn: &Connection, wiki: &WikiId) -> Result<BTreeMap<SpacePath, Counts>> {
    let mut stmt = conn
        .prepare_cached(
            "SELECT space, hidden, count(*), max(updated_ms) FROM documents \
             WHERE wiki = ?1 AND locale = '' GROUP BY space, hidden",
        )
        .db()?;
    let mut rows = stmt.query(params![wiki.as_str()]).db()?;
    let mut stored = Vec::new();
    while let Some(row) = rows.next().db()? {
        let count: i64 = row.get(2).db()?;
        stored.push((
            stored::space(&row.get::<_, String>(0).db()?)?,
            row.get(1).db()?,
            count.unsigned_abs(),
            row.get(3).db()?,
        ));
    }
    Ok(tree::top_level_counts(stored))
}

/// Title, hidden flag and last update of a page's default row.
fn page_state(
    conn: &Connection,
    reference: &DocumentReference,
) -> Result<Option<(String, bool, i64)>> {
    conn.prepare_cached(
        "SELECT title, hidden, updated_ms FROM documents WHERE wiki = ?1 AND space = ?2 AND name = ?3 AND locale = ''",
    )
    .db()?
    .query_row(params![reference.wiki().as_str(), reference.space().to_string(), reference.name()], |row| {
        Ok((row.get(0)?, row.get(1)?, row.get(2)?))
    })
    .optional()
    .db()
}

impl HierarchyStore for SqliteStore {
    fn top_level_spaces(&self, wiki: &WikiId, include_hidden: bool) -> Result<Vec<SpaceSummary>> {
        self.read(|conn| {
            tree::space_summaries(
                wiki,
                top_level_counts(conn, wiki)?,
                include_hidden,
                |home| Ok(page_state(conn, home)?.map(|(title, _, _)| title)),
            )
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
        self.read(|conn| {
            // The pages of the space, then its nested spaces; all of them viewable.
            let mut nodes: Vec<TreeNode> = Vec::new();
            let mut stmt = conn
                .prepare_cached(
                    "SELECT name, title, hidden, updated_ms FROM documents \
                     WHERE wiki = ?1 AND space = ?2 AND locale = '' AND name <> ?3",
                )
                .db()?;
            let mut rows = stmt
                .query(params![wiki.as_str(), space.to_string(), HOME_PAGE])
                .db()?;
            while let Some(row) = rows.next().db()? {
                let hidden: bool = row.get(2).db()?;
                if hidden && !include_hidden {
                    continue;
                }
                let reference = stored::page(wiki, space, row.get(0).db()?)?;
                if !authorize(&reference) {
                    continue;
                }
                nodes.push(TreeNode {
                    reference,
                    title: Some(row.get(1).db()?),
                    hidden,
                    has_children: false,
                    updated: Some(from_ms(row.get(3).db()?)),
                });
            }
            drop(rows);
            nodes.extend(space_nodes(conn, wiki, space, include_hidden, authorize)?);
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
        let mut sql = String::from(
            "SELECT space, name, title, hidden, updated_ms FROM documents WHERE wiki = ? AND locale = ''",
        );
        let mut values = vec![Value::Text(wiki.as_str().to_owned())];
        if let Some(space) = space {
            let space = space.to_string();
            sql.push_str(" AND (space = ? OR (space > ? AND space < ?))");
            values.push(Value::Text(space.clone()));
            values.push(Value::Text(format!("{space}.")));
            values.push(Value::Text(format!("{space}/")));
        }
        if !include_hidden {
            sql.push_str(" AND hidden = 0");
        }
        sql.push_str(" ORDER BY space, name LIMIT ? OFFSET ?");
        values.push(Value::Integer(to_i64(limit)));
        values.push(Value::Integer(to_i64(offset)));
        self.read(|conn| {
            let mut stmt = conn.prepare_cached(&sql).db()?;
            let mut rows = stmt.query(params_from_iter(values.iter())).db()?;
            let mut out = Vec::new();
            while let Some(row) = rows.next().db()? {
                let reference = stored::reference(
                    wiki.as_str(),
                    &row.get::<_, String>(0).db()?,
                    row.get(1).db()?,
                )?;
                out.push(tree::page_node(
                    reference,
                    row.get(2).db()?,
                    row.get(3).db()?,
                    row.get(4).db()?,
                ));
            }
            Ok(out)
        })
    }
}
