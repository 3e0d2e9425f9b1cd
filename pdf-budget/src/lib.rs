//! The text of an untrusted PDF, extracted within budgets a caller sets ([`Limits`]): bytes its
//! streams decode to, objects, work and time, and characters kept.
//!
//! Extraction is pure Rust (pdf-extract over lopdf), and pdf-extract cannot be interrupted from
//! outside: once it runs a page, it runs the page to the end. So the file is bounded BEFORE it
//! runs, in three steps, each of which can refuse it with a reason a reader understands
//! ([`Refusal`]):
//! 1. the cross-reference chain and lopdf's load, with every stream's decoded size and the
//!    object count charged by a bounded decoder before lopdf inflates anything (`load`);
//! 2. a walk of every page that mirrors what pdf-extract will do and charges it to the work
//!    budget, per operation, per font selection and per glyph shown, forms drawn again and again
//!    included (`walk`); pages past the budget are not read;
//! 3. extraction of the planned pages only, one at a time, into a writer that stops at
//!    [`Limits::max_chars`] characters, through an output device that checks the time budget and
//!    the caller's stop signal every few glyphs inside a page, so neither waits for a long page
//!    to end (`output`).
//!
//! An extraction the caller stops ([`Signals::stopped`]) returns its [`Progress`]: the text of
//! the pages read and the time spent. Handed back to [`extract_text`], it resumes at the first
//! page not read, and the time budget counts the time of every run. So a caller that caches
//! progress never reads a page twice, and a file that needs more time than the budget ends
//! with the pages read and a note saying where it stopped, never with nothing.
//!
//! A malformed page may make pdf-extract panic: each page runs under `catch_unwind`, and the
//! text of the pages before it is kept. Nothing here knows about the caller: no wiki, no
//! server, no async runtime.

mod decode;
mod extract;
mod load;
mod output;
mod refusal;
mod syntax;
#[cfg(feature = "testing")]
pub mod testing;
mod walk;

use std::time::Duration;

pub use extract::{Cost, Extracted, Extraction, Outcome, Progress, Signals, extract_text};
pub use refusal::Refusal;

/// What one extraction may take. [`Limits::default`] holds the values chosen for a server on a
/// few cores.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Bytes the file's streams may decode to, all together.
    pub max_decoded_bytes: usize,
    /// Objects the file may hold (object streams' members included).
    pub max_objects: usize,
    /// Work the pages may take, charged per operation, operand, shown string and glyph, and per
    /// font built, in units of about 100 ns of one core (the walk's constants say what each
    /// costs). The default is about two seconds of pdf-extract; the walk that measures it takes
    /// at most as much again.
    pub max_work: usize,
    /// Time the extraction of one file may take, every resumed run together.
    pub max_time: Duration,
    /// Characters of text kept; the rest of the file is not read.
    pub max_chars: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_decoded_bytes: 64 * 1024 * 1024,
            max_objects: 200_000,
            max_work: 20_000_000,
            max_time: Duration::from_secs(10),
            max_chars: 100_000,
        }
    }
}
