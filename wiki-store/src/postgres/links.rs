//! The statements behind [`crate::LinkStore`] (rows written by document saves).

use crate::Result;
use crate::flow::links::LinkReads;
use crate::model::link::{Backlink, LinkTarget};
use crate::model::wiki::WikiId;
use crate::postgres::convert::RowExt;
use crate::postgres::pool::Conn;
use crate::reference::DocumentReference;
use crate::stored::{self, reference_columns, to_i64};

impl LinkReads for Conn {
    fn links_of(&mut self, row_id: i64) -> Result<Vec<LinkTarget>> {
        let rows = self.query(
            "SELECT target_wiki, target_space, target_name, attachment FROM links \
             WHERE source_id = $1 ORDER BY position",
            &[&row_id],
        )?;
        let mut links = Vec::with_capacity(rows.len());
        for row in &rows {
            let document = stored::reference(row.col(0)?, row.col(1)?, row.col(2)?)?;
            links.push(match row.col::<Option<String>>(3)? {
                Some(name) => LinkTarget::Attachment { document, name },
                None => LinkTarget::Document(document),
            });
        }
        Ok(links)
    }

    fn backlinks(
        &mut self,
        target: &DocumentReference,
        wikis: Option<&[WikiId]>,
        limit: usize,
    ) -> Result<Vec<Backlink>> {
        let only: Option<Vec<&str>> = wikis.map(|list| list.iter().map(WikiId::as_str).collect());
        let (wiki, space, name) = reference_columns(target);
        self.query(
            "SELECT s.wiki, s.space, s.name, \
               COALESCE((SELECT h.hidden FROM documents h WHERE h.wiki = s.wiki AND h.space = s.space \
                         AND h.name = s.name AND h.locale = ''), false) \
             FROM (SELECT DISTINCT d.wiki, d.space, d.name FROM links l JOIN documents d ON d.id = l.source_id \
                   WHERE l.target_wiki = $1 AND l.target_space = $2 AND l.target_name = $3 \
                   AND l.attachment IS NULL AND ($4::text[] IS NULL OR d.wiki = ANY($4))) s \
             ORDER BY s.wiki, s.space, s.name LIMIT $5",
            &[&wiki, &space, &name, &only, &to_i64(limit)],
        )?
        .iter()
        .map(|row| {
            Ok(Backlink {
                source: stored::reference(row.col(0)?, row.col(1)?, row.col(2)?)?,
                hidden: row.col(3)?,
            })
        })
        .collect()
    }
}
