//! The text of a PDF attachment, for get_attachment: [`pdf_budget`] within the process's
//! budgets, in a heavy slot, kept per attachment version ([`super::pdf_cache`]).
//!
//! A call stopped (cancelled, or out of its time) while it extracts keeps what it read: the
//! job itself stores its progress in the cache before it returns, since a call that timed out
//! is no longer there to store it, and the next call resumes at the first page not read. With
//! the reader's own time budget counting every run of a file, one file never holds a slot
//! longer than that budget, however often it is asked for and abandoned.

use pdf_budget::{Extracted, Limits, Outcome, Signals, extract_text};
use wiki_tool_sdk::access::Doors;
use wiki_tool_sdk::prelude::*;
use wiki_tool_sdk::store::model::attachment::AttachmentInfo;

use super::content;
use super::pdf_cache::{Key, PDF_TEXTS};
use crate::seams::heavy::run_heavy;
use crate::seams::lookup::Found;

/// The budgets of one extraction: decoded bytes and objects from the process's budgets
/// (`serve --pdf-max-inflated-mb`, `--pdf-max-objects`), work, time and characters the
/// reader's defaults.
pub(super) fn pdf_limits() -> Limits {
    let budgets = wiki_tool_sdk::budgets::budgets();
    Limits {
        max_decoded_bytes: budgets.pdf_max_inflated_bytes,
        max_objects: budgets.pdf_max_objects,
        ..Limits::default()
    }
}

/// A call's scan signals as the reader's: a page is a step of progress, a cancelled call stops.
struct CallSignals(ScanSignals);

impl Signals for CallSignals {
    fn page_read(&mut self) -> bool {
        self.0.step()
    }

    fn stopped(&self) -> bool {
        self.0.is_cancelled()
    }
}

/// The text of a PDF attachment version: from the cache, or extracted in a heavy-work slot
/// (the bytes are read only on a miss), resuming where a stopped extraction left off.
pub(super) async fn extracted_text(
    ctx: &ToolContext,
    doors: &Doors,
    found: &Found,
    info: &AttachmentInfo,
) -> Result<Extracted, ToolError> {
    let key = Key::of(found.reference(), info);
    if let Some(Outcome::Done(extracted)) = PDF_TEXTS.get(&key).as_deref() {
        return Ok(extracted.clone());
    }
    let bytes = content(doors, found, &info.name).await?;
    let mut signals = CallSignals(ctx.scan_signals("pages extracted"));
    let outcome = run_heavy(ctx, "extracting PDF text", move || {
        // Read again in the slot: another call may have finished or advanced it meanwhile.
        let resume = match PDF_TEXTS.get(&key) {
            Some(done) if matches!(*done, Outcome::Done(_)) => return done,
            Some(stopped) => match &*stopped {
                Outcome::Stopped(progress) => Some(progress.clone()),
                Outcome::Done(_) => None,
            },
            None => None,
        };
        let extraction = extract_text(&bytes, &pdf_limits(), resume, &mut signals);
        signals.0.finish();
        PDF_TEXTS.advance(key, extraction.outcome)
    })
    .await?;
    match &*outcome {
        Outcome::Done(extracted) => Ok(extracted.clone()),
        Outcome::Stopped(progress) => Err(ToolError::new(format!(
            "Error: the call was cancelled while the PDF's text was extracted. The {} page{} \
             read so far are kept: the next call continues from there.",
            progress.pages_read(),
            if progress.pages_read() == 1 { "" } else { "s" }
        ))
        .with_kind(ErrorKind::Cancelled)),
    }
}
