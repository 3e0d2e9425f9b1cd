//! A TCP forwarder between stores and the test server, which a test can take down (every
//! connection cut, new ones refused) and bring back: a database outage and its end, without
//! touching the server other tests use.

use std::io::{Read, Write};
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

pub(crate) struct Proxy {
    address: SocketAddr,
    shared: Arc<Shared>,
}

struct Shared {
    up: AtomicBool,
    stopped: AtomicBool,
    live: Mutex<Vec<TcpStream>>,
}

impl Proxy {
    /// A forwarder on a free loopback port to `upstream`, up.
    pub(crate) fn start(upstream: SocketAddr) -> Proxy {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let address = listener.local_addr().unwrap();
        let shared = Arc::new(Shared {
            up: AtomicBool::new(true),
            stopped: AtomicBool::new(false),
            live: Mutex::new(Vec::new()),
        });
        let accepting = Arc::clone(&shared);
        std::thread::spawn(move || {
            for client in listener.incoming() {
                if accepting.stopped.load(Ordering::Acquire) {
                    return;
                }
                let Ok(client) = client else { continue };
                if !accepting.up.load(Ordering::Acquire) {
                    let _ = client.shutdown(Shutdown::Both);
                    continue;
                }
                let Ok(server) = TcpStream::connect(upstream) else {
                    let _ = client.shutdown(Shutdown::Both);
                    continue;
                };
                let mut live = accepting.live.lock().unwrap();
                for stream in [&client, &server] {
                    if let Ok(clone) = stream.try_clone() {
                        live.push(clone);
                    }
                }
                drop(live);
                pipe(&client, &server);
                pipe(&server, &client);
            }
        });
        Proxy { address, shared }
    }

    /// The proxy's `host:port`.
    pub(crate) fn address(&self) -> SocketAddr {
        self.address
    }

    /// Cuts every connection and refuses new ones.
    pub(crate) fn down(&self) {
        self.shared.up.store(false, Ordering::Release);
        for stream in self.shared.live.lock().unwrap().drain(..) {
            let _ = stream.shutdown(Shutdown::Both);
        }
    }

    /// Accepts connections again.
    pub(crate) fn up(&self) {
        self.shared.up.store(true, Ordering::Release);
    }
}

impl Drop for Proxy {
    fn drop(&mut self) {
        self.down();
        self.shared.stopped.store(true, Ordering::Release);
        // Wake the accepting thread so it sees the stop.
        let _ = TcpStream::connect_timeout(&self.address, Duration::from_millis(100));
    }
}

/// Copies `from` to `to` on a thread until either side closes.
fn pipe(from: &TcpStream, to: &TcpStream) {
    let (Ok(mut from), Ok(mut to)) = (from.try_clone(), to.try_clone()) else {
        return;
    };
    std::thread::spawn(move || {
        let mut buffer = [0u8; 16 * 1024];
        loop {
            match from.read(&mut buffer) {
                Ok(0) | Err(_) => break,
                Ok(n) => {
                    if to.write_all(&buffer[..n]).is_err() {
                        break;
                    }
                }
            }
        }
        let _ = to.shutdown(Shutdown::Both);
        let _ = from.shutdown(Shutdown::Both);
    });
}
