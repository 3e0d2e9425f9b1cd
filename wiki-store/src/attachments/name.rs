//! Attachment names: what may be stored as a file name on a document.

use crate::error::{InvalidInput, StoreError};
use crate::reference::look_alike_problem;

/// The longest attachment name, in characters.
pub const MAX_ATTACHMENT_NAME: usize = 255;

/// Checks an attachment name.
///
/// Refused, as the reference does: `/`, `\` and `;` (path and parameter separators), control
/// characters (C0, DEL, C1), the bidi embedding and override characters U+202A-U+202E, the bidi
/// isolates U+2066-U+2069 and the marks U+200E/U+200F. Also refused here: U+061C (the Arabic
/// letter mark, another bidi control), the line and paragraph separators U+2028/U+2029 (they
/// would split a listing line), an empty name, `.` and `..`, names over 255 characters, and
/// [look-alikes](look_alike_problem): leading or trailing whitespace, invisible format
/// characters (zero-width space, BOM, …). ZWJ and ZWNJ (U+200D, U+200C) are allowed: scripts
/// and emoji need them.
pub fn validate_attachment_name(name: &str) -> Result<(), StoreError> {
    let refuse = |reason: String| {
        StoreError::Invalid(InvalidInput::Name {
            what: "attachment name",
            reason,
        })
    };
    if name.is_empty() || name == "." || name == ".." {
        return Err(refuse("an attachment needs a file name".to_owned()));
    }
    if name.chars().count() > MAX_ATTACHMENT_NAME {
        return Err(refuse(format!(
            "a file name has at most {MAX_ATTACHMENT_NAME} characters"
        )));
    }
    if let Some(bad) = name.chars().find(|&c| is_forbidden(c)) {
        return Err(refuse(format!(
            "the character U+{:04X} is not allowed in a file name",
            u32::from(bad)
        )));
    }
    // Names like these are read back only by exact match, so padding, and an invisible
    // character make a file no one finds (or a look-alike of another).
    if let Some(reason) = look_alike_problem(name) {
        return Err(refuse(reason));
    }
    Ok(())
}

fn is_forbidden(c: char) -> bool {
    matches!(c, '/' | '\\' | ';') || is_unsafe_text_char(c)
}

/// Characters that can forge or hide text when a name is echoed on a line of output: controls,
/// bidi embeddings, overrides, isolates and marks, and the line and paragraph separators.
pub(crate) fn is_unsafe_text_char(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{202A}'..='\u{202E}'
                | '\u{2066}'..='\u{2069}'
                | '\u{200E}'
                | '\u{200F}'
                | '\u{061C}'
                | '\u{2028}'
                | '\u{2029}'
        )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ordinary_names_pass() {
        for good in [
            "report.pdf",
            "photo 2026.JPG",
            "no-extension",
            "résumé.txt",
            "日本語.md",
            "family\u{200D}emoji.png",
            "non\u{200C}joiner.txt",
            ".hidden",
            "a..b",
        ] {
            assert!(validate_attachment_name(good).is_ok(), "{good:?}");
        }
    }

    #[test]
    fn separators_controls_and_bidi_are_refused() {
        let long = "a".repeat(MAX_ATTACHMENT_NAME + 1);
        for bad in [
            "",
            ".",
            "..",
            "a/b",
            "a\\b",
            "a;b",
            "a\nb",
            "a\rb",
            "a\tb",
            "a\u{0}b",
            "a\u{7F}b",
            "a\u{85}b",
            "a\u{202A}b",
            "a\u{202E}fdp.exe",
            "a\u{2066}b",
            "a\u{2069}b",
            "a\u{200E}b",
            "a\u{200F}b",
            "a\u{061C}b",
            "a\u{2028}b",
            "a\u{2029}b",
            " notes.txt",
            "notes.txt ",
            "notes\u{200B}.txt",
            "\u{FEFF}notes.txt",
            long.as_str(),
        ] {
            assert!(validate_attachment_name(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn the_error_names_the_offending_character() {
        let error = validate_attachment_name("x\u{202E}y")
            .err()
            .map(|e| e.to_string());
        assert!(error.is_some_and(|e| e.contains("U+202E")));
    }
}
