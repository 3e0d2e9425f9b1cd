//! The document door: the only sanctioned path from an agent's reference to a
//! document.
//!
//! Steps, in this order: resolve (an explicit prefix contradicting the `wiki` argument is
//! refused), the reach gate, the caller's right, the space filter. Existence is checked only after
//! all of them ([`Doors::read_document`]), so "does not exist" never tells a caller anything
//! about a page it may not see. Reading a document by parsing a reference yourself and calling
//! the store skips the reach gate and the filter: do not.

use wiki_store::model::document::Document;
use wiki_store::model::locale::Locale;
use wiki_store::model::wiki::WikiId;
use wiki_store::reference::{DocumentReference, RelativeReference, SpacePath};
use wiki_store::rights::{Right, RightScope};

use super::write::reserved::is_configuration;
use super::{Doors, store_failure};
use crate::untrusted::fragment;
use crate::untrusted::unescape;
use mcp_runtime::prelude::{ErrorKind, ToolError};

/// A reference that passed every door for one right. Only [`Doors::authorize`] makes one, so a
/// function taking it cannot be handed an unchecked reference.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AuthorizedReference {
    reference: DocumentReference,
    right: Right,
}

impl AuthorizedReference {
    /// The resolved reference (wiki-qualified).
    pub fn reference(&self) -> &DocumentReference {
        &self.reference
    }

    /// The right it was authorized for.
    pub fn right(&self) -> Right {
        self.right
    }

    /// An authorization made up for a unit test of code that takes one.
    #[cfg(test)]
    pub(crate) fn for_tests(reference: DocumentReference, right: Right) -> Self {
        Self { reference, right }
    }
}

impl Doors {
    /// Resolves `input` (with the tool's optional `wiki` argument; [escapes](crate::untrusted)
    /// read back) and authorizes `right` on it: reach gate, then rights as the caller, then the
    /// space filter. Does not read the store.
    pub fn authorize(
        &self,
        input: &str,
        wiki_param: Option<&str>,
        right: Right,
    ) -> Result<AuthorizedReference, ToolError> {
        let reference = self.resolve(input, wiki_param)?;
        self.admit(reference, right)
    }

    /// [`Doors::authorize`] for a tool that reads what it names: a reference into another wiki
    /// that does not exist, or that the caller may not view, is refused as that (after the
    /// reach gate, before the page's rights), so an agent that mistyped a wiki hears about the
    /// wiki, not "no permission" or "no such document". This endpoint's own wiki costs no
    /// lookup.
    pub async fn authorize_known(
        &self,
        input: &str,
        wiki_param: Option<&str>,
        right: Right,
    ) -> Result<AuthorizedReference, ToolError> {
        let reference = self.resolve(input, wiki_param)?;
        self.known_wiki(reference.wiki()).await?;
        self.admit(reference, right)
    }

    /// The wiki-qualified reference `input` names (with the tool's `wiki` argument), through
    /// the reach gate.
    fn resolve(
        &self,
        input: &str,
        wiki_param: Option<&str>,
    ) -> Result<DocumentReference, ToolError> {
        // A name a result showed escaped (`⟦U+200B⟧`) is read back as the one stored.
        let written = RelativeReference::parse(unescape(input).trim()).map_err(|error| {
            ToolError::new(format!(
                "Error: \"{}\" is not a valid reference ({error}). Write Space.Page, e.g. \
                 \"Sandbox.WebHome\"; escape a dot inside a name as \\.",
                fragment(input)
            ))
            .with_kind(ErrorKind::BadArgument)
        })?;
        let wiki_param = wiki_param.map(str::trim).filter(|p| !p.is_empty());
        let reference = match (&written.wiki, wiki_param) {
            (Some(prefix), Some(param)) if prefix.as_str() != param => {
                return Err(ToolError::new(format!(
                    "Error: the reference \"{}\" names wiki \"{prefix}\" but 'wiki' is \"{}\". \
                     Drop the prefix or make them agree.",
                    fragment(input),
                    fragment(param)
                ))
                .with_kind(ErrorKind::BadArgument));
            }
            (None, Some(_)) => {
                let wiki = self.single_wiki(wiki_param)?;
                written.in_wiki(&wiki)
            }
            _ => written.in_wiki(&self.wiki),
        };
        self.check_reach(reference.wiki())?;
        Ok(reference)
    }

    /// The caller's right and the space filter, on a resolved reference.
    fn admit(
        &self,
        reference: DocumentReference,
        right: Right,
    ) -> Result<AuthorizedReference, ToolError> {
        self.check_right(&reference, right)?;
        self.check_filter(&reference)?;
        Ok(AuthorizedReference { reference, right })
    }

    /// Reads one row of an authorized document, off the async workers. A document (or
    /// translation) that does not exist is an agent-facing error, reported only now that the
    /// caller is known to be allowed to see it.
    pub async fn read_document(
        &self,
        authorized: &AuthorizedReference,
        locale: Option<Locale>,
    ) -> Result<Document, ToolError> {
        let reference = authorized.reference.clone();
        let row = locale.clone();
        match self
            .blocking(move |store| store.document(&reference, row.as_ref()))
            .await?
        {
            Ok(Some(document)) => Ok(document),
            Ok(None) => Err(ToolError::new(match locale {
                None => format!(
                    "Error: the document \"{}\" does not exist.",
                    authorized.reference
                ),
                Some(locale) => format!(
                    "Error: the document \"{}\" has no \"{locale}\" translation.",
                    authorized.reference
                ),
            })
            .with_kind(ErrorKind::NotFound)),
            Err(error) => Err(store_failure("read the document", &error)),
        }
    }

    /// Whether the caller holds `right` on `reference` (rights only, no reach or filter).
    ///
    /// The MCP configuration documents (the endpoint's tools, guest flag and hidden spaces) are
    /// for the administrators of their wiki alone: anyone else holds no right on them, so every
    /// door (documents, rows, searches, objects of the class) treats them as any page the
    /// caller may not view.
    pub fn has_right(&self, reference: &DocumentReference, right: Right) -> bool {
        if is_configuration(reference) && !self.administers(reference.wiki()) {
            return false;
        }
        self.rights
            .decide(
                self.principal(),
                right,
                &RightScope::Page(reference.clone()),
            )
            .allowed
    }

    /// Whether the caller is an administrator of `wiki`.
    pub fn administers(&self, wiki: &WikiId) -> bool {
        self.rights
            .decide(
                self.principal(),
                Right::Admin,
                &RightScope::Wiki(wiki.clone()),
            )
            .allowed
    }

    fn check_right(&self, reference: &DocumentReference, right: Right) -> Result<(), ToolError> {
        if self.has_right(reference, right) {
            Ok(())
        } else {
            Err(ToolError::new(format!(
                "You do not have permission to {} \"{reference}\".",
                verb(right)
            ))
            .with_kind(ErrorKind::Forbidden))
        }
    }

    /// Whether this endpoint's space filter exposes `reference` (the filter step alone, no
    /// reach or rights).
    pub fn exposes(&self, reference: &DocumentReference) -> bool {
        self.filter.allows(reference)
    }

    /// Whether the space filter exposes some page that may live in `space` of `wiki` or below
    /// ([`SpaceFilter::exposes_space`](super::SpaceFilter::exposes_space)). For a tool that
    /// shows a space only through pages the row door passed one by one (get_tree's root whose
    /// home page the caller may not view, or the filter hides).
    pub fn exposes_space(&self, wiki: &WikiId, space: &SpacePath) -> bool {
        self.filter.exposes_space(wiki, space)
    }

    fn check_filter(&self, reference: &DocumentReference) -> Result<(), ToolError> {
        if self.exposes(reference) {
            Ok(())
        } else {
            Err(ToolError::new(format!(
                "Error: \"{reference}\" is outside the content this endpoint is configured to \
                 expose."
            ))
            .with_kind(ErrorKind::Forbidden))
        }
    }
}

fn verb(right: Right) -> &'static str {
    match right {
        Right::View => "view",
        Right::Edit => "edit",
        Right::Delete => "delete",
        Right::Admin => "administer",
    }
}
