//! Running the admin page's store calls off the async workers, and the page to answer when the
//! store cannot be read.

use std::sync::Arc;

use axum::response::Response;
use wiki_store::{Store, StoreError};

use super::AdminState;
use super::auth::unavailable;

impl AdminState {
    /// Runs `f` on the store, on the blocking pool; a store failure (or a call that did not
    /// complete) is logged with `what` and answered with the "temporarily unavailable" page,
    /// never its text.
    pub(crate) async fn on_store<T: Send + 'static>(
        &self,
        what: &'static str,
        f: impl FnOnce(&dyn Store) -> Result<T, StoreError> + Send + 'static,
    ) -> Result<T, Response> {
        let store: Arc<dyn Store> = Arc::clone(self.store());
        match tokio::task::spawn_blocking(move || f(&*store)).await {
            Ok(Ok(value)) => Ok(value),
            Ok(Err(error)) => {
                tracing::error!(%error, "the admin page could not {what}");
                Err(unavailable(self))
            }
            Err(error) => {
                tracing::error!(%error, "the admin page's call to {what} did not complete");
                Err(unavailable(self))
            }
        }
    }
}

/// Milliseconds since the epoch, now.
pub(crate) fn now_ms() -> i64 {
    let now = time::OffsetDateTime::now_utc();
    i64::try_from(now.unix_timestamp_nanos() / 1_000_000).unwrap_or(i64::MAX)
}
