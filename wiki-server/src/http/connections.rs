//! The accept loop: hyper's HTTP/1.1 connections with a header read timeout, a cap on open
//! connections in total and per client address, and graceful shutdown.
//!
//! `axum::serve` exposes none of hyper's settings, and hyper reads request heads with no
//! deadline unless it is given a timer: 512 connections trickling one header byte at a time were
//! held open for 71 s, and with a low descriptor limit idle sockets kept new clients out. Here:
//!
//! - hyper's `header_read_timeout` runs from the moment a connection waits for a request head
//!   (also between keep-alive requests) until the head is complete: a trickling or idle client
//!   is closed after it (the body has its own deadline, `body.rs`);
//! - a connection past the per-address cap is answered `503` at once and closed, so one client
//!   cannot take every slot; past the total cap a newcomer whose address holds fewer
//!   connections than the biggest holder takes the slot of one of that holder's connections
//!   (idle first, `holders.rs`), and any other newcomer is answered `503`: a few addresses at
//!   their cap cannot keep every other client out;
//! - on shutdown the loop stops accepting and closes the listening socket; open connections
//!   stay until the [`Lifecycle`] closes them (gracefully when nothing is in flight, at once at
//!   the shutdown deadline, `lifecycle.rs`); `serve` returns when every connection is gone (the
//!   total cap's permits all back).

use std::convert::Infallible;
use std::io;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::extract::ConnectInfo;
use http_body_util::BodyExt as _;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use prometheus::IntGauge;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{OwnedSemaphorePermit, Semaphore, TryAcquireError};
use tokio_util::sync::CancellationToken;
use tower::ServiceExt as _;

use super::holders::{Holders, Holding, InProgress};
use super::lifecycle::Lifecycle;
use super::refusal::Refusal;

/// How many connections may be open, and how long a request may take to arrive.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ConnectionLimits {
    /// Connections open at once, all clients together (at least 1).
    pub max_connections: usize,
    /// Connections open at once from one client address (at least 1). Behind a reverse proxy
    /// every client shares the proxy's address: raise it to the proxy's pool size.
    pub max_connections_per_address: usize,
    /// From the moment a connection waits for a request until the request's head (line and
    /// headers) is complete; an idle keep-alive connection is closed after it too.
    pub header_timeout: Duration,
    /// From the end of the head until the whole body has arrived (408 beyond).
    pub body_timeout: Duration,
}

impl Default for ConnectionLimits {
    /// 1024 connections, 128 per address (64 busy agents and room for their reconnects), 30 s
    /// for a head and 30 s for a body (a 16 MiB body at 0.5 MiB/s).
    fn default() -> Self {
        ConnectionLimits {
            max_connections: 1024,
            max_connections_per_address: 128,
            header_timeout: Duration::from_secs(30),
            body_timeout: Duration::from_secs(30),
        }
    }
}

/// Serves `app` on `listener` until `shutdown` is cancelled and every connection has been
/// closed by `lifecycle`.
pub(crate) async fn serve_connections(
    listener: TcpListener,
    app: Router,
    limits: ConnectionLimits,
    open: IntGauge,
    shutdown: CancellationToken,
    lifecycle: Arc<Lifecycle>,
) -> io::Result<()> {
    let total = limits.max_connections.clamp(1, Semaphore::MAX_PERMITS);
    let slots = Arc::new(Semaphore::new(total));
    let holders = Arc::new(Holders::new(limits.max_connections_per_address));
    // What an over-the-cap client is told before its connection closes.
    let too_many = Refusal::TooManyConnections.to_http1();
    loop {
        let (stream, peer) = tokio::select! {
            () = shutdown.cancelled() => break,
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(error) => {
                    accept_failed(&error).await;
                    continue;
                }
            },
        };
        let Some(holding) = Holders::enter(&holders, peer.ip(), &lifecycle.close) else {
            tracing::debug!(peer = %peer.ip(), "connection refused: too many from this address");
            refuse_over_cap(stream, &too_many);
            continue;
        };
        let slot = match Arc::clone(&slots).try_acquire_owned() {
            Ok(permit) => Slot::Taken(permit),
            Err(TryAcquireError::Closed) => break,
            Err(TryAcquireError::NoPermits) if holders.make_room_for(peer.ip()) => {
                Slot::Freed(Arc::clone(&slots))
            }
            Err(TryAcquireError::NoPermits) => {
                tracing::debug!(peer = %peer.ip(), "connection refused: every slot is taken");
                refuse_over_cap(stream, &too_many);
                continue;
            }
        };
        if let Err(error) = stream.set_nodelay(true) {
            // Nagle plus delayed ACKs stall every small reply on a keep-alive connection.
            tracing::debug!(%error, "could not set TCP_NODELAY");
        }
        open.inc();
        tokio::spawn(serve_one(
            stream,
            peer,
            app.clone(),
            limits.header_timeout,
            Arc::clone(&lifecycle),
            (slot, holding, OpenConnection(open.clone())),
        ));
    }
    // New connections are refused from now on, rather than left waiting in the backlog.
    drop(listener);
    // Every open connection holds one permit: all of them back means all closed.
    let all = u32::try_from(total).unwrap_or(u32::MAX);
    drop(slots.acquire_many(all).await);
    Ok(())
}

/// A new connection's place under the total cap.
enum Slot {
    /// A free slot, taken.
    Taken(OwnedSemaphorePermit),
    /// The slot a connection asked to close will free (`Holders::make_room_for`).
    Freed(Arc<Semaphore>),
}

/// One connection, start to close; `held` returns its slots when it ends.
///
/// Asked to close by the total cap's fairness (not by shutdown), a connection has as long as a
/// head may take to finish the request it is serving, then it is dropped.
async fn serve_one(
    stream: TcpStream,
    peer: SocketAddr,
    app: Router,
    header_timeout: Duration,
    lifecycle: Arc<Lifecycle>,
    held: (Slot, Holding, OpenConnection),
) {
    let (slot, holding, _open) = held;
    let _permit = match slot {
        Slot::Taken(permit) => permit,
        Slot::Freed(slots) => tokio::select! {
            permit = slots.acquire_owned() => match permit {
                Ok(permit) => permit,
                Err(_) => return,
            },
            () = holding.closing().cancelled() => return,
        },
    };
    let busy = holding.busy();
    let service = tower::service_fn(move |request: http::Request<Incoming>| {
        let mut request = request.map(Body::new);
        request.extensions_mut().insert(ConnectInfo(peer));
        // Idle until the response's body is done (or dropped with the connection).
        let in_progress = InProgress::start(&busy);
        let app = app.clone();
        async move {
            let Ok(response) = app.oneshot(request).await;
            Ok::<_, Infallible>(response.map(|body| {
                Body::new(body.map_frame(move |frame| {
                    let _kept_until_the_body_ends = &in_progress;
                    frame
                }))
            }))
        }
    });
    let service = TowerToHyperService::new(service);
    let mut builder = hyper::server::conn::http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(header_timeout);
    let connection = builder.serve_connection(TokioIo::new(stream), service);
    tokio::pin!(connection);
    let result = tokio::select! {
        result = connection.as_mut() => result,
        () = holding.closing().cancelled() => {
            connection.as_mut().graceful_shutdown();
            let evicted = !lifecycle.close.is_cancelled();
            let grace = async {
                if evicted {
                    tokio::time::sleep(header_timeout).await;
                } else {
                    std::future::pending::<()>().await;
                }
            };
            tokio::select! {
                result = connection.as_mut() => result,
                // Past the deadline: dropped, which cancels the calls it still carries.
                () = lifecycle.abort.cancelled() => return,
                () = grace => return,
            }
        }
    };
    if let Err(error) = result {
        tracing::debug!(peer = %peer.ip(), %error, "connection ended with an error");
    }
}

/// Accept errors: a connection that died in the backlog is nothing; running out of descriptors
/// (or memory) is waited out briefly rather than spun on.
async fn accept_failed(error: &io::Error) {
    use io::ErrorKind::{ConnectionAborted, ConnectionRefused, ConnectionReset};
    if matches!(
        error.kind(),
        ConnectionAborted | ConnectionRefused | ConnectionReset
    ) {
        return;
    }
    tracing::warn!(%error, "accepting a connection failed; retrying in 100 ms");
    tokio::time::sleep(Duration::from_millis(100)).await;
}

/// Writes the 503 if the socket takes it at once (a fresh socket's send buffer is empty), then
/// drops the connection; never waits on the client.
fn refuse_over_cap(stream: TcpStream, answer: &[u8]) {
    let _ = stream.try_write(answer);
}

/// One connection counted in the open-connections gauge until it closes.
struct OpenConnection(IntGauge);

impl Drop for OpenConnection {
    fn drop(&mut self) {
        self.0.dec();
    }
}
