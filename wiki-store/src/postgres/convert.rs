//! PostgreSQL errors as store errors, kept private to the backend: which failures mean the
//! database is unreachable, which mean a write collided with a concurrent one (and is retried),
//! and the rest, which are the backend failing.

use postgres::error::SqlState;
use postgres::row::RowIndex;
use postgres::types::FromSql;

use crate::StoreError;

/// Turns a `postgres` result into a store result: [`StoreError::Unavailable`] when the server
/// cannot be reached or gave up on the statement, else [`StoreError::Backend`], keeping the
/// database error as the source either way (a retried conflict is recognized from it, see
/// [`is_conflict`]).
pub(crate) trait PgResultExt<T> {
    /// Maps the error to a store error.
    fn pg(self) -> Result<T, StoreError>;
}

impl<T> PgResultExt<T> for Result<T, postgres::Error> {
    fn pg(self) -> Result<T, StoreError> {
        self.map_err(store_error)
    }
}

/// The store error for a `postgres` error.
pub(crate) fn store_error(error: postgres::Error) -> StoreError {
    // Our caller's cancel, not the statement timeout: both end with `query_canceled`.
    if error.code() == Some(&SqlState::QUERY_CANCELED) && crate::interrupt::fired() {
        return StoreError::Interrupted;
    }
    if is_unavailable(&error) {
        StoreError::unavailable(error)
    } else {
        StoreError::backend(error)
    }
}

/// Whether the server cannot be reached or refused to go on: the connection is closed, broke or
/// never opened (refused, timed out, authentication or TLS failed), the server is shutting down
/// or starting, out of connections, or cancelled the statement (its timeout). Such a failure is
/// transient from the store's side: the call may succeed later.
fn is_unavailable(error: &postgres::Error) -> bool {
    if error.is_closed() {
        return true;
    }
    if let Some(code) = error.code() {
        return code.code().starts_with("08")
            || [
                SqlState::ADMIN_SHUTDOWN,
                SqlState::CRASH_SHUTDOWN,
                SqlState::CANNOT_CONNECT_NOW,
                SqlState::TOO_MANY_CONNECTIONS,
                SqlState::QUERY_CANCELED,
                SqlState::IDLE_IN_TRANSACTION_SESSION_TIMEOUT,
                SqlState::INVALID_AUTHORIZATION_SPECIFICATION,
                SqlState::INVALID_PASSWORD,
            ]
            .contains(code);
    }
    // Not a server error: the client's own failure kinds are only told apart by their message.
    let socket =
        std::error::Error::source(error).is_some_and(|source| source.is::<std::io::Error>());
    socket
        || [
            "error connecting to server",
            "timeout waiting for server",
            "error communicating with the server",
            "authentication error",
            "error performing TLS handshake",
        ]
        .contains(&error.to_string().as_str())
}

/// Whether a failed write collided with a concurrent one, so running it again from the start
/// (re-reading, re-planning) is the answer: a serialization failure, a deadlock, a lock wait
/// that timed out, a creation that lost a race on a unique key, or a row referenced by the
/// write that a concurrent transaction removed.
pub(crate) fn is_conflict(error: &StoreError) -> bool {
    let StoreError::Backend(source) = error else {
        return false;
    };
    let Some(code) = source
        .downcast_ref::<postgres::Error>()
        .and_then(postgres::Error::code)
    else {
        return false;
    };
    [
        SqlState::T_R_SERIALIZATION_FAILURE,
        SqlState::T_R_DEADLOCK_DETECTED,
        SqlState::LOCK_NOT_AVAILABLE,
        SqlState::UNIQUE_VIOLATION,
        SqlState::FOREIGN_KEY_VIOLATION,
    ]
    .contains(code)
}

/// Typed column access with store errors.
pub(crate) trait RowExt {
    /// Column `index` as `T`; a type mismatch is corruption of the schema, a backend failure.
    fn col<'a, T: FromSql<'a>>(
        &'a self,
        index: impl RowIndex + std::fmt::Display,
    ) -> Result<T, StoreError>;
}

impl RowExt for postgres::Row {
    fn col<'a, T: FromSql<'a>>(
        &'a self,
        index: impl RowIndex + std::fmt::Display,
    ) -> Result<T, StoreError> {
        self.try_get(index).map_err(StoreError::backend)
    }
}

/// A stored count, size, version part or object number back as `u32`/`u64`/`usize`: negative
/// or too large means the database was altered.
pub(crate) fn unsigned<T: TryFrom<i64>>(value: i64, what: &'static str) -> Result<T, StoreError> {
    T::try_from(value).map_err(|_| crate::stored::corrupt(what))
}
