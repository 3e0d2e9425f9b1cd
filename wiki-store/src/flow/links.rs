//! Outgoing links and backlinks over any backend (rows written by document saves).

use crate::Result;
use crate::api::LinkStore;
use crate::backend::Backend;
use crate::flow::documents::DocumentReads;
use crate::model::link::{Backlink, BacklinkPage, LinkTarget};
use crate::model::locale::Locale;
use crate::model::search::WikiScope;
use crate::model::wiki::WikiId;
use crate::reference::DocumentReference;
use crate::scan::{cut, probe_limit};

/// What link reads fetch.
pub(crate) trait LinkReads: DocumentReads {
    /// The links of row `row_id`, in the order they were written.
    fn links_of(&mut self, row_id: i64) -> Result<Vec<LinkTarget>>;

    /// The documents (in `wikis`, every wiki for `None`) whose rows link to `target`, each once,
    /// ordered by reference, at most `limit`.
    fn backlinks(
        &mut self,
        target: &DocumentReference,
        wikis: Option<&[WikiId]>,
        limit: usize,
    ) -> Result<Vec<Backlink>>;
}

impl<B: Backend> LinkStore for B {
    fn outgoing_links(
        &self,
        reference: &DocumentReference,
        locale: Option<&Locale>,
    ) -> Result<Option<Vec<LinkTarget>>> {
        self.snapshot(|rows| match rows.resolve_row(reference, locale)? {
            Some(row) => rows.links_of(row.id).map(Some),
            None => Ok(None),
        })
    }

    fn backlinks(
        &self,
        target: &DocumentReference,
        wikis: &WikiScope,
        limit: usize,
    ) -> Result<BacklinkPage> {
        let only = match wikis {
            WikiScope::All => None,
            WikiScope::Only(list) if list.is_empty() => {
                return Ok(BacklinkPage {
                    backlinks: Vec::new(),
                    truncated: false,
                });
            }
            WikiScope::Only(list) => Some(list.as_slice()),
        };
        let probe = probe_limit(limit);
        let backlinks = self.read(|rows| rows.backlinks(target, only, probe))?;
        let (backlinks, truncated) = cut(backlinks, limit);
        Ok(BacklinkPage {
            backlinks,
            truncated,
        })
    }
}
