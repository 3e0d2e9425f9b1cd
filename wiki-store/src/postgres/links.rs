//! Outgoing links and backlinks (rows written by document saves).

use crate::Result;
use crate::api::LinkStore;
use crate::flow::documents::DocumentReads;
use crate::model::link::{Backlink, BacklinkPage, LinkTarget};
use crate::model::locale::Locale;
use crate::model::search::WikiScope;
use crate::postgres::PostgresStore;
use crate::postgres::convert::RowExt;
use crate::postgres::documents::key;
use crate::reference::DocumentReference;
use crate::scan::{cut, probe_limit};
use crate::stored::{self, to_i64};

impl LinkStore for PostgresStore {
    fn outgoing_links(
        &self,
        reference: &DocumentReference,
        locale: Option<&Locale>,
    ) -> Result<Option<Vec<LinkTarget>>> {
        self.snapshot(|conn| {
            let Some(row) = conn.resolve_row(reference, locale)? else {
                return Ok(None);
            };
            let rows = conn.query(
                "SELECT target_wiki, target_space, target_name, attachment FROM links \
                 WHERE source_id = $1 ORDER BY position",
                &[&row.id],
            )?;
            let mut links = Vec::with_capacity(rows.len());
            for row in &rows {
                let document = stored::reference(row.col(0)?, row.col(1)?, row.col(2)?)?;
                links.push(match row.col::<Option<String>>(3)? {
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
        let only: Option<Vec<&str>> = match wikis {
            WikiScope::All => None,
            WikiScope::Only(list) if list.is_empty() => {
                return Ok(BacklinkPage {
                    backlinks: Vec::new(),
                    truncated: false,
                });
            }
            WikiScope::Only(list) => Some(list.iter().map(|wiki| wiki.as_str()).collect()),
        };
        let (wiki, space, name) = key(target);
        let probe = to_i64(probe_limit(limit));
        let rows = self.read(|conn| {
            conn.query(
                "SELECT s.wiki, s.space, s.name, \
                   COALESCE((SELECT h.hidden FROM documents h WHERE h.wiki = s.wiki AND h.space = s.space \
                             AND h.name = s.name AND h.locale = ''), false) \
                 FROM (SELECT DISTINCT d.wiki, d.space, d.name FROM links l JOIN documents d ON d.id = l.source_id \
                       WHERE l.target_wiki = $1 AND l.target_space = $2 AND l.target_name = $3 \
                       AND l.attachment IS NULL AND ($4::text[] IS NULL OR d.wiki = ANY($4))) s \
                 ORDER BY s.wiki, s.space, s.name LIMIT $5",
                &[&wiki, &space, &name, &only, &probe],
            )
        })?;
        let backlinks = rows
            .iter()
            .map(|row| {
                Ok(Backlink {
                    source: stored::reference(row.col(0)?, row.col(1)?, row.col(2)?)?,
                    hidden: row.col(3)?,
                })
            })
            .collect::<Result<Vec<_>>>()?;
        let (backlinks, truncated) = cut(backlinks, limit);
        Ok(BacklinkPage {
            backlinks,
            truncated,
        })
    }
}
