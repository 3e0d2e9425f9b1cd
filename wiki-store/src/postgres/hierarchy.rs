//! The statements behind [`crate::HierarchyStore`]: one grouped scan of the `(wiki, space,
//! locale, hidden, updated_ms)` index for the top-level totals, one statement for all home
//! pages asked for, and for the nested-space nodes one statement reading the newest few rows of
//! every `(space, hidden)` partition below; only a partition whose first rows are all denied is
//! read further, a chunk at a time, so a call never reads more rows than the subtree holds and
//! never loads a whole partition at once.

use std::collections::BTreeMap;

use postgres::Row;

use crate::Result;
use crate::flow::hierarchy::{HierarchyReads, PageRow};
use crate::model::hierarchy::TreeNode;
use crate::model::wiki::WikiId;
use crate::postgres::binds::Binds;
use crate::postgres::convert::{RowExt, unsigned};
use crate::postgres::pool::Conn;
use crate::reference::{DocumentReference, HOME_PAGE, SpacePath};
use crate::stored::{self, to_i64};
use crate::tree;

/// Rows of each partition read by the first statement.
const FIRST_ROWS: i64 = 8;

/// Rows read per further statement of a partition whose first rows were all denied.
const CHUNK_ROWS: i64 = 64;

impl HierarchyReads for Conn {
    fn space_counts(&mut self, wiki: &WikiId) -> Result<Vec<(SpacePath, bool, u64, i64)>> {
        self.query(
            "SELECT space, hidden, count(*), max(updated_ms) FROM documents \
             WHERE wiki = $1 AND locale = '' GROUP BY space, hidden",
            &[&wiki.as_str()],
        )?
        .iter()
        .map(|row| {
            Ok((
                stored::space(row.col(0)?)?,
                row.col(1)?,
                unsigned(row.col::<i64>(2)?, "page count")?,
                row.col(3)?,
            ))
        })
        .collect()
    }

    fn home_states(
        &mut self,
        wiki: &WikiId,
        spaces: &[SpacePath],
    ) -> Result<BTreeMap<SpacePath, (String, bool)>> {
        if spaces.is_empty() {
            return Ok(BTreeMap::new());
        }
        let spaces: Vec<String> = spaces.iter().map(SpacePath::to_string).collect();
        self.query(
            "SELECT space, title, hidden FROM documents \
             WHERE wiki = $1 AND space = ANY($2::text[]) AND name = $3 AND locale = ''",
            &[&wiki.as_str(), &spaces, &HOME_PAGE],
        )?
        .iter()
        .map(|row| Ok((stored::space(row.col(0)?)?, (row.col(1)?, row.col(2)?))))
        .collect()
    }

    fn space_pages(
        &mut self,
        wiki: &WikiId,
        space: &SpacePath,
        include_hidden: bool,
    ) -> Result<Vec<PageRow>> {
        self.query(
            "SELECT name, title, hidden, updated_ms FROM documents \
             WHERE wiki = $1 AND space = $2 AND locale = '' AND name <> $3 AND (NOT hidden OR $4)",
            &[
                &wiki.as_str(),
                &space.to_string(),
                &HOME_PAGE,
                &include_hidden,
            ],
        )?
        .iter()
        .map(|row| Ok((row.col(0)?, row.col(1)?, row.col(2)?, row.col(3)?)))
        .collect()
    }

    fn newest_viewable_below(
        &mut self,
        wiki: &WikiId,
        parent: &SpacePath,
        include_hidden: bool,
        authorize: &mut dyn FnMut(&DocumentReference) -> bool,
    ) -> Result<Vec<(SpacePath, bool, i64)>> {
        let parent = parent.to_string();
        let rows = self.query(
            "SELECT p.space, p.hidden, n.name, n.updated_ms FROM \
               (SELECT DISTINCT space, hidden FROM documents \
                WHERE wiki = $1 AND space > $2 AND space < $3 AND locale = '' AND (NOT hidden OR $4)) p \
             CROSS JOIN LATERAL (SELECT name, updated_ms FROM documents d \
                WHERE d.wiki = $1 AND d.space = p.space AND d.locale = '' AND d.hidden = p.hidden \
                ORDER BY d.updated_ms DESC, d.name DESC LIMIT $5) n \
             ORDER BY p.space, p.hidden, n.updated_ms DESC, n.name DESC",
            &[
                &wiki.as_str(),
                &format!("{parent}."),
                &format!("{parent}/"),
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
        let mut newest = Vec::new();
        for partition in partitions {
            let space = stored::space(&partition.space)?;
            if let Some(updated) = newest_viewable(self, wiki, &space, &partition, authorize)? {
                newest.push((space, partition.hidden, updated));
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
        self.query(&sql, &binds.params())?
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
    }
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
