//! [`ToolContext`]: who calls, and whatever the server attached to this one call.
//!
//! The framework knows one thing about a caller: its user name, or none for the guest (a caller
//! without credentials, which never runs a write tool). Everything else a server's tools need
//! (a wiki server's access doors and links, a database pool, a tenant) travels as a typed
//! extension, as in `http`'s and axum's request extensions: the server inserts one value per
//! call, and an extension trait in the server's crate gives tools named accessors over it
//! (`wiki_tool_sdk::WikiContext::doors`). So the framework's API names no server's types, and a
//! server adds what its tools need without a change here.

use http::Extensions;

use crate::elicit::{CallClock, Elicitation};
use crate::signals::{CancellationToken, ProgressReporter, ScanSignals};

/// The name audit lines and messages give a caller without credentials.
pub const GUEST: &str = "guest";

/// The context of one tool call: the caller, and the extensions its server attached.
///
/// The server builds one per call from the request (never from an MCP session) and hands it to
/// [`call`](crate::call::call); tools receive it by reference. A context built in a test or a
/// bench with [`ToolContext::new`] carries no extensions, so a server's accessors over them
/// refuse with their own agent-facing message.
#[derive(Debug, Clone, Default)]
pub struct ToolContext {
    user: Option<String>,
    extensions: Extensions,
    cancellation: CancellationToken,
    progress: ProgressReporter,
    elicitation: Elicitation,
    clock: CallClock,
}

impl ToolContext {
    /// A context for `user`, or for the guest when `None`, with no extensions yet.
    pub fn new(user: Option<String>) -> Self {
        Self {
            user,
            extensions: Extensions::new(),
            cancellation: CancellationToken::new(),
            progress: ProgressReporter::default(),
            elicitation: Elicitation::Unavailable,
            clock: CallClock::default(),
        }
    }

    /// This call's stop signal: cancelled when the client cancels the request, goes away, or
    /// the call times out. A tool doing long work checks it between steps
    /// (`is_cancelled()`) or hands it to the blocking work it starts; the call path stops
    /// polling the tool as soon as it fires either way.
    pub fn cancellation(&self) -> &CancellationToken {
        &self.cancellation
    }

    /// Whether this call was cancelled (or timed out): stop and return.
    pub fn is_cancelled(&self) -> bool {
        self.cancellation.is_cancelled()
    }

    /// Reports that `done` of `total` (when known) items are done, with what is happening:
    /// `notifications/progress` when the request carried a `progressToken`, throttled to at
    /// most ~10 a second (the first and the final `done == total` always go); nothing, at no
    /// cost, otherwise.
    pub fn progress(&self, done: u64, total: Option<u64>, message: impl FnOnce() -> String) {
        self.progress.report(done, total, message);
    }

    /// This call's progress reporter, to hand to blocking work (a store scan) that reports
    /// from another thread.
    pub fn progress_reporter(&self) -> ProgressReporter {
        self.progress.clone()
    }

    /// Signals for a scan this call runs off the async workers, counting `what` (e.g.
    /// "candidates authorized"): progress per item, the final count, and a stop on
    /// cancellation.
    pub fn scan_signals(&self, what: &'static str) -> ScanSignals {
        ScanSignals::new(self.progress.clone(), self.cancellation.clone(), what)
    }

    /// The call path's half: this call's signals, from its request.
    pub(crate) fn with_signals(
        mut self,
        cancellation: CancellationToken,
        progress: ProgressReporter,
    ) -> Self {
        self.cancellation = cancellation;
        self.progress = progress;
        self
    }

    /// How this call can ask its client's person a question ([`crate::elicit`]).
    pub fn elicitation(&self) -> &Elicitation {
        &self.elicitation
    }

    /// This call's clock: pause it ([`CallClock::paused`]) while a person answers, so the
    /// wait does not count against the call's timeout.
    pub fn clock(&self) -> &CallClock {
        &self.clock
    }

    /// The call path's half: how this call can ask, from its request.
    pub(crate) fn with_elicitation(mut self, elicitation: Elicitation) -> Self {
        self.elicitation = elicitation;
        self
    }

    /// The authenticated user's name, or `None` for the guest.
    pub fn user(&self) -> Option<&str> {
        self.user.as_deref()
    }

    /// Whether the caller is the guest (no credentials).
    pub fn is_guest(&self) -> bool {
        self.user.is_none()
    }

    /// The name audit lines give the caller: the user's, or [`GUEST`].
    pub fn user_or_guest(&self) -> &str {
        self.user.as_deref().unwrap_or(GUEST)
    }

    /// Attaches `value` as this call's extension of type `T` (replacing one of that type).
    pub fn with_extension<T: Clone + Send + Sync + 'static>(mut self, value: T) -> Self {
        self.extensions.insert(value);
        self
    }

    /// The extension of type `T` the server attached, if any.
    pub fn extension<T: Send + Sync + 'static>(&self) -> Option<&T> {
        self.extensions.get::<T>()
    }

    /// Every extension of this call.
    pub fn extensions(&self) -> &Extensions {
        &self.extensions
    }

    /// Every extension of this call, to add or take one.
    pub fn extensions_mut(&mut self) -> &mut Extensions {
        &mut self.extensions
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, Clone, PartialEq)]
    struct Tenant(&'static str);

    #[test]
    fn extensions_are_typed_and_absent_until_attached() {
        let ctx = ToolContext::new(Some("alice".to_owned()));
        assert_eq!(ctx.extension::<Tenant>(), None);
        let ctx = ctx.with_extension(Tenant("acme"));
        assert_eq!(ctx.extension::<Tenant>(), Some(&Tenant("acme")));
        assert_eq!(ctx.user(), Some("alice"));
        assert_eq!(ctx.user_or_guest(), "alice");
        assert!(!ctx.is_guest());
    }

    #[test]
    fn the_guest_has_no_user_name() {
        let guest = ToolContext::new(None);
        assert!(guest.is_guest());
        assert_eq!(guest.user(), None);
        assert_eq!(guest.user_or_guest(), GUEST);
    }
}
