//! Human confirmation of writes: before a write runs, the person behind the agent's client is
//! asked, in plain words, whether it may.
//!
//! **When**: the tool is declared `#[mcp_tool(write, confirm)]` (the bundled deletes), or the
//! wiki's configuration says `confirm_writes=true` (every write of every tool, bundled or
//! contributed). It is asked from the write door ([`wiki_tool_sdk::access::write`]), which every write
//! passes through and which knows the target row, its version and the size of the change, so a
//! contributed write tool is confirmed without a line of its own.
//!
//! **How**, by what the client can do ([`mcp_runtime::elicit::Elicitation`]):
//! - protocol 2026-07-28: the call answers an input-required result carrying the question and a
//!   sealed request state (`state`: HMAC-signed with a key derived from the farm's link key,
//!   bound to the user, wiki, tool, a digest of the canonical arguments and the target's
//!   version as read, valid five minutes, redeemed once across every replica); the client
//!   retries with the person's answer and the state, and the write runs then, once;
//! - older protocols with a live peer (stdio): an `elicitation/create` request on the call's
//!   stream, waiting at most what is left of the call's time (the timeout is not paused: no
//!   call is held past it);
//! - a client that cannot ask: refused, nothing written, with the message that says why (no
//!   elicitation capability, or a stateless HTTP request on an older protocol, which cannot
//!   carry the question and its answer) and what corrects it: a client that declares
//!   elicitation, or, on a wiki with `confirm_writes=true`, the command that turns it off. A
//!   tool declared `confirm` is refused so on every wiki (no setting turns its question off),
//!   exactly as every write is on a wiki that requires confirmation. Such a call never waits
//!   for an answer that cannot arrive. The answer comes from the client either way (a client
//!   can always answer yes for its user), so what confirmation buys is that a person who can
//!   be asked is and a client that cannot ask does not write, not a guarantee against the
//!   client.
//!
//! Declined or dismissed: nothing written, an `isError` result saying so, audit `declined`. No
//! confirmation to be had, or a forged, replayed, expired or foreign state: nothing written,
//! audit `unconfirmed`.

mod ask;
pub(crate) mod state;

pub use state::STATE_TTL;

pub(crate) use ask::{Asking, Confirmation};

/// What the catalog and the initialize instructions of a wiki with `confirm_writes=true` say.
pub const CONFIRM_WRITES_NOTE: &str = "Every write on this wiki asks the person using your \
     client to confirm it first (the wiki's confirm_writes setting): a client without \
     elicitation support cannot write here.";

/// What the manual page of a write tool says on a wiki with `confirm_writes=true`.
pub const CONFIRM_NOTE: &str = "Before it writes, this tool asks the person using your client \
     to confirm the change, described in words (the page, its version, the size of the change \
     or what will be deleted). Declined: nothing is written and the result says so; do not \
     retry the same change unless they ask for it. This wiki requires the confirmation: a \
     client that cannot ask is refused, nothing written.";

/// What the manual page of a tool declared `confirm` says on a wiki that does not require
/// confirmation: it always asks, and a client that cannot ask is refused.
pub const CONFIRM_ALWAYS_NOTE: &str = "Before it writes, this tool always asks the person using \
     your client to confirm the change, described in words (the page, its version, what will be \
     deleted). Declined: nothing is written and the result says so; do not retry the same change \
     unless they ask for it. A client that cannot ask (it declared no elicitation capability, or, \
     over HTTP before protocol 2026-07-28, it did not declare elicitation at initialize and send \
     back the Mcp-Session-Id it got) is refused, nothing written, on every wiki.";
