//! The statements behind [`crate::HierarchyStore`]: one scan of the `(wiki, space, locale,
//! hidden, updated_ms)` index for the top-level totals, one statement per home page, and for a
//! nested-space node a probe of each stored space below, partition by partition (`space,
//! hidden`), newest first along the same index, stopping at the first row the caller may view:
//! an open space costs one row per stored space, and only a partition of denied pages is read
//! to its end, so a call never reads more rows than the subtree holds and never loads them all
//! at once.

use std::collections::BTreeMap;

use rusqlite::types::Value;
use rusqlite::{Connection, OptionalExtension, params, params_from_iter};

use crate::Result;
use crate::flow::hierarchy::{HierarchyReads, PageRow};
use crate::model::hierarchy::TreeNode;
use crate::model::wiki::WikiId;
use crate::reference::{DocumentReference, HOME_PAGE, SpacePath};
use crate::sqlite::convert::DbResultExt;
use crate::stored::{self, reference_columns, to_i64};
use crate::tree;

impl HierarchyReads for &Connection {
    fn space_counts(&mut self, wiki: &WikiId) -> Result<Vec<(SpacePath, bool, u64, i64)>> {
        let mut stmt = self
            .prepare_cached(
                "SELECT space, hidden, count(*), max(updated_ms) FROM documents \
                 WHERE wiki = ?1 AND locale = '' GROUP BY space, hidden",
            )
            .db()?;
        let mut rows = stmt.query(params![wiki.as_str()]).db()?;
        let mut counted = Vec::new();
        while let Some(row) = rows.next().db()? {
            let count: i64 = row.get(2).db()?;
            counted.push((
                stored::space(&row.get::<_, String>(0).db()?)?,
                row.get(1).db()?,
                count.unsigned_abs(),
                row.get(3).db()?,
            ));
        }
        Ok(counted)
    }

    fn home_states(
        &mut self,
        wiki: &WikiId,
        spaces: &[SpacePath],
    ) -> Result<BTreeMap<SpacePath, (String, bool)>> {
        let mut stmt = self
            .prepare_cached(
                "SELECT title, hidden FROM documents \
                 WHERE wiki = ?1 AND space = ?2 AND name = ?3 AND locale = ''",
            )
            .db()?;
        let mut homes = BTreeMap::new();
        for space in spaces {
            let home = space.home(wiki);
            let (wiki, space_text, name) = reference_columns(&home);
            let state = stmt
                .query_row(params![wiki, space_text, name], |row| {
                    Ok((row.get(0)?, row.get(1)?))
                })
                .optional()
                .db()?;
            if let Some(state) = state {
                homes.insert(space.clone(), state);
            }
        }
        Ok(homes)
    }

    fn space_pages(
        &mut self,
        wiki: &WikiId,
        space: &SpacePath,
        include_hidden: bool,
    ) -> Result<Vec<PageRow>> {
        self.prepare_cached(
            "SELECT name, title, hidden, updated_ms FROM documents \
             WHERE wiki = ?1 AND space = ?2 AND locale = '' AND name <> ?3 AND hidden <= ?4",
        )
        .db()?
        .query_map(
            params![wiki.as_str(), space.to_string(), HOME_PAGE, include_hidden],
            |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?, row.get(3)?)),
        )
        .db()?
        .collect::<rusqlite::Result<_>>()
        .db()
    }

    fn newest_viewable_below(
        &mut self,
        wiki: &WikiId,
        parent: &SpacePath,
        include_hidden: bool,
        authorize: &mut dyn FnMut(&DocumentReference) -> bool,
    ) -> Result<Vec<(SpacePath, bool, i64)>> {
        let parent = parent.to_string();
        let partitions: Vec<(String, bool)> = self
            .prepare_cached(
                "SELECT space, hidden FROM documents \
                 WHERE wiki = ?1 AND space > ?2 AND space < ?3 AND locale = '' AND hidden <= ?4 \
                 GROUP BY space, hidden",
            )
            .db()?
            .query_map(
                params![
                    wiki.as_str(),
                    format!("{parent}."),
                    format!("{parent}/"),
                    include_hidden
                ],
                |row| Ok((row.get(0)?, row.get(1)?)),
            )
            .db()?
            .collect::<rusqlite::Result<_>>()
            .db()?;
        let mut probe = self
            .prepare_cached(
                "SELECT name, updated_ms FROM documents \
                 WHERE wiki = ?1 AND space = ?2 AND locale = '' AND hidden = ?3 \
                 ORDER BY updated_ms DESC",
            )
            .db()?;
        let mut newest = Vec::new();
        for (stored_space, hidden) in partitions {
            let space = stored::space(&stored_space)?;
            let mut rows = probe
                .query(params![wiki.as_str(), stored_space, hidden])
                .db()?;
            while let Some(row) = rows.next().db()? {
                if authorize(&stored::page(wiki, &space, row.get(0).db()?)?) {
                    newest.push((space, hidden, row.get(1).db()?));
                    break;
                }
            }
        }
        Ok(newest)
    }

    fn pages(
        &mut self,
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
        let mut stmt = self.prepare_cached(&sql).db()?;
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
    }
}
