//! The text of a PDF attachment, for get_attachment (facts §1.8: PDF text, capped).
//!
//! Extraction is pure Rust (`pdf-extract`, over lopdf). A malformed file may make it panic, so it
//! runs under `catch_unwind`: a bad upload is a message for the agent, never an internal error.

use std::panic::{AssertUnwindSafe, catch_unwind};

/// The most characters of extracted text kept (facts §1.8: ~100,000); the last window says so.
pub(super) const PDF_TEXT_CAP: usize = 100_000;

/// The extracted text, capped, and whether the cap cut it; `None` when the file yields no text
/// (malformed, encrypted, or scanned images only).
pub(super) fn pdf_text(bytes: &[u8]) -> Option<(String, bool)> {
    let extracted = catch_unwind(AssertUnwindSafe(|| {
        pdf_extract::extract_text_from_mem(bytes)
    }));
    // An extraction error and a panic alike mean "no text": the agent is told to download.
    let Ok(Ok(text)) = extracted else {
        return None;
    };
    let text = text.trim();
    if text.is_empty() {
        return None;
    }
    match text.char_indices().nth(PDF_TEXT_CAP) {
        Some((cut, _)) => Some((text[..cut].to_owned(), true)),
        None => Some((text.to_owned(), false)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn garbage_is_no_text_not_a_panic() {
        assert_eq!(pdf_text(b"%PDF-1.4\nnot really a pdf"), None);
        assert_eq!(pdf_text(b""), None);
    }
}
