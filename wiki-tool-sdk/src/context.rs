//! [`WikiContext`]: what a wiki tool reaches through its `ToolContext`.
//!
//! The framework's context knows the caller and carries typed extensions; the server attaches
//! one [`WikiCall`] to every call it runs: the doors built for this caller on this wiki and the
//! link settings. This trait reads it back under names a tool author expects, so a tool writes
//! `ctx.doors()?` and never sees the extension map. Outside a served call (a context built in a
//! test) there is no `WikiCall`: the doors refuse with an agent-facing message, and links are
//! not printed.

use std::future::Future;
use std::sync::Arc;

use mcp_runtime::prelude::{ErrorKind, ToolContext, ToolError};
use wiki_store::model::user::GUEST_USER;
use wiki_store::model::wiki::WikiId;
use wiki_store::reference::DocumentReference;

use crate::access::{Doors, StoreReader, store_failure};
use crate::heavy::Share;
use crate::links::LinkPage;
use crate::serving::WikiCall;

mod sealed {
    /// Only the framework's `ToolContext` is a wiki context.
    pub trait Sealed {}
    impl Sealed for mcp_runtime::ToolContext {}
}

/// The wiki side of a tool's context: `use wiki_tool_sdk::prelude::*;` brings it into scope.
///
/// Tools reach content only through [`WikiContext::doors`]: the reach gate, the caller's rights
/// and the space filter, in that order. Store work runs off the async workers
/// ([`WikiContext::store_call`]).
pub trait WikiContext: sealed::Sealed {
    /// The access doors of this call: the only way from a reference to content.
    fn doors(&self) -> Result<&Doors, ToolError>;

    /// The wiki whose endpoint received the call; `None` outside a served call.
    fn wiki(&self) -> Option<&WikiId>;

    /// Whether this endpoint may reach other wikis (`wiki` arguments, `list_wikis`).
    fn reach(&self) -> bool;

    /// The name rights are checked for: the user's, or the guest's.
    fn principal_name(&self) -> &str;

    /// The public base URL links in tool output start with (`serve --public-url`), if known.
    fn public_url(&self) -> Option<&str>;

    /// The signed URL of `page` of `reference` for this caller, through this endpoint (see
    /// [`crate::links`]): it expires, and the page re-checks the caller's view right when it
    /// is opened. `None` when links are off for this call (the default: a wiki turns them on
    /// with its `links` setting, a call with its `_meta` key `wiki-mcp/links`), without a
    /// public URL, or outside a served call: tools then print no link, so every tool's link
    /// lines and `url` fields follow the one setting.
    fn link(&self, page: LinkPage, reference: &DocumentReference) -> Option<String>;

    /// What [`WikiContext::link`] signs with, to sign links away from the call (a page rendered
    /// on a heavy slot names its targets there). `None` where `link` gives `None`.
    fn link_signer(&self) -> Option<crate::links::Signer>;

    /// Whose turn this call's heavy work takes ([`crate::heavy`]): the user's, or for the
    /// guest its client address's (as the server says), else one share for every unknown
    /// caller. Pass it to [`crate::heavy::run_heavy`].
    fn heavy_share(&self) -> Share;

    /// Runs `f` on the store's reads ([`StoreReader`]) off the async workers; a store error
    /// becomes the fixed
    /// "Could not `<verb>`" message (cause logged, never shown). For reads that are not by
    /// reference (lists, classes); documents go through [`Doors::authorize`].
    fn store_call<T, F>(
        &self,
        verb: &str,
        f: F,
    ) -> impl Future<Output = Result<T, ToolError>> + Send
    where
        T: Send + 'static,
        F: FnOnce(&StoreReader<'_>) -> wiki_store::Result<T> + Send + 'static;
}

impl WikiContext for ToolContext {
    fn doors(&self) -> Result<&Doors, ToolError> {
        let call = wiki_call(self);
        if let Some(call) = call {
            call.doors.bind_cancellation(self.cancellation());
        }
        call.map(|call| &call.doors).ok_or_else(|| {
            ToolError::new(
                "Could not reach the wiki store from this call. Retry; if it keeps failing, tell \
                 an administrator (the details are in the server log).",
            )
            .with_kind(ErrorKind::Internal)
        })
    }

    fn wiki(&self) -> Option<&WikiId> {
        wiki_call(self).map(|call| call.doors.wiki())
    }

    fn reach(&self) -> bool {
        wiki_call(self).is_some_and(|call| call.doors.reach())
    }

    fn principal_name(&self) -> &str {
        self.user().unwrap_or(GUEST_USER)
    }

    fn public_url(&self) -> Option<&str> {
        wiki_call(self)?.public_url.as_deref()
    }

    fn link(&self, page: LinkPage, reference: &DocumentReference) -> Option<String> {
        Some(self.link_signer()?.url(page, reference))
    }

    fn link_signer(&self) -> Option<crate::links::Signer> {
        let call = wiki_call(self).filter(|call| call.links)?;
        Some(crate::links::Signer::new(
            call.public_url.clone()?,
            Arc::clone(call.link_key.as_ref()?),
            call.doors.wiki().clone(),
            self.user().map(str::to_owned),
            call.doors.clock(),
        ))
    }

    fn heavy_share(&self) -> Share {
        if let Some(share) = wiki_call(self).and_then(|call| call.share.clone()) {
            return share;
        }
        match self.user() {
            Some(user) => Share::user(user),
            None => Share::unattributed(),
        }
    }

    async fn store_call<T, F>(&self, verb: &str, f: F) -> Result<T, ToolError>
    where
        T: Send + 'static,
        F: FnOnce(&StoreReader<'_>) -> wiki_store::Result<T> + Send + 'static,
    {
        self.doors()?
            .blocking(f)
            .await?
            .map_err(|error| store_failure(verb, &error))
    }
}

fn wiki_call(ctx: &ToolContext) -> Option<&WikiCall> {
    ctx.extension::<WikiCall>()
}
