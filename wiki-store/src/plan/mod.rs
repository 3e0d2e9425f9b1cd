//! The store's write rules, for every backend: input plus the current rows in, a validated plan
//! or a typed refusal out.
//!
//! A backend's write is three moves: check the input here before opening a transaction
//! (`validate_*`: sizes, names, reserved documents and classes), read the rows a rule needs
//! inside the transaction and hand them over (as views, nothing copied), then execute what the
//! plan says in SQL: rows and revisions to write, links to replace, the change event to queue.
//! Everything that decides (which row a save addresses, the compare-and-set, whether a write
//! changes anything, the next version, coercion of object values, the recycle bin's refusals)
//! is decided here, once, so SQLite and PostgreSQL cannot drift apart; the conformance suite
//! (`tests/conformance`) proves that they execute the plans alike.
//!
//! Planning functions are pure: no I/O, no clock, no randomness except where a rule mints a
//! secret (token and Password digests, in [`crate::secret`]). Reads follow the same split where a
//! rule is not SQL: [`crate::scan`] pages authorized rows, [`crate::stored`] decodes columns.

pub(crate) mod account;
pub(crate) mod attachment;
pub(crate) mod class;
pub(crate) mod config;
pub(crate) mod document;
pub(crate) mod identity;
pub(crate) mod lease;
pub(crate) mod object;
pub(crate) mod owner;
pub(crate) mod secret;
pub(crate) mod text;
pub(crate) mod trash;
pub(crate) mod vector;
pub(crate) mod wiki;
