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
//!   cannot take every slot; past the total cap the loop stops accepting until a connection
//!   closes (new clients wait in the kernel's backlog, no descriptor is spent on them);
//! - on shutdown the loop stops accepting and closes the listening socket; open connections
//!   stay until the [`Lifecycle`] closes them (gracefully when nothing is in flight, at once at
//!   the shutdown deadline, `lifecycle.rs`); `serve` returns when every connection is gone (the
//!   total cap's permits all back).

use std::collections::HashMap;
use std::io;
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::extract::ConnectInfo;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use parking_lot::Mutex;
use prometheus::IntGauge;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio_util::sync::CancellationToken;
use tower::ServiceExt as _;

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
    let per_address = Arc::new(AddressCounts::new(limits.max_connections_per_address));
    // What an over-the-cap client is told before its connection closes.
    let too_many = Refusal::TooManyConnections.to_http1();
    loop {
        let permit = tokio::select! {
            () = shutdown.cancelled() => break,
            permit = Arc::clone(&slots).acquire_owned() => match permit {
                Ok(permit) => permit,
                Err(_) => break,
            },
        };
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
        let Some(address_slot) = AddressCounts::enter(&per_address, peer.ip()) else {
            tracing::debug!(peer = %peer.ip(), "connection refused: too many from this address");
            refuse_over_cap(stream, &too_many);
            continue;
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
            (permit, address_slot, OpenConnection(open.clone())),
        ));
    }
    // New connections are refused from now on, rather than left waiting in the backlog.
    drop(listener);
    // Every open connection holds one permit: all of them back means all closed.
    let all = u32::try_from(total).unwrap_or(u32::MAX);
    drop(slots.acquire_many(all).await);
    Ok(())
}

/// One connection, start to close; `_held` returns its slots when it ends.
async fn serve_one(
    stream: TcpStream,
    peer: SocketAddr,
    app: Router,
    header_timeout: Duration,
    lifecycle: Arc<Lifecycle>,
    _held: (OwnedSemaphorePermit, AddressSlot, OpenConnection),
) {
    let service = app.map_request(move |request: http::Request<Incoming>| {
        let mut request = request.map(Body::new);
        request.extensions_mut().insert(ConnectInfo(peer));
        request
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
        () = lifecycle.close.cancelled() => {
            connection.as_mut().graceful_shutdown();
            tokio::select! {
                result = connection.as_mut() => result,
                // Past the deadline: dropped, which cancels the calls it still carries.
                () = lifecycle.abort.cancelled() => return,
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

/// Open connections per client address.
#[derive(Debug)]
struct AddressCounts {
    max: usize,
    open: Mutex<HashMap<IpAddr, usize>>,
}

impl AddressCounts {
    fn new(max: usize) -> Self {
        AddressCounts {
            max: max.max(1),
            open: Mutex::new(HashMap::new()),
        }
    }

    /// Counts one more connection from `address`, or `None` when it already has the maximum.
    fn enter(counts: &Arc<Self>, address: IpAddr) -> Option<AddressSlot> {
        let mut open = counts.open.lock();
        let count = open.entry(address).or_insert(0);
        if *count >= counts.max {
            return None;
        }
        *count += 1;
        Some(AddressSlot {
            counts: Arc::clone(counts),
            address,
        })
    }
}

/// One counted connection; the count goes down when it is dropped (and the entry with it).
#[derive(Debug)]
struct AddressSlot {
    counts: Arc<AddressCounts>,
    address: IpAddr,
}

impl Drop for AddressSlot {
    fn drop(&mut self) {
        let mut open = self.counts.open.lock();
        if let Some(count) = open.get_mut(&self.address) {
            *count = count.saturating_sub(1);
            if *count == 0 {
                open.remove(&self.address);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_address_gets_its_slots_back_when_connections_close() {
        let counts = Arc::new(AddressCounts::new(2));
        let one: IpAddr = [10, 0, 0, 1].into();
        let other: IpAddr = [10, 0, 0, 2].into();
        let first = AddressCounts::enter(&counts, one);
        let second = AddressCounts::enter(&counts, one);
        assert!(first.is_some() && second.is_some());
        assert!(AddressCounts::enter(&counts, one).is_none());
        assert!(AddressCounts::enter(&counts, other).is_some());
        drop(first);
        assert!(AddressCounts::enter(&counts, one).is_some());
        drop(second);
        assert_eq!(counts.open.lock().get(&one), None);
    }
}
