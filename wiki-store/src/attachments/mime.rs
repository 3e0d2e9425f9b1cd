//! Media types of attachments: declared from the name, sniffed from the bytes.

/// Both media types the store keeps for an attachment version.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MediaTypes {
    /// What the file name's extension says (`application/octet-stream` when it says nothing).
    pub declared: String,
    /// What the leading bytes say, when they carry a known signature (text has none).
    pub sniffed: Option<String>,
}

impl MediaTypes {
    /// The type to act on: the bytes win over the name when they carry a signature, so a PNG
    /// named `notes.txt` is treated as an image and not inlined as text.
    pub fn effective(&self) -> &str {
        self.sniffed.as_deref().unwrap_or(&self.declared)
    }
}

/// Declares from `name` (mime_guess) and sniffs `bytes` (infer).
pub fn detect_media_types(name: &str, bytes: &[u8]) -> MediaTypes {
    let declared = mime_guess::from_path(name)
        .first_raw()
        .unwrap_or("application/octet-stream")
        .to_owned();
    let sniffed = infer::get(bytes).map(|kind| kind.mime_type().to_owned());
    MediaTypes { declared, sniffed }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PNG: &[u8] =
        b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x01\0\0\0\x01\x08\x06\0\0\0\x1f\x15\xc4\x89";

    #[test]
    fn text_is_declared_from_its_extension() {
        let types = detect_media_types("notes.txt", b"hello");
        assert_eq!(types.declared, "text/plain");
        assert_eq!(types.sniffed, None);
        assert_eq!(types.effective(), "text/plain");
    }

    #[test]
    fn a_signature_wins_over_a_misleading_name() {
        let types = detect_media_types("notes.txt", PNG);
        assert_eq!(types.declared, "text/plain");
        assert_eq!(types.effective(), "image/png");
    }

    #[test]
    fn an_unknown_extension_declares_octet_stream() {
        let types = detect_media_types("blob.unknownext", b"\x00\x01");
        assert_eq!(types.declared, "application/octet-stream");
    }
}
