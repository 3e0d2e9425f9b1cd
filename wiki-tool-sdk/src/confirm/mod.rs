//! Human confirmation of writes, as the write door sees it: a [`Proposal`] says in a person's
//! words what a write will do, and the call's [`Confirm`] asks.
//!
//! The write door ([`crate::access::write`]) builds the proposal of every write and asks the
//! call's confirmation before it writes, so a contributed write tool is confirmed without a
//! line of its own. Whether a call must ask, and how (an input-required result with a sealed
//! state, an elicitation request on a live peer, or a refusal when the client cannot ask), is
//! the server's: it hands the doors a [`Confirm`] for each call that must ask
//! (`Doors::with_confirmation`), and none otherwise.

pub mod question;

use std::future::Future;
use std::pin::Pin;

use mcp_runtime::prelude::ToolError;

pub use question::Proposal;

/// What asking answers: `Ok` to write, or the refusal to answer the call with, nothing written.
pub type Asked<'a> = Pin<Box<dyn Future<Output = Result<(), ToolError>> + Send + 'a>>;

/// One call's confirmation: asks the person behind the client before the door writes.
///
/// One yes covers the whole call: the person approved this tool with these arguments, and the
/// question describes the writes the tool announced
/// ([`crate::access::write::WriteDoor::announce`]), or its first write when it announced none.
pub trait Confirm: Send + Sync + std::fmt::Debug {
    /// Asks whether `proposal` may happen to the target whose version was read as `base`
    /// (`new` for a row to be created). Once the call is confirmed, `Ok` at once.
    fn ask<'a>(&'a self, proposal: &'a Proposal, base: &'a str) -> Asked<'a>;

    /// Asks about `proposal`, which describes the next `writes` writes of the call; a yes
    /// covers them (and, as [`Confirm::ask`] says, the rest of the call).
    fn ask_covering<'a>(
        &'a self,
        proposal: &'a Proposal,
        base: &'a str,
        writes: usize,
    ) -> Asked<'a>;
}
