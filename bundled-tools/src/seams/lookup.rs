//! Finding the document a reference names, in the order that leaks nothing: the
//! door first (reach, rights, space filter, as the caller), existence only then. A reference to
//! a missing page that has a space home of the same name gets a "Did you mean" suggestion, and
//! the suggestion goes through the door too, so it never names a page the caller may not see.
//! A page in the recycle bin is not missing: the answer says who deleted it, when, and how it
//! comes back.

use wiki_tool_sdk::access::{AuthorizedReference, Doors, store_failure};
use wiki_tool_sdk::prelude::*;
use wiki_tool_sdk::store::model::document::DocumentLocales;
use wiki_tool_sdk::store::reference::DocumentReference;
use wiki_tool_sdk::store::rights::Right;
use wiki_tool_sdk::untrusted::fragment;

use super::deleted::deleted_error;

/// A document the caller may read, and the locales it exists in.
#[derive(Debug, Clone)]
pub(crate) struct Found {
    /// The reference, authorized for [`Right::View`].
    pub(crate) authorized: AuthorizedReference,
    /// The default language and the translations.
    pub(crate) locales: DocumentLocales,
}

impl Found {
    /// The resolved, wiki-qualified reference.
    pub(crate) fn reference(&self) -> &DocumentReference {
        self.authorized.reference()
    }
}

/// Authorizes `reference` (with the tool's `wiki` argument) for viewing, then checks that the
/// document exists (a wiki that does not exist is refused as that, before the page's rights):
/// when it is in the recycle bin, the deletion and how it comes back; else
/// `No such document: "<ref>".`, with a suggestion when one is visible.
pub(crate) async fn find_document(
    doors: &Doors,
    reference: &str,
    wiki: Option<&str>,
) -> Result<Found, ToolError> {
    let authorized = doors.authorize_known(reference, wiki, Right::View).await?;
    match locales(doors, authorized.reference()).await? {
        Some(locales) => Ok(Found {
            authorized,
            locales,
        }),
        None => match doors.deleted_document(&authorized).await? {
            Some(entry) => Err(deleted_error(doors, &entry)),
            None => Err(ToolError::new(missing(doors, authorized.reference()).await)
                .with_kind(ErrorKind::NotFound)),
        },
    }
}

async fn locales(
    doors: &Doors,
    reference: &DocumentReference,
) -> Result<Option<DocumentLocales>, ToolError> {
    let reference = reference.clone();
    doors
        .blocking(move |store| store.document_locales(&reference))
        .await?
        .map_err(|error| store_failure("read the document", &error))
}

/// The message for a missing document: `Page` may have been meant as the space `Page`, whose
/// home is `Page.WebHome`.
async fn missing(doors: &Doors, reference: &DocumentReference) -> String {
    let mut message = format!(
        "No such document: \"{}\".",
        fragment(&reference.to_string())
    );
    if let Some(home) = space_home_of(reference) {
        let visible = doors
            .authorize(&home.to_string(), None, Right::View)
            .is_ok();
        if visible && matches!(locales(doors, &home).await, Ok(Some(_))) {
            message.push_str(&format!(
                " Did you mean \"{}\"?",
                fragment(&home.to_string())
            ));
        }
    }
    message
}

/// `Space.Page` -> `Space.Page.WebHome`; none for a home page itself.
fn space_home_of(reference: &DocumentReference) -> Option<DocumentReference> {
    if reference.is_home() {
        return None;
    }
    let space = reference.space().child(reference.name()).ok()?;
    Some(space.home(reference.wiki()))
}
