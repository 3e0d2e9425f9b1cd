//! Who is calling, on which wiki: resolved from each request, never from the session.
//!
//! The HTTP transport's middleware resolves the `{wiki}` path segment and the bearer token of
//! every request and inserts a [`Caller`] into the request's extensions; the handler reads it
//! back from rmcp's `RequestContext.extensions`. The stdio transport has one fixed caller
//! instead. rmcp sessions are not bound to the URL they were opened on, so a session id opened on
//! one wiki must never decide which wiki (or user) a later request runs as: only the request does.
//!
//! A caller may also be narrowed below its wiki's policy (`narrowing.rs`): by the client's own
//! request, or by the scope of the token that authenticated it.

use std::net::IpAddr;
use std::sync::Arc;

use wiki_store::model::wiki::WikiId;
use wiki_tool_sdk::heavy::Share;

use super::narrowing::Narrowing;
use super::origin::CallOrigin;

/// The wiki whose endpoint received a request, the user it authenticated, what the transport
/// knows of the request, the client address it came from (over HTTP), and what narrows that
/// user's tools on this request.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Caller {
    wiki: WikiId,
    user: Option<String>,
    origin: CallOrigin,
    address: Option<IpAddr>,
    /// `None` when nothing narrows the caller (the common case, which allocates nothing).
    narrowing: Option<Arc<Narrowing>>,
}

impl Caller {
    /// `user` (already authenticated: a bearer token resolved to this name) on `wiki`.
    pub fn user(wiki: WikiId, user: impl Into<String>) -> Self {
        Self {
            wiki,
            user: Some(user.into()),
            origin: CallOrigin::default(),
            address: None,
            narrowing: None,
        }
    }

    /// The guest (a request without credentials) on `wiki`; its rights decide what it sees.
    pub fn guest(wiki: WikiId) -> Self {
        Self {
            wiki,
            user: None,
            origin: CallOrigin::default(),
            address: None,
            narrowing: None,
        }
    }

    /// The caller with what the transport knows of its request (its id, for the audit line).
    #[must_use]
    pub fn with_origin(mut self, origin: CallOrigin) -> Self {
        self.origin = origin;
        self
    }

    /// What the transport knows of the request.
    pub fn origin(&self) -> &CallOrigin {
        &self.origin
    }

    /// This caller, its request come from `address`.
    #[must_use]
    pub fn from_address(mut self, address: IpAddr) -> Self {
        self.address = Some(address);
        self
    }

    /// This caller, narrowed by `narrowing` (nothing changes when it limits nothing).
    pub fn narrowed(mut self, narrowing: Narrowing) -> Self {
        self.narrowing = (!narrowing.is_none()).then(|| Arc::new(narrowing));
        self
    }

    /// What narrows this caller below its wiki's policy, if anything does.
    pub fn narrowing(&self) -> Option<&Narrowing> {
        self.narrowing.as_deref()
    }

    /// The wiki whose endpoint received the request.
    pub fn wiki(&self) -> &WikiId {
        &self.wiki
    }

    /// The authenticated user's name, or `None` for the guest.
    pub fn user_name(&self) -> Option<&str> {
        self.user.as_deref()
    }

    /// Whether this is the guest.
    pub fn is_guest(&self) -> bool {
        self.user.is_none()
    }
}

impl Caller {
    /// Whose turn this caller's heavy work takes: the user's, wherever it calls from; the
    /// guest's by client address, so guests at one address share one turn and guests at
    /// another have their own.
    pub fn heavy_share(&self) -> Share {
        match (&self.user, self.address) {
            (Some(user), _) => Share::user(user),
            (None, Some(address)) => Share::address(address),
            (None, None) => Share::unattributed(),
        }
    }
}
