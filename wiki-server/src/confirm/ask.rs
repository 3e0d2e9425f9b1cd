//! Asking: one call's [`Confirmation`], which the write door consults before every write.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

use mcp_runtime::call::ToolCall;
use mcp_runtime::elicit::{
    self, Answer, AskFailed, Elicitation, InputRound, ask_peer, yes_no_question,
};
use mcp_runtime::prelude::ToolError;
use tokio::time::Instant;
use wiki_store::Store;

use wiki_tool_sdk::confirm::{Asked, Confirm, Proposal};

use super::state::{Binding, StateRefusal, StateSeal, arguments_digest, redeem};
use wiki_tool_sdk::links::LinkKey;

/// The key of the one input request a confirmation asks.
const QUESTION_KEY: &str = "confirm_write";

/// What a question leaves of the call's time when it gives up waiting, so that the call ends
/// with the question's refusal (nothing written, ask again) rather than with its timeout.
const ANSWER_MARGIN: Duration = Duration::from_millis(500);

/// What one call needs to ask before it writes: which tool on which wiki for whom, with what
/// arguments, whether it must ask, and how it can. Built by [`crate::Manager::call`] for a
/// write tool's call and carried by its doors; a call that needs no confirmation carries none.
pub(crate) struct Confirmation {
    tool: &'static str,
    user: String,
    wiki: String,
    /// The tool is declared `confirm`: a write that cannot be confirmed is refused, whatever
    /// the wiki's configuration says.
    always: bool,
    /// The wiki's `confirm_writes`: a write that cannot be confirmed is refused.
    required: bool,
    arguments: [u8; 32],
    elicitation: Elicitation,
    /// When the call's time runs out: a question waits no longer (the clock is not paused, so
    /// a call is never held past its timeout, whoever is asked).
    deadline: Instant,
    /// The call's timeout, for the message of a question that got no answer.
    timeout: Duration,
    seal: Option<StateSeal>,
    /// How long a question's state stays valid.
    ttl: Duration,
    store: Arc<dyn Store>,
    /// The person said yes once in this call: the call's later writes run on it.
    confirmed: AtomicBool,
    /// How many writes the question answered yes described, and how many asked so far: a
    /// tool writing more than it announced is logged (its contributor should announce them).
    covered: AtomicUsize,
    asked: AtomicUsize,
}

impl std::fmt::Debug for Confirmation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Confirmation")
            .field("tool", &self.tool)
            .field("wiki", &self.wiki)
            .field("always", &self.always)
            .field("required", &self.required)
            .field("elicitation", &self.elicitation)
            .finish_non_exhaustive()
    }
}

/// What [`Confirmation::new`] reads of the call and its server.
pub(crate) struct Asking<'a> {
    pub(crate) tool: &'static str,
    /// The tool is declared `confirm`.
    pub(crate) always: bool,
    /// The wiki's `confirm_writes`.
    pub(crate) required: bool,
    pub(crate) user: &'a str,
    pub(crate) wiki: &'a str,
    pub(crate) request: &'a ToolCall,
    /// The call's timeout, counted from now.
    pub(crate) timeout: Duration,
    pub(crate) link_key: Option<&'a LinkKey>,
    pub(crate) ttl: Duration,
    pub(crate) store: Arc<dyn Store>,
}

impl Confirmation {
    /// The confirmation of a write tool's call, or `None` when it need not ask.
    pub(crate) fn new(asking: Asking<'_>) -> Option<Self> {
        (asking.always || asking.required).then(|| Self {
            tool: asking.tool,
            user: asking.user.to_owned(),
            wiki: asking.wiki.to_owned(),
            always: asking.always,
            required: asking.required,
            arguments: arguments_digest(&asking.request.arguments),
            elicitation: asking.request.elicitation.clone(),
            deadline: Instant::now() + asking.timeout,
            timeout: asking.timeout,
            seal: asking.link_key.map(StateSeal::new),
            ttl: asking.ttl,
            store: asking.store,
            confirmed: AtomicBool::new(false),
            covered: AtomicUsize::new(0),
            asked: AtomicUsize::new(0),
        })
    }
}

impl Confirm for Confirmation {
    /// One yes covers the whole call (see [`Confirm`]). A tool that writes twice therefore
    /// never has its second write refused after the first landed (on 2026-07-28 the answer and
    /// its state are single-use, bound to the first question's targets, and could not cover a
    /// second one).
    fn ask<'a>(&'a self, proposal: &'a Proposal, base: &'a str) -> Asked<'a> {
        Box::pin(async move {
            if self.confirmed.load(Ordering::Acquire) {
                let asked = self.asked.fetch_add(1, Ordering::AcqRel) + 1;
                if asked > self.covered.load(Ordering::Acquire) {
                    tracing::warn!(
                        tool = self.tool,
                        writes = asked,
                        "a write ran on a confirmation whose question did not describe it; the \
                         tool should announce its writes first (WriteDoor::announce)"
                    );
                }
                return Ok(());
            }
            self.ask_covering(proposal, base, proposal.writes()).await?;
            // This write is the first the question covered.
            self.asked.fetch_add(1, Ordering::AcqRel);
            Ok(())
        })
    }

    fn ask_covering<'a>(
        &'a self,
        proposal: &'a Proposal,
        base: &'a str,
        writes: usize,
    ) -> Asked<'a> {
        Box::pin(async move {
            if self.confirmed.load(Ordering::Acquire) {
                return Ok(());
            }
            self.ask_person(proposal, base).await?;
            self.covered.store(writes, Ordering::Release);
            self.asked.store(0, Ordering::Release);
            self.confirmed.store(true, Ordering::Release);
            Ok(())
        })
    }
}

impl Confirmation {
    /// [`Confirm::ask`] for the call's first write.
    async fn ask_person(&self, proposal: &Proposal, base: &str) -> Result<(), ToolError> {
        let question = proposal.question(self.tool, &self.wiki);
        match &self.elicitation {
            Elicitation::Peer(peer) => {
                let answer = ask_peer(peer, yes_no_question(question), self.patience()).await;
                self.answered(answer, proposal)
            }
            Elicitation::Relayed(relay) => {
                let answer = relay.ask(yes_no_question(question), self.patience()).await;
                self.answered(answer, proposal)
            }
            Elicitation::InputRequired(None) => {
                let seal = self.seal()?;
                let state = seal.seal(&self.binding(base), self.ttl);
                Err(ToolError::input_required(elicit::input_required(
                    QUESTION_KEY,
                    yes_no_question(question),
                    state,
                )))
            }
            Elicitation::InputRequired(Some(round)) => self.redeem(round, proposal, base).await,
            // Unavailable, unreachable, or a way of asking this server does not know: a call
            // only gets here when it must be confirmed, so it is refused.
            Elicitation::Unreachable => Err(self.cannot_ask(
                "it declared elicitation, but this call came over stateless HTTP on a \
                 protocol before 2026-07-28 in a form that cannot carry a question to your \
                 client and its answer back (a question rides on the call's event stream: the \
                 client must declare elicitation at initialize, send the Mcp-Session-Id it got \
                 back, accept application/json and text/event-stream, and send a plain \
                 tools/call with a Content-Length)",
            )),
            _ => Err(self.cannot_ask("it declared no elicitation capability (form mode)")),
        }
    }

    /// The retry of an input-required confirmation: the state must verify for this very call
    /// and be redeemed for the first time (whatever the answer: a state is usable once), and
    /// the answer be yes.
    async fn redeem(
        &self,
        round: &InputRound,
        proposal: &Proposal,
        base: &str,
    ) -> Result<(), ToolError> {
        let refused = |why: &str| {
            ToolError::unconfirmed(format!(
                "Error: this write needs the confirmation of the person using your client, and \
                 {why}. Nothing was saved; call the tool again (without requestState) to ask \
                 again."
            ))
        };
        let Some(state) = round.request_state.as_deref() else {
            return Err(refused("the retry carried no requestState"));
        };
        let nonce = match self.seal()?.open(state, &self.binding(base)) {
            Ok(nonce) => nonce,
            Err(StateRefusal::Expired) => {
                return Err(refused(&format!(
                    "the confirmation expired (a question is valid {})",
                    lifetime(self.ttl)
                )));
            }
            Err(StateRefusal::Invalid) => {
                return Err(refused(
                    "the requestState sent back is not one this server issued for this call \
                     (same user, wiki, tool, arguments and page version)",
                ));
            }
        };
        let Some(answer) = round
            .elicitation_answer(QUESTION_KEY)
            .map(|answer| Answer::from(answer.action))
        else {
            return Err(refused("the retry carried no answer to the question"));
        };
        // Redeemed whatever the answer: a declined question's state cannot be sent back later
        // with a yes.
        let store = Arc::clone(&self.store);
        let ttl = self.ttl;
        let first = tokio::task::spawn_blocking(move || redeem(&*store, &nonce, ttl))
            .await
            .map_err(|_| {
                ToolError::new("The server is shutting down; retry the call in a moment.")
            })?;
        match first {
            Ok(true) if answer == Answer::Accepted => Ok(()),
            Ok(true) => Err(self.declined(proposal)),
            Ok(false) => Err(refused("this confirmation was already used once")),
            Err(error) => {
                tracing::warn!(%error, "could not record a confirmation as used");
                Err(ToolError::new(
                    "Error: the server could not record the confirmation. Nothing was saved; \
                     retry in a moment.",
                ))
            }
        }
    }

    /// The refusal of a write that must be confirmed, from a client that cannot be asked, for
    /// the reason `why`. A tool declared `confirm` asks whatever the wiki's configuration says,
    /// so its refusal points at the client only: turning `confirm_writes` off would not help.
    fn cannot_ask(&self, why: &str) -> ToolError {
        if self.always {
            return ToolError::unconfirmed(format!(
                "Error: {tool} always asks the person using your client to confirm it first (the \
                 tool is declared to confirm; no setting turns that off), and your client cannot \
                 ask: {why}. Nothing was saved. Use a client that supports elicitation (form \
                 mode) and declares it, so the person can answer the question.",
                tool = self.tool
            ));
        }
        ToolError::unconfirmed(format!(
            "Error: the wiki \"{wiki}\" requires a person to confirm every write, and your \
             client cannot ask: {why}. Nothing was saved. Use a client that supports \
             elicitation (form mode), or ask an administrator to turn confirmation off: \
             `wiki-mcp config set --wiki {wiki} confirm_writes=false`.",
            wiki = self.wiki
        ))
    }

    /// How long a question may wait: what is left of the call's time, less a margin.
    fn patience(&self) -> Duration {
        self.deadline
            .saturating_duration_since(Instant::now())
            .saturating_sub(ANSWER_MARGIN)
    }

    /// The outcome of a question put to the client: a yes, a no, or no answer at all.
    fn answered(
        &self,
        answer: Result<Answer, AskFailed>,
        proposal: &Proposal,
    ) -> Result<(), ToolError> {
        match answer {
            Ok(Answer::Accepted) => Ok(()),
            Ok(_) => Err(self.declined(proposal)),
            Err(error) => {
                tracing::info!(tool = self.tool, %error, "a confirmation got no answer");
                let why = if error.is_timeout() {
                    format!(
                        "no answer within the call's time limit of {}",
                        lifetime(self.timeout)
                    )
                } else {
                    "the client did not deliver it".to_owned()
                };
                Err(ToolError::unconfirmed(format!(
                    "Error: this write needs the confirmation of the person using your client, \
                     and the question got no answer ({why}). Nothing was saved; call the tool \
                     again to ask again."
                )))
            }
        }
    }

    fn declined(&self, proposal: &Proposal) -> ToolError {
        ToolError::declined(format!(
            "The person using your client declined: {} was not done. Nothing was saved. Do not \
             retry the same change unless they ask for it.",
            proposal.what
        ))
    }

    fn seal(&self) -> Result<&StateSeal, ToolError> {
        self.seal.as_ref().ok_or_else(|| {
            ToolError::new(
                "Error: the server cannot sign a confirmation yet. Nothing was saved; retry in \
                 a moment.",
            )
        })
    }

    fn binding(&self, base: &str) -> Binding {
        Binding {
            user: self.user.clone(),
            wiki: self.wiki.clone(),
            tool: self.tool.to_owned(),
            arguments: self.arguments,
            base: base.to_owned(),
        }
    }
}

/// `5 minutes`, `1 second`: how long a question stays valid, in words.
fn lifetime(ttl: Duration) -> String {
    let seconds = ttl.as_secs().max(1);
    if seconds.is_multiple_of(60) {
        wiki_tool_sdk::confirm::question::plural((seconds / 60) as usize, "minute", "minutes")
    } else {
        wiki_tool_sdk::confirm::question::plural(seconds as usize, "second", "seconds")
    }
}
