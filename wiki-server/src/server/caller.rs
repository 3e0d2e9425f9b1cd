//! Who is calling, on which wiki: resolved from each request, never from the session.
//!
//! The HTTP transport's middleware resolves the `{wiki}` path segment and the bearer token of
//! every request and inserts a [`Caller`] into the request's extensions; the handler reads it
//! back from rmcp's `RequestContext.extensions`. The stdio transport has one fixed caller
//! instead. rmcp sessions are not bound to the URL they were opened on, so a session id opened on
//! one wiki must never decide which wiki (or user) a later request runs as: only the request does.

use wiki_store::model::wiki::WikiId;

use super::origin::CallOrigin;

/// The wiki whose endpoint received a request and the user it authenticated.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Caller {
    wiki: WikiId,
    user: Option<String>,
    origin: CallOrigin,
}

impl Caller {
    /// `user` (already authenticated: a bearer token resolved to this name) on `wiki`.
    pub fn user(wiki: WikiId, user: impl Into<String>) -> Self {
        Self {
            wiki,
            user: Some(user.into()),
            origin: CallOrigin::default(),
        }
    }

    /// The guest (a request without credentials) on `wiki`; its rights decide what it sees.
    pub fn guest(wiki: WikiId) -> Self {
        Self {
            wiki,
            user: None,
            origin: CallOrigin::default(),
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
