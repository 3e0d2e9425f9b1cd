//! The statements behind [`crate::LinkStore`] (rows written by document saves).

use rusqlite::types::Value;
use rusqlite::{Connection, params_from_iter};

use crate::Result;
use crate::flow::links::LinkReads;
use crate::model::link::{Backlink, LinkTarget};
use crate::model::wiki::WikiId;
use crate::reference::DocumentReference;
use crate::sqlite::convert::DbResultExt;
use crate::stored::{self, reference_columns};

impl LinkReads for &Connection {
    fn links_of(&mut self, row_id: i64) -> Result<Vec<LinkTarget>> {
        let mut stmt = self
            .prepare_cached(
                "SELECT target_wiki, target_space, target_name, attachment FROM links \
                 WHERE source_id = ?1 ORDER BY position",
            )
            .db()?;
        let mut rows = stmt.query([row_id]).db()?;
        let mut links = Vec::new();
        while let Some(row) = rows.next().db()? {
            let document = stored::reference(
                &row.get::<_, String>(0).db()?,
                &row.get::<_, String>(1).db()?,
                row.get(2).db()?,
            )?;
            links.push(match row.get::<_, Option<String>>(3).db()? {
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
        let mut sql = String::from(
            "SELECT s.wiki, s.space, s.name, \
               COALESCE((SELECT h.hidden FROM documents h WHERE h.wiki = s.wiki AND h.space = s.space \
                         AND h.name = s.name AND h.locale = ''), 0) \
             FROM (SELECT DISTINCT d.wiki, d.space, d.name FROM links l JOIN documents d ON d.id = l.source_id \
                   WHERE l.target_wiki = ? AND l.target_space = ? AND l.target_name = ? AND l.attachment IS NULL",
        );
        let (wiki, space, name) = reference_columns(target);
        let mut values = vec![
            Value::Text(wiki.to_owned()),
            Value::Text(space),
            Value::Text(name.to_owned()),
        ];
        if let Some(list) = wikis {
            sql.push_str(" AND d.wiki IN (");
            sql.push_str(&vec!["?"; list.len()].join(", "));
            sql.push(')');
            values.extend(list.iter().map(|w| Value::Text(w.as_str().to_owned())));
        }
        sql.push_str(") s ORDER BY s.wiki, s.space, s.name LIMIT ?");
        values.push(Value::Integer(stored::to_i64(limit)));
        let mut stmt = self.prepare_cached(&sql).db()?;
        let mut rows = stmt.query(params_from_iter(values.iter())).db()?;
        let mut out = Vec::new();
        while let Some(row) = rows.next().db()? {
            let source = stored::reference(
                &row.get::<_, String>(0).db()?,
                &row.get::<_, String>(1).db()?,
                row.get(2).db()?,
            )?;
            out.push(Backlink {
                source,
                hidden: row.get(3).db()?,
            });
        }
        Ok(out)
    }
}
