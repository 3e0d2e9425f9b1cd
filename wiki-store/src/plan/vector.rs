//! Vector indexes: what an index may be called and an entry may hold, and how a vector is
//! stored (little-endian `f32`s, the same bytes on every backend).
//!
//! A backend stores a row's entries by checking them ([`validate_row`], before any transaction),
//! then, in one transaction that changes nothing a server caches, replacing the row's entries
//! and recording the version they came from.

use crate::Result;
use crate::error::InvalidInput;
use crate::model::vector::{VectorIndex, VectorRow};
use crate::stored::corrupt;

/// The longest index name, in characters.
const MAX_NAME: usize = 64;
/// The longest entry key, in bytes.
const MAX_KEY: usize = 256;
/// The longest digest, in bytes.
const MAX_DIGEST: usize = 128;
/// The longest passage, in bytes.
const MAX_TEXT: usize = 64 * 1024;
/// The most values a vector has.
const MAX_DIMENSIONS: usize = 4096;
/// The most entries a row has.
const MAX_ENTRIES: usize = 10_000;

fn invalid(reason: &'static str) -> crate::StoreError {
    InvalidInput::VectorIndex { reason }.into()
}

/// Checks an index's name.
pub(crate) fn validate_index(index: &VectorIndex) -> Result<()> {
    let name = index.name.as_str();
    let valid = !name.is_empty()
        && name.len() <= MAX_NAME
        && name
            .bytes()
            .next()
            .is_some_and(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
        && name.bytes().all(|b| {
            b.is_ascii_lowercase() || b.is_ascii_digit() || matches!(b, b'.' | b'_' | b'-')
        });
    if valid {
        Ok(())
    } else {
        Err(invalid(
            "an index name is 1 to 64 characters of a-z, 0-9, '.', '_' and '-', starting with a letter or digit",
        ))
    }
}

/// Checks a row's entries for `index` before any transaction.
pub(crate) fn validate_row(index: &VectorIndex, row: &VectorRow) -> Result<()> {
    validate_index(index)?;
    if row.reference.wiki() != &index.wiki {
        return Err(invalid("a row belongs to the wiki of its index"));
    }
    if row.entries.len() > MAX_ENTRIES {
        return Err(invalid("a row has at most 10000 entries"));
    }
    let dimensions = row.entries.first().map(|entry| entry.vector.len());
    let mut keys = std::collections::HashSet::with_capacity(row.entries.len());
    for entry in &row.entries {
        if entry.key.is_empty() || entry.key.len() > MAX_KEY || entry.key.contains('\0') {
            return Err(invalid("an entry key is 1 to 256 bytes, without NUL"));
        }
        if !keys.insert(entry.key.as_str()) {
            return Err(invalid("entry keys are unique within a row"));
        }
        if entry.digest.is_empty() || entry.digest.len() > MAX_DIGEST || entry.digest.contains('\0')
        {
            return Err(invalid("a digest is 1 to 128 bytes, without NUL"));
        }
        if entry.text.len() > MAX_TEXT || entry.text.contains('\0') {
            return Err(invalid("a passage is at most 64 KiB, without NUL"));
        }
        if entry.vector.is_empty() || entry.vector.len() > MAX_DIMENSIONS {
            return Err(invalid("a vector has 1 to 4096 values"));
        }
        if Some(entry.vector.len()) != dimensions {
            return Err(invalid("every vector of a row has as many values"));
        }
        if !entry.vector.iter().all(|value| value.is_finite()) {
            return Err(invalid("vector values are finite"));
        }
    }
    Ok(())
}

/// A vector as its stored bytes.
pub(crate) fn encode(vector: &[f32]) -> Vec<u8> {
    vector
        .iter()
        .flat_map(|value| value.to_le_bytes())
        .collect()
}

/// A vector from its stored bytes.
pub(crate) fn decode(bytes: &[u8]) -> Result<Vec<f32>> {
    if bytes.is_empty() || !bytes.len().is_multiple_of(4) {
        return Err(corrupt("stored vector"));
    }
    Ok(bytes
        .chunks_exact(4)
        .map(|value| f32::from_le_bytes([value[0], value[1], value[2], value[3]]))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::vector::VectorEntry;
    use crate::model::version::Version;
    use crate::model::wiki::WikiId;
    use crate::reference::DocumentReference;

    fn row(entries: Vec<VectorEntry>) -> VectorRow {
        VectorRow {
            reference: DocumentReference::parse("A.B", &WikiId::main())
                .unwrap_or_else(|e| panic!("{e}")),
            locale: None,
            version: Version::FIRST,
            entries,
        }
    }

    fn entry(key: &str, vector: Vec<f32>) -> VectorEntry {
        VectorEntry {
            key: key.into(),
            digest: "d".into(),
            text: "t".into(),
            vector,
        }
    }

    #[test]
    fn vectors_round_trip_through_their_bytes() {
        let vector = [0.5f32, -1.25, f32::MIN_POSITIVE, 3.0e7];
        assert_eq!(decode(&encode(&vector)).ok().as_deref(), Some(&vector[..]));
        assert!(decode(&[0, 0, 0]).is_err());
        assert!(decode(&[]).is_err());
    }

    #[test]
    fn rows_are_checked_before_they_are_stored() {
        let index = VectorIndex::new(WikiId::main(), "minilm-l6-v2");
        assert!(
            validate_row(
                &index,
                &row(vec![entry("a", vec![1.0]), entry("b", vec![2.0])])
            )
            .is_ok()
        );
        assert!(
            validate_row(&index, &row(vec![])).is_ok(),
            "a row may have no entries"
        );
        for bad in [
            row(vec![entry("a", vec![1.0]), entry("a", vec![2.0])]),
            row(vec![entry("a", vec![1.0]), entry("b", vec![2.0, 3.0])]),
            row(vec![entry("a", vec![f32::NAN])]),
            row(vec![entry("a", vec![])]),
            row(vec![entry("", vec![1.0])]),
        ] {
            assert!(validate_row(&index, &bad).is_err(), "{bad:?}");
        }
        let other = VectorIndex::new(WikiId::new("other").unwrap_or_else(|e| panic!("{e}")), "m");
        assert!(
            validate_row(&other, &row(vec![])).is_err(),
            "another wiki's row"
        );
        for name in ["", "Model", "-m", "a b"] {
            assert!(
                validate_index(&VectorIndex::new(WikiId::main(), name)).is_err(),
                "{name:?}"
            );
        }
    }
}
