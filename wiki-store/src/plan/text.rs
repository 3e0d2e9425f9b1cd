//! Text checks every write shares: size caps, NUL characters, labels.

use crate::error::{Field, InvalidInput};
use crate::{Result, StoreError};

/// Refuses text over `limit` characters or containing NUL (which no backend stores faithfully:
/// PostgreSQL refuses it in `text`, SQLite would cut C strings at it).
pub(crate) fn check_text(field: Field, text: &str, limit: usize) -> Result<()> {
    // Byte length bounds the character count from above: count only when it could matter.
    if text.len() > limit {
        let actual = text.chars().count();
        if actual > limit {
            return Err(StoreError::TooLarge {
                field,
                limit,
                actual,
            });
        }
    }
    if text.contains('\0') {
        return Err(InvalidInput::NulCharacter(field).into());
    }
    Ok(())
}

/// Refuses a one-line label (display name, token label, field label) longer than `max`
/// characters or holding a control character, saying so in terms of `what`.
pub(crate) fn check_label(what: &'static str, label: &str, max: usize) -> Result<()> {
    if label.chars().count() > max || label.chars().any(char::is_control) {
        return Err(InvalidInput::Name {
            what,
            reason: format!("at most {max} characters, without control characters"),
        }
        .into());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_is_capped_in_characters_not_bytes() {
        assert!(check_text(Field::Title, "ééé", 3).is_ok());
        assert!(matches!(
            check_text(Field::Title, "éééé", 3),
            Err(StoreError::TooLarge {
                limit: 3,
                actual: 4,
                ..
            })
        ));
        assert!(matches!(
            check_text(Field::Content, "a\0b", 10),
            Err(StoreError::Invalid(InvalidInput::NulCharacter(
                Field::Content
            )))
        ));
    }

    #[test]
    fn labels_are_one_short_line() {
        assert!(check_label("token label", "laptop", 100).is_ok());
        assert!(check_label("token label", &"x".repeat(101), 100).is_err());
        assert!(check_label("token label", "two\nlines", 100).is_err());
    }
}
