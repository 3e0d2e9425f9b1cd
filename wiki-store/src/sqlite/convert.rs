//! rusqlite errors as store errors, kept private to the backend (value encodings every backend
//! shares are in [`crate::stored`]).

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
