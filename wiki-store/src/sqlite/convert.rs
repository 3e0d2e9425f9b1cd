//! Small conversions between rusqlite and the store's types, kept private to the backend.

use time::OffsetDateTime;

use crate::StoreError;

/// Turns a rusqlite result into a store result, keeping the database error as the source.
pub(crate) trait DbResultExt<T> {
    /// Maps the error to [`StoreError::Backend`].
    fn db(self) -> Result<T, StoreError>;
}

impl<T> DbResultExt<T> for rusqlite::Result<T> {
    fn db(self) -> Result<T, StoreError> {
        self.map_err(StoreError::backend)
    }
}

/// A stored value that does not read back as what was written: the file was altered or damaged.
pub(crate) fn corrupt(what: &'static str) -> StoreError {
    StoreError::backend(std::io::Error::new(std::io::ErrorKind::InvalidData, what))
}

/// Milliseconds since the Unix epoch, the stored form of instants.
pub(crate) fn to_ms(instant: OffsetDateTime) -> i64 {
    i64::try_from(instant.unix_timestamp_nanos() / 1_000_000).unwrap_or(i64::MAX)
}

/// The instant of a stored millisecond value.
pub(crate) fn from_ms(ms: i64) -> OffsetDateTime {
    OffsetDateTime::from_unix_timestamp_nanos(i128::from(ms) * 1_000_000)
        .unwrap_or(OffsetDateTime::UNIX_EPOCH)
}

/// Now, in stored form.
pub(crate) fn now_ms() -> i64 {
    to_ms(OffsetDateTime::now_utc())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn milliseconds_round_trip() {
        let ms = 1_764_000_000_123;
        assert_eq!(to_ms(from_ms(ms)), ms);
    }
}
