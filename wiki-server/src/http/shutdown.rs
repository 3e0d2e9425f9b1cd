//! Graceful shutdown on SIGINT (Ctrl-C) or SIGTERM (service managers, containers).

use tokio_util::sync::CancellationToken;

/// Waits for SIGINT or SIGTERM, then cancels `shutdown`: the HTTP server stops accepting,
/// answers new requests 503 and lets those in flight finish until its shutdown timeout
/// (`lifecycle.rs`).
///
/// Returns early, without cancelling, if `shutdown` is cancelled by someone else.
pub async fn shutdown_on_signal(shutdown: CancellationToken) {
    tokio::select! {
        () = interrupt() => tracing::info!("interrupt received, shutting down"),
        () = terminate() => tracing::info!("terminate signal received, shutting down"),
        () = shutdown.cancelled() => return,
    }
    shutdown.cancel();
}

async fn interrupt() {
    if let Err(error) = tokio::signal::ctrl_c().await {
        tracing::warn!(%error, "cannot listen for Ctrl-C");
        std::future::pending::<()>().await;
    }
}

#[cfg(unix)]
async fn terminate() {
    use tokio::signal::unix::{SignalKind, signal};
    match signal(SignalKind::terminate()) {
        Ok(mut stream) => {
            stream.recv().await;
        }
        Err(error) => {
            tracing::warn!(%error, "cannot listen for SIGTERM");
            std::future::pending::<()>().await;
        }
    }
}

#[cfg(not(unix))]
async fn terminate() {
    std::future::pending::<()>().await;
}
