//! What a server hands each call of a wiki tool: the one [`WikiCall`] extension of its
//! `ToolContext`, which [`WikiContext`](crate::WikiContext) reads back.
//!
//! Tool authors never build it: the server (wiki-server's manager) attaches one to every call
//! it runs, and the harness of its `testing` feature does the same. Everything the doors need
//! from the server arrives here as a value: the doors themselves (built for the caller, with the
//! call's [`crate::confirm::Confirm`] when its writes must be confirmed), the public URL
//! links start with, the farm's link key, whether this call prints links at all, and whose
//! turn the call's heavy work takes.

use std::sync::Arc;

use crate::access::Doors;
use crate::confirm::Confirm;
use crate::heavy::Share;
use crate::links::LinkKey;

/// The extension a server attaches to each call: cheap to clone (`Arc`s).
#[derive(Debug, Clone)]
pub struct WikiCall {
    pub(crate) doors: Doors,
    pub(crate) public_url: Option<Arc<str>>,
    /// `None` only while the farm's key is unknown (a call cannot be served then anyway).
    pub(crate) link_key: Option<Arc<LinkKey>>,
    /// Whether this call's output carries signed links ([`WikiCall::with_links`]).
    pub(crate) links: bool,
    /// Whose turn its heavy work takes; `None`: the caller's user name (or the unknown
    /// callers' share).
    pub(crate) share: Option<Share>,
}

impl WikiCall {
    /// A call through `doors`, whose links (once [turned on](WikiCall::with_links)) start with
    /// `public_url` and are signed with `link_key` (no links without both).
    // The server's, not a tool author's: hidden from the SDK's documentation.
    #[doc(hidden)]
    pub fn new(doors: Doors, public_url: Option<Arc<str>>, link_key: Option<Arc<LinkKey>>) -> Self {
        Self {
            doors,
            public_url,
            link_key,
            links: false,
            share: None,
        }
    }

    /// This call's output carries signed links when `links` (the wiki's `links` setting, or the
    /// call asked for them); off by default: they cost an agent tokens it rarely uses.
    pub fn with_links(mut self, links: bool) -> Self {
        self.links = links;
        self
    }

    /// This call, its heavy work taking `share`'s turn (the server knows the guest's client
    /// address; a tool does not).
    pub fn sharing(mut self, share: Share) -> Self {
        self.share = Some(share);
        self
    }

    /// This call, its writes asking `confirmation` first.
    pub fn confirming(&mut self, confirmation: Arc<dyn Confirm>) {
        self.doors = self.doors.clone().with_confirmation(confirmation);
    }
}
