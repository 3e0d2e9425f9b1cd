//! The text of a PDF attachment, for get_attachment (PDF text, capped).
//!
//! Extraction is pure Rust (`pdf-extract`, over lopdf), and it cannot be interrupted: once it
//! runs, it runs to the end. So the file is bounded BEFORE it runs, in three steps, each of
//! which can refuse it with a reason the agent reads:
//! 1. `pdf_budget::check_structure` and `pdf_budget::load`: every stream's decoded size and the
//!    object count, charged with a bounded decoder before lopdf inflates anything;
//! 2. `pdf_walk::plan`: the work pdf-extract would do page by page (forms drawn again and again,
//!    forms that draw themselves, fonts rebuilt on every page);
//! 3. extraction of the planned pages only, one at a time, into a writer that stops at
//!    [`PDF_TEXT_CAP`] characters.
//!
//! A malformed page may make pdf-extract panic: each page runs under `catch_unwind`, and the
//! text of the pages before it is kept.

use std::fmt::{self, Write as _};
use std::panic::{AssertUnwindSafe, catch_unwind};

use mcp_runtime::prelude::ScanSignals;
use pdf_extract::{ConvertToFmt, PlainTextOutput, output_doc_page};

use super::pdf_budget::{Refusal, check_structure, load, max_decoded_bytes};
use super::pdf_decode::Budget;
use super::pdf_walk::{Plan, plan};

/// The most characters of extracted text kept (about 100,000); the last window says so.
pub(super) const PDF_TEXT_CAP: usize = 100_000;

/// What extraction made of a PDF.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Extracted {
    /// Its text.
    Text {
        /// The text, at most [`PDF_TEXT_CAP`] characters.
        text: String,
        /// Whether the cap cut it.
        capped: bool,
        /// Which pages were left out, when the budget left some out.
        note: Option<String>,
    },
    /// No text: scanned images only, or a damaged file.
    NoText,
    /// Not extracted, for this reason.
    Refused(Refusal),
}

impl Extracted {
    /// What keeping this costs, in bytes (the cache's weight).
    pub(super) fn weight(&self) -> usize {
        match self {
            Self::Text { text, note, .. } => text.len() + note.as_ref().map_or(0, String::len),
            Self::NoText | Self::Refused(_) => 0,
        }
    }
}

/// Extracts the text of `bytes` within the budgets, one page a step of `scan` (progress);
/// `None` once the call was cancelled (the pages read so far are dropped, never cached).
pub(super) fn pdf_text(bytes: &[u8], scan: &mut ScanSignals) -> Option<Extracted> {
    let extracted = extract(bytes, scan);
    scan.finish();
    extracted
}

fn extract(bytes: &[u8], scan: &mut ScanSignals) -> Option<Extracted> {
    let mut budget = Budget::new(max_decoded_bytes());
    let checked = check_structure(bytes, &mut budget).and_then(|()| load(bytes, &mut budget));
    let document = match checked {
        Ok(document) => document,
        Err(Refusal::Unreadable) => return Some(Extracted::NoText),
        Err(refusal) => return Some(Extracted::Refused(refusal)),
    };
    let plan = match plan(&document) {
        Ok(plan) => plan,
        Err(refusal) => return Some(Extracted::Refused(refusal)),
    };
    let mut writer = Capped::new(PDF_TEXT_CAP);
    for &page in &plan.pages {
        if !scan.step() {
            return None;
        }
        let mut output = PlainTextOutput::new(&mut writer);
        // A panic or an error ends this page; the text before it is kept.
        let _ = catch_unwind(AssertUnwindSafe(|| {
            output_doc_page(&document, &mut output, page)
        }));
        if writer.full {
            break;
        }
        if !writer.text.is_empty() && !writer.text.ends_with('\n') {
            let _ = writer.write_str("\n");
        }
    }
    let text = writer.text.trim();
    if text.is_empty() {
        return Some(Extracted::NoText);
    }
    Some(Extracted::Text {
        text: text.to_owned(),
        capped: writer.full,
        note: (!writer.full).then(|| pages_note(&plan)).flatten(),
    })
}

/// Which pages the budget left out, for the last window's footer.
fn pages_note(plan: &Plan) -> Option<String> {
    let mut parts = Vec::new();
    if !plan.skipped.is_empty() {
        let listed: Vec<String> = plan.skipped.iter().take(10).map(u32::to_string).collect();
        let more = plan.skipped.len().saturating_sub(10);
        parts.push(format!(
            "page{} {}{} could not be read within the extraction budget",
            if plan.skipped.len() == 1 { "" } else { "s" },
            listed.join(", "),
            if more > 0 {
                format!(" (+{more} more)")
            } else {
                String::new()
            }
        ));
    }
    if let Some(page) = plan.stopped_at {
        parts.push(format!(
            "pages {page} to {} were not read: the file passes the extraction budget",
            plan.total
        ));
    }
    if parts.is_empty() {
        return None;
    }
    let mut note = parts.join("; ");
    if let Some(first) = note.get(..1) {
        let upper = first.to_uppercase();
        note.replace_range(..1, &upper);
    }
    note.push_str(". Download the file for them.");
    Some(note)
}

/// The text writer: stops accepting once [`PDF_TEXT_CAP`] characters are written, which makes
/// pdf-extract end the page it is on.
struct Capped {
    text: String,
    chars: usize,
    cap: usize,
    full: bool,
}

impl Capped {
    fn new(cap: usize) -> Self {
        Self {
            text: String::new(),
            chars: 0,
            cap,
            full: false,
        }
    }
}

impl fmt::Write for Capped {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        if self.full {
            return Err(fmt::Error);
        }
        // Leading whitespace (pdf-extract starts pages with line feeds) does not count.
        let s = if self.text.is_empty() {
            s.trim_start()
        } else {
            s
        };
        let left = self.cap - self.chars;
        match s.char_indices().nth(left) {
            None => {
                self.chars += s.chars().count();
                self.text.push_str(s);
                Ok(())
            }
            Some((cut, _)) => {
                self.text.push_str(&s[..cut]);
                self.chars = self.cap;
                self.full = true;
                Err(fmt::Error)
            }
        }
    }
}

impl<'a> ConvertToFmt for &'a mut Capped {
    type Writer = &'a mut Capped;

    fn convert(self) -> Self::Writer {
        self
    }
}

#[cfg(test)]
mod tests {
    use mcp_runtime::prelude::{CancellationToken, ProgressReporter};

    use super::*;

    /// A one-page PDF showing `text` (ASCII, no parentheses), with exact xref offsets.
    pub(crate) fn pdf_with(text: &str) -> Vec<u8> {
        let stream = format!("BT /F1 12 Tf 10 100 Td ({text}) Tj ET");
        let objects = [
            "<< /Type /Catalog /Pages 2 0 R >>".to_owned(),
            "<< /Type /Pages /Kids [3 0 R] /Count 1 >>".to_owned(),
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 144] /Contents 4 0 R /Resources \
             << /Font << /F1 5 0 R >> >> >>"
                .to_owned(),
            format!("<< /Length {} >> stream\n{stream}\nendstream", stream.len()),
            "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>".to_owned(),
        ];
        let mut pdf = String::from("%PDF-1.4\n");
        let mut offsets = Vec::new();
        for (index, object) in objects.iter().enumerate() {
            offsets.push(pdf.len());
            pdf.push_str(&format!("{} 0 obj {object} endobj\n", index + 1));
        }
        let xref = pdf.len();
        pdf.push_str("xref\n0 6\n0000000000 65535 f \n");
        for offset in offsets {
            pdf.push_str(&format!("{offset:010} 00000 n \n"));
        }
        pdf.push_str(&format!(
            "trailer << /Size 6 /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n"
        ));
        pdf.into_bytes()
    }

    /// What `bytes` extract to, outside any call.
    fn extracted(bytes: &[u8]) -> Extracted {
        pdf_text(bytes, &mut ScanSignals::detached())
            .unwrap_or_else(|| panic!("a detached extraction is never cancelled"))
    }

    #[test]
    fn a_cancelled_extraction_stops_before_its_first_page() {
        let cancellation = CancellationToken::new();
        cancellation.cancel();
        let mut scan = ScanSignals::new(ProgressReporter::default(), cancellation, "pages");
        assert_eq!(pdf_text(&pdf_with("Hello PDF"), &mut scan), None);
        assert_eq!(scan.done(), 0);
    }

    fn text_of(extracted: Extracted) -> (String, bool) {
        match extracted {
            Extracted::Text { text, capped, .. } => (text, capped),
            other => panic!("no text: {other:?}"),
        }
    }

    #[test]
    fn text_is_extracted_and_capped() {
        assert_eq!(
            text_of(extracted(&pdf_with("Hello PDF"))),
            ("Hello PDF".to_owned(), false)
        );
        let long = "x".repeat(PDF_TEXT_CAP + 500);
        let (text, capped) = text_of(extracted(&pdf_with(&long)));
        assert!(capped);
        assert_eq!(text.chars().count(), PDF_TEXT_CAP);
    }

    #[test]
    fn garbage_is_no_text_not_a_panic() {
        assert_eq!(extracted(b"%PDF-1.4\nnot really a pdf"), Extracted::NoText);
        assert_eq!(extracted(b""), Extracted::NoText);
    }
}
