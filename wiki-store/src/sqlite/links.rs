//! Outgoing links and backlinks (rows written by document saves).

use rusqlite::params_from_iter;
use rusqlite::types::Value;

use crate::Result;
use crate::api::LinkStore;
use crate::model::link::{Backlink, BacklinkPage, LinkTarget};
use crate::model::locale::Locale;
use crate::model::search::WikiScope;
use crate::reference::DocumentReference;
use crate::scan::{cut, probe_limit};
use crate::sqlite::SqliteStore;
use crate::sqlite::convert::DbResultExt;
use crate::sqlite::documents::resolve_row;
use crate::stored;

impl LinkStore for SqliteStore {
    fn outgoing_links(
        &self,
        reference: &DocumentReference,
        locale: Option<&Locale>,
    ) -> Result<Option<Vec<LinkTarget>>> {
        self.read(|conn| {
            let Some(row) = resolve_row(conn, reference, locale)? else {
                return Ok(None);
            };
            let mut stmt = conn
                .prepare_cached(
                    "SELECT target_wiki, target_space, target_name, attachment FROM links \
                     WHERE source_id = ?1 ORDER BY position",
                )
                .db()?;
            let mut rows = stmt.query([row.id]).db()?;
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
            Ok(Some(links))
        })
    }

    fn backlinks(
        &self,
        target: &DocumentReference,
        wikis: &WikiScope,
        limit: usize,
    ) -> Result<BacklinkPage> {
        let mut sql = String::from(
            "SELECT s.wiki, s.space, s.name, \
               COALESCE((SELECT h.hidden FROM documents h WHERE h.wiki = s.wiki AND h.space = s.space \
                         AND h.name = s.name AND h.locale = ''), 0) \
             FROM (SELECT DISTINCT d.wiki, d.space, d.name FROM links l JOIN documents d ON d.id = l.source_id \
                   WHERE l.target_wiki = ? AND l.target_space = ? AND l.target_name = ? AND l.attachment IS NULL",
        );
        let mut values = vec![
            Value::Text(target.wiki().as_str().to_owned()),
            Value::Text(target.space().to_string()),
            Value::Text(target.name().to_owned()),
        ];
        match wikis {
            WikiScope::All => {}
            WikiScope::Only(list) if list.is_empty() => {
                return Ok(BacklinkPage {
                    backlinks: Vec::new(),
                    truncated: false,
                });
            }
            WikiScope::Only(list) => {
                sql.push_str(" AND d.wiki IN (");
                sql.push_str(&vec!["?"; list.len()].join(", "));
                sql.push(')');
                values.extend(list.iter().map(|w| Value::Text(w.as_str().to_owned())));
            }
        }
        sql.push_str(") s ORDER BY s.wiki, s.space, s.name LIMIT ?");
        values.push(Value::Integer(stored::to_i64(probe_limit(limit))));
        let backlinks = self.read(|conn| {
            let mut stmt = conn.prepare_cached(&sql).db()?;
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
        })?;
        let (backlinks, truncated) = cut(backlinks, limit);
        Ok(BacklinkPage {
            backlinks,
            truncated,
        })
    }
}
