//! [`StoreReader`]: the store as a tool's closures see it, reads only.
//!
//! [`Doors::blocking`](super::Doors::blocking) and
//! [`WikiContext::store_call`](crate::WikiContext::store_call) lend a tool this view, not the
//! store: it has every read a content tool makes and no write, so the only way a tool, bundled
//! or contributed, changes content is the write door ([`super::write`]), and none can touch
//! rights, users, tokens, wikis or the configuration at all. A read still says nothing about
//! the caller's rights: authorize the reference through the doors first, and every row a
//! listing returns through [`Doors::row_visible`](super::Doors::row_visible).
//!
//! A read compiles:
//!
//! ```
//! use wiki_tool_sdk::prelude::*;
//!
//! async fn title(doors: &Doors, page: DocumentReference) -> Result<Option<String>, ToolError> {
//!     let row = doors.blocking(move |store| store.document(&page, None)).await?;
//!     Ok(row.ok().flatten().map(|document| document.title))
//! }
//! ```
//!
//! and a write around the door does not, even with the store traits in scope:
//!
//! ```compile_fail,E0599
//! use wiki_tool_sdk::prelude::*;
//! use wiki_tool_sdk::store::model::document::DocumentSave;
//!
//! async fn overwrite(doors: &Doors, save: DocumentSave) {
//!     let _ = doors.blocking(move |store| store.save_document(&save)).await;
//! }
//! ```

use wiki_store::Result;
use wiki_store::Store;
use wiki_store::model::attachment::AttachmentInfo;
use wiki_store::model::class::ClassDefinition;
use wiki_store::model::document::{Document, DocumentLocales};
use wiki_store::model::hierarchy::{ChildrenPage, SpaceSummary, TreeNode};
use wiki_store::model::history::{HistoryPage, Revision, RevisionDiff};
use wiki_store::model::link::{BacklinkPage, LinkTarget};
use wiki_store::model::locale::Locale;
use wiki_store::model::mcp_config::McpConfig;
use wiki_store::model::object::{ClassUsage, ObjectRecord};
use wiki_store::model::search::{SearchCandidate, SearchQuery, SearchResults, WikiScope};
use wiki_store::model::version::Version;
use wiki_store::model::wiki::{Wiki, WikiId};
use wiki_store::reference::{DocumentReference, SpacePath};

/// The reads of the store a tool may make (see the module doc); each method is the store
/// trait method of the same name.
#[derive(Clone, Copy)]
pub struct StoreReader<'a> {
    store: &'a dyn Store,
}

impl std::fmt::Debug for StoreReader<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StoreReader").finish_non_exhaustive()
    }
}

impl<'a> StoreReader<'a> {
    pub(crate) fn new(store: &'a dyn Store) -> Self {
        Self { store }
    }

    /// One row of a document, or `None`.
    pub fn document(
        &self,
        reference: &DocumentReference,
        locale: Option<&Locale>,
    ) -> Result<Option<Document>> {
        self.store.document(reference, locale)
    }

    /// A document's default locale and translations, or `None` when it does not exist.
    pub fn document_locales(
        &self,
        reference: &DocumentReference,
    ) -> Result<Option<DocumentLocales>> {
        self.store.document_locales(reference)
    }

    /// A slice of a row's history, newest first.
    pub fn history(
        &self,
        reference: &DocumentReference,
        locale: Option<&Locale>,
        offset: usize,
        limit: usize,
    ) -> Result<Option<HistoryPage>> {
        self.store.history(reference, locale, offset, limit)
    }

    /// One revision of a row with its content.
    pub fn revision(
        &self,
        reference: &DocumentReference,
        locale: Option<&Locale>,
        version: Version,
    ) -> Result<Option<Revision>> {
        self.store.revision(reference, locale, version)
    }

    /// The unified diff between two revisions of a row.
    pub fn diff(
        &self,
        reference: &DocumentReference,
        locale: Option<&Locale>,
        from: Version,
        to: Version,
    ) -> Result<RevisionDiff> {
        self.store.diff(reference, locale, from, to)
    }

    /// A full-text search, each candidate accepted by `accept` before it is counted or paged.
    /// [`Doors::search`](super::Doors::search) is this with the caller's rights; a tool that
    /// narrows further (to some spaces) passes a predicate that also calls
    /// [`Doors::row_visible`](super::Doors::row_visible).
    pub fn search(
        &self,
        query: &SearchQuery,
        accept: &mut dyn FnMut(&SearchCandidate) -> bool,
    ) -> Result<SearchResults> {
        self.store.search(query, accept)
    }

    /// A wiki's top-level spaces (unauthorized rows: authorize each).
    pub fn top_level_spaces(
        &self,
        wiki: &WikiId,
        include_hidden: bool,
    ) -> Result<Vec<SpaceSummary>> {
        self.store.top_level_spaces(wiki, include_hidden)
    }

    /// A page's children, each authorized by `authorize` before it is counted or paged.
    pub fn children(
        &self,
        parent: &DocumentReference,
        include_hidden: bool,
        offset: usize,
        limit: usize,
        authorize: &mut dyn FnMut(&DocumentReference) -> bool,
    ) -> Result<ChildrenPage> {
        self.store
            .children(parent, include_hidden, offset, limit, authorize)
    }

    /// Pages of a wiki or space (unauthorized rows: authorize each).
    pub fn pages(
        &self,
        wiki: &WikiId,
        space: Option<&SpacePath>,
        include_hidden: bool,
        offset: usize,
        limit: usize,
    ) -> Result<Vec<TreeNode>> {
        self.store.pages(wiki, space, include_hidden, offset, limit)
    }

    /// A row's outgoing links.
    pub fn outgoing_links(
        &self,
        reference: &DocumentReference,
        locale: Option<&Locale>,
    ) -> Result<Option<Vec<LinkTarget>>> {
        self.store.outgoing_links(reference, locale)
    }

    /// The documents linking to `target` (unauthorized rows: authorize each).
    pub fn backlinks(
        &self,
        target: &DocumentReference,
        wikis: &WikiScope,
        limit: usize,
    ) -> Result<BacklinkPage> {
        self.store.backlinks(target, wikis, limit)
    }

    /// The attachments of a document, current versions.
    pub fn attachments(&self, reference: &DocumentReference) -> Result<Vec<AttachmentInfo>> {
        self.store.attachments(reference)
    }

    /// One attachment's current version, or `None`.
    pub fn attachment(
        &self,
        reference: &DocumentReference,
        name: &str,
    ) -> Result<Option<AttachmentInfo>> {
        self.store.attachment(reference, name)
    }

    /// Every version of one attachment.
    pub fn attachment_history(
        &self,
        reference: &DocumentReference,
        name: &str,
    ) -> Result<Vec<AttachmentInfo>> {
        self.store.attachment_history(reference, name)
    }

    /// An attachment's bytes (the current version, or `version`).
    pub fn attachment_content(
        &self,
        reference: &DocumentReference,
        name: &str,
        version: Option<Version>,
    ) -> Result<Option<(AttachmentInfo, Vec<u8>)>> {
        self.store.attachment_content(reference, name, version)
    }

    /// The class a document defines, or `None`.
    pub fn class(&self, class_document: &DocumentReference) -> Result<Option<ClassDefinition>> {
        self.store.class(class_document)
    }

    /// The classes in use in a wiki (unauthorized rows: authorize each class document).
    pub fn class_usage(&self, wiki: &WikiId) -> Result<Vec<ClassUsage>> {
        self.store.class_usage(wiki)
    }

    /// The objects on a document.
    pub fn objects(&self, reference: &DocumentReference) -> Result<Vec<ObjectRecord>> {
        self.store.objects(reference)
    }

    /// The wikis of the farm (authorize each before showing it).
    pub fn list_wikis(&self) -> Result<Vec<Wiki>> {
        self.store.list_wikis()
    }

    /// One wiki, or `None`.
    pub fn wiki(&self, id: &WikiId) -> Result<Option<Wiki>> {
        self.store.wiki(id)
    }

    /// A wiki's MCP configuration, for what it lets tools do (rendered content); never shown
    /// to an agent who does not administer the wiki.
    pub fn mcp_config(&self, wiki: &WikiId) -> McpConfig {
        self.store.mcp_config(wiki)
    }
}
