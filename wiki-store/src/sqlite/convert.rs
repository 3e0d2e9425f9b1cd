//! rusqlite errors as store errors, kept private to the backend (value encodings every backend
//! shares are in [`crate::stored`]).

use crate::StoreError;

/// Turns a rusqlite result into a store result, keeping the database error as the source.
pub(crate) trait DbResultExt<T> {
    /// Maps the error to [`StoreError::Backend`], or [`StoreError::Interrupted`] for a
    /// statement stopped by its caller ([`crate::interrupt`]).
    fn db(self) -> Result<T, StoreError>;
}

impl<T> DbResultExt<T> for rusqlite::Result<T> {
    fn db(self) -> Result<T, StoreError> {
        self.map_err(|error| {
            if error.sqlite_error_code() == Some(rusqlite::ErrorCode::OperationInterrupted) {
                StoreError::Interrupted
            } else {
                StoreError::backend(error)
            }
        })
    }
}
