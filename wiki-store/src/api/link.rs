//! Links between documents.

use crate::Result;
use crate::model::link::{BacklinkPage, LinkTarget};
use crate::model::locale::Locale;
use crate::model::search::WikiScope;
use crate::reference::DocumentReference;

/// Outgoing links and backlinks, extracted from content on save.
pub trait LinkStore {
    /// The links of one row as authored (in order, without repeats), or `None` when the row does
    /// not exist. Targets are not checked for existence or rights.
    fn outgoing_links(
        &self,
        reference: &DocumentReference,
        locale: Option<&Locale>,
    ) -> Result<Option<Vec<LinkTarget>>>;

    /// Documents (locale-free) in `wikis` whose rows link to `target`, sorted by reference, at
    /// most `limit`. The target need not exist, so broken links can be found and repaired.
    fn backlinks(
        &self,
        target: &DocumentReference,
        wikis: &WikiScope,
        limit: usize,
    ) -> Result<BacklinkPage>;
}
