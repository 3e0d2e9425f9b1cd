//! What a caller's skills are, in 32 bytes: the change streams compare it before and after a
//! commit to tell a listener that its skills changed (`notifications/resources/list_changed`).
//!
//! The stamp is read from what the store keeps beside the content, never the attachments'
//! bytes: the skill pages the caller may view (so a page created, deleted or moved, or a
//! right that hides or shows one, changes it), each page's version (any save of the page),
//! and the name, version and size of each attachment (a new, replaced or deleted file). The
//! digests `skills/list` reports change exactly when these do.

use std::sync::Arc;

use sha2::{Digest, Sha256};
use wiki_store::Store;
use wiki_store::reference::SpacePath;
use wiki_tool_sdk::access::Doors;

use super::skill_pages;
use crate::server::{Caller, Manager, WikiServer};

/// The stamp of the skills `caller` may view on `server`, or `None` when the store did not
/// answer within the call timeout (nothing is known then; the cause is logged).
pub(crate) async fn skills_stamp(
    manager: &Manager,
    server: &WikiServer,
    caller: &Caller,
) -> Option<[u8; 32]> {
    let Some(space) = manager.settings().skills_space.clone() else {
        return Some(Sha256::digest(b"").into());
    };
    let doors = manager.doors(server, caller);
    let store = Arc::clone(manager.store());
    let work = tokio::task::spawn_blocking(move || read_stamp(&*store, &doors, &space));
    match tokio::time::timeout(manager.settings().call_timeout, work).await {
        Ok(Ok(Ok(stamp))) => Some(stamp),
        Ok(Ok(Err(error))) => {
            tracing::debug!(wiki = %server.wiki(), %error, "reading the skills' stamp failed");
            None
        }
        Ok(Err(_)) | Err(_) => None,
    }
}

/// The blocking part of [`skills_stamp`].
fn read_stamp(store: &dyn Store, doors: &Doors, space: &SpacePath) -> wiki_store::Result<[u8; 32]> {
    let mut hash = Sha256::new();
    for (reference, name) in skill_pages(store, doors, space, None)? {
        let Some(document) = store.document(&reference, None)? else {
            continue;
        };
        hash.update(format!("{name}\n{}\n", document.version));
        for attachment in store.attachments(&reference)? {
            hash.update(format!(
                "\t{}\n{}\n{}\n",
                attachment.name, attachment.version, attachment.size
            ));
        }
        hash.update(b"\0");
    }
    Ok(hash.finalize().into())
}
