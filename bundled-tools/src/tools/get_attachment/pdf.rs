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

    /// A one-page PDF showing `text` (ASCII, no parentheses), with exact xref offsets.
    fn pdf_with(text: &str) -> Vec<u8> {
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

    #[test]
    fn text_is_extracted_and_capped() {
        assert_eq!(
            pdf_text(&pdf_with("Hello PDF")),
            Some(("Hello PDF".to_owned(), false))
        );
        let long = "x".repeat(PDF_TEXT_CAP + 500);
        let (text, capped) = pdf_text(&pdf_with(&long)).unwrap_or_default();
        assert!(capped);
        assert_eq!(text.chars().count(), PDF_TEXT_CAP);
    }

    #[test]
    fn garbage_is_no_text_not_a_panic() {
        assert_eq!(pdf_text(b"%PDF-1.4\nnot really a pdf"), None);
        assert_eq!(pdf_text(b""), None);
    }
}
