//! Asking the person behind the client, mid-call: how a call can reach them, and the clock that
//! stops while they think.
//!
//! MCP has two ways for a server to ask a question during a `tools/call`, and which one a call
//! can use depends on its client, not on the tool:
//!
//! - protocol 2026-07-28 forbids server-to-client requests: the call answers an
//!   **input-required** result (MRTR) carrying the question and an opaque request state, and
//!   the client retries the same call with the person's answer and that state
//!   ([`Elicitation::InputRequired`], with the retry's [`InputRound`]);
//! - older protocols send an `elicitation/create` request to the client on the call's own
//!   stream and wait for its answer: through rmcp's peer of the connection
//!   ([`Elicitation::Peer`], stdio), or through the transport's own route when the answer comes
//!   back on another request (streamable HTTP: [`Elicitation::Relayed`], an [`AskRelay`]);
//! - a client that declared no (form) elicitation capability cannot be asked at all
//!   ([`Elicitation::Unavailable`]), and neither can one whose call came on a transport that
//!   cannot carry a question to it and the answer back ([`Elicitation::Unreachable`]: stateless
//!   HTTP on an older protocol, where no answer could ever reach the waiting call).
//!
//! The transport decides ([`crate::call::ToolCall::from_rmcp`] reads the request's protocol and
//! the client's capabilities); a server's code (a confirmation of writes, say) reads
//! [`crate::context::ToolContext::elicitation`] and asks accordingly. A person answering takes
//! longer than a call may run, so [`CallClock::paused`] can stop the call's timeout while a
//! question is in flight (a server that must bound every call does not pause, and asks with the
//! patience the call has left).

use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use rmcp::model::{
    CallToolRequestParams, ClientCapabilities, ElicitRequestParams, ElicitResult,
    ElicitationAction, ElicitationSchema, InputRequiredResult, InputResponses, ProtocolVersion,
};
use rmcp::service::RequestContext;
use rmcp::{Peer, RoleServer};
use tokio::sync::Notify;
use tokio::time::Instant;

/// How the person behind this call's client can be asked a question.
#[derive(Clone, Default)]
#[non_exhaustive]
pub enum Elicitation {
    /// The client declared no form elicitation capability.
    #[default]
    Unavailable,
    /// The client declared form elicitation, but the call came on a transport that cannot
    /// carry the question to it and the answer back (a stateless HTTP request on a protocol
    /// before 2026-07-28): asking would wait for an answer that cannot arrive.
    Unreachable,
    /// Protocol 2026-07-28: answer an input-required result; on the retry, `Some` round holds
    /// the echoed request state and the answers.
    InputRequired(Option<InputRound>),
    /// An older protocol with a live peer: send `elicitation/create` and wait for the answer.
    Peer(Peer<RoleServer>),
    /// An older protocol on a transport that sends `elicitation/create` on the call's stream
    /// and routes the client's answer, which arrives on a request of its own, back to the call.
    Relayed(Arc<dyn AskRelay>),
}

/// Puts one question to the client on the call's stream and waits for its answer: what a
/// transport implements when the answer does not come back on the connection rmcp's peer reads
/// (streamable HTTP, where the client POSTs it).
pub trait AskRelay: Send + Sync {
    /// Sends `question` and waits at most `patience` for the answer; an error says why there
    /// is none ([`AskFailed::timed_out`] when `patience` ran out).
    fn ask(
        &self,
        question: ElicitRequestParams,
        patience: Duration,
    ) -> Pin<Box<dyn Future<Output = Result<Answer, AskFailed>> + Send + '_>>;
}

impl fmt::Debug for Elicitation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Unavailable => f.write_str("Unavailable"),
            Self::Unreachable => f.write_str("Unreachable"),
            Self::InputRequired(round) => f.debug_tuple("InputRequired").field(round).finish(),
            Self::Peer(_) => f.write_str("Peer(..)"),
            Self::Relayed(_) => f.write_str("Relayed(..)"),
        }
    }
}

/// What the client sent back when it retried a call after an input-required result.
#[derive(Debug, Clone, Default)]
pub struct InputRound {
    /// The request state the server put in its input-required result, echoed verbatim (or not
    /// at all); untrusted until the server verified it.
    pub request_state: Option<String>,
    /// The client's answers, by the keys of the server's input requests.
    pub responses: InputResponses,
}

impl InputRound {
    /// The answer to the elicitation keyed `key`, when the client sent one that parses.
    pub fn elicitation_answer(&self, key: &str) -> Option<ElicitResult> {
        self.responses
            .get(key)
            .and_then(|value| serde_json::from_value(value.clone()).ok())
    }
}

/// A person's answer to a yes/no question.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Answer {
    /// They accepted.
    Accepted,
    /// They declined.
    Declined,
    /// They dismissed the question without choosing.
    Cancelled,
}

impl From<ElicitationAction> for Answer {
    fn from(action: ElicitationAction) -> Self {
        match action {
            ElicitationAction::Accept => Answer::Accepted,
            ElicitationAction::Decline => Answer::Declined,
            // Cancel, and any action a later protocol adds: not a yes.
            _ => Answer::Cancelled,
        }
    }
}

/// Why a question got no answer.
#[derive(Debug)]
pub struct AskFailed {
    reason: String,
    timed_out: bool,
}

impl AskFailed {
    /// No answer, for `reason` (the client refused the question, the stream closed).
    pub fn new(reason: impl Into<String>) -> Self {
        Self {
            reason: reason.into(),
            timed_out: false,
        }
    }

    /// No answer within the patience the question was asked with.
    pub fn timed_out() -> Self {
        Self {
            reason: "no answer in time".to_owned(),
            timed_out: true,
        }
    }

    /// Whether the patience ran out (rather than the client failing to answer).
    pub fn is_timeout(&self) -> bool {
        self.timed_out
    }
}

impl fmt::Display for AskFailed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.reason)
    }
}

impl Elicitation {
    /// How a call of an rmcp request can ask: from the request's protocol version and the
    /// client's (per-request or handshake) capabilities, with the retry's round when it is
    /// one.
    pub fn of_request(
        request: &CallToolRequestParams,
        context: &RequestContext<RoleServer>,
    ) -> Self {
        if !supports_form(context.client_capabilities().as_ref()) {
            return Self::Unavailable;
        }
        let modern = context
            .protocol_version()
            .is_some_and(|version| version >= ProtocolVersion::V_2026_07_28);
        if modern {
            let retried = request.request_state.is_some() || request.input_responses.is_some();
            Self::InputRequired(retried.then(|| InputRound {
                request_state: request.request_state.clone(),
                responses: request.input_responses.clone().unwrap_or_default(),
            }))
        } else {
            Self::Peer(context.peer.clone())
        }
    }
}

/// Whether `capabilities` include form elicitation (a bare `elicitation: {}` means form): what
/// a transport reads of a handshake to know whether the client can be asked.
pub fn supports_form(capabilities: Option<&ClientCapabilities>) -> bool {
    capabilities
        .and_then(|capabilities| capabilities.elicitation.as_ref())
        .is_some_and(|elicitation| elicitation.form.is_some() || elicitation.url.is_none())
}

/// The `elicitation/create` parameters of a yes/no question: `message` and an empty form, so
/// the client shows the message with its accept and decline buttons.
pub fn yes_no_question(message: impl Into<String>) -> ElicitRequestParams {
    ElicitRequestParams::FormElicitationParams {
        meta: None,
        message: message.into(),
        requested_schema: ElicitationSchema::builder()
            .build()
            .unwrap_or_else(|_| unreachable!("an empty form is a valid elicitation schema")),
    }
}

/// Asks `question` on `peer` and waits (at most `patience`) for the person's answer.
pub async fn ask_peer(
    peer: &Peer<RoleServer>,
    question: ElicitRequestParams,
    patience: Duration,
) -> Result<Answer, AskFailed> {
    match peer
        .create_elicitation_with_timeout(question, Some(patience))
        .await
    {
        Ok(result) => Ok(Answer::from(result.action)),
        Err(rmcp::service::ServiceError::Timeout { .. }) => Err(AskFailed::timed_out()),
        Err(error) => Err(AskFailed::new(error.to_string())),
    }
}

/// An input-required result asking `question` under `key`, with the sealed `request_state`
/// the client must echo.
pub fn input_required(
    key: &str,
    question: ElicitRequestParams,
    request_state: String,
) -> InputRequiredResult {
    let request = rmcp::model::ElicitRequest::new(question);
    InputRequiredResult::new(
        Some(
            [(
                key.to_owned(),
                rmcp::model::InputRequest::Elicitation(request),
            )]
            .into(),
        ),
        Some(request_state),
    )
}

/// The call's clock: the timeout counts the time a tool runs, not the time a person takes to
/// answer its question. Shared by the call path (which waits on it) and the asking code
/// (which pauses it); a fresh clock is never paused. It reads tokio's clock, so a test on
/// paused time sees pauses of virtual seconds.
#[derive(Debug, Clone, Default)]
pub struct CallClock {
    inner: Arc<ClockInner>,
}

#[derive(Debug, Default)]
struct ClockInner {
    state: Mutex<ClockState>,
    resumed: Notify,
}

#[derive(Debug, Default)]
struct ClockState {
    /// Time spent in finished pauses.
    paused: Duration,
    /// When the pause in progress began, and how many are open.
    open: Option<(Instant, usize)>,
}

/// Stops the clock until dropped ([`CallClock::paused`]).
#[must_use = "the clock runs again when the guard is dropped"]
pub struct Paused {
    inner: Arc<ClockInner>,
}

impl CallClock {
    /// Stops the clock until the guard is dropped.
    pub fn paused(&self) -> Paused {
        let mut state = self.lock();
        state.open = Some(match state.open {
            Some((since, count)) => (since, count + 1),
            None => (Instant::now(), 1),
        });
        Paused {
            inner: Arc::clone(&self.inner),
        }
    }

    /// Resolves when `budget` of running time has elapsed since `started`, paused time not
    /// counted.
    pub(crate) async fn expired(&self, started: Instant, budget: Duration) {
        loop {
            let resumed = self.inner.resumed.notified();
            let deadline = {
                let state = self.lock();
                match state.open {
                    Some(_) => None,
                    None => Some(started + budget + state.paused),
                }
            };
            match deadline {
                None => resumed.await,
                Some(at) => {
                    tokio::select! {
                        () = tokio::time::sleep_until(at) => {
                            // A pause that began and ended meanwhile moved the deadline on.
                            let state = self.lock();
                            if state.open.is_none() && Instant::now() >= started + budget + state.paused {
                                return;
                            }
                        }
                        () = resumed => {}
                    }
                }
            }
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, ClockState> {
        self.inner
            .state
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }
}

impl Drop for Paused {
    fn drop(&mut self) {
        let mut state = self
            .inner
            .state
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        match state.open {
            Some((since, 1)) => {
                state.paused += since.elapsed();
                state.open = None;
            }
            Some((since, count)) => state.open = Some((since, count - 1)),
            None => {}
        }
        drop(state);
        self.inner.resumed.notify_waiters();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test(start_paused = true)]
    async fn a_pause_moves_the_deadline_by_its_length() {
        let clock = CallClock::default();
        let started = Instant::now();
        let budget = Duration::from_secs(10);
        let waiter = tokio::spawn({
            let clock = clock.clone();
            async move { clock.expired(started, budget).await }
        });
        tokio::time::sleep(Duration::from_secs(5)).await;
        let pause = clock.paused();
        tokio::time::sleep(Duration::from_secs(60)).await;
        assert!(!waiter.is_finished(), "the clock ran while paused");
        drop(pause);
        tokio::time::sleep(Duration::from_secs(4)).await;
        assert!(!waiter.is_finished(), "the pause was not credited");
        tokio::time::sleep(Duration::from_secs(2)).await;
        assert!(waiter.is_finished(), "the clock never expired");
    }

    #[test]
    fn form_elicitation_is_what_a_bare_capability_means() {
        use rmcp::model::{ElicitationCapability, UrlElicitationCapability};
        let with = |elicitation: Option<ElicitationCapability>| {
            let mut capabilities = ClientCapabilities::default();
            capabilities.elicitation = elicitation;
            supports_form(Some(&capabilities))
        };
        assert!(with(Some(ElicitationCapability::default())));
        assert!(!with(None));
        let mut url_only = ElicitationCapability::default();
        url_only.url = Some(UrlElicitationCapability::default());
        assert!(!with(Some(url_only)));
        assert!(!supports_form(None));
    }
}
