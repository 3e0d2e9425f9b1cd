//! The farm's HTTP server on loopback, and a raw HTTP/1.1 client that controls what reaches the
//! socket: its own framing of the body (a `Content-Length` or chunks) and the moment it hangs
//! up, which no library client exposes.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use serde_json::Value;
use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
use tokio::net::TcpStream;
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;
use wiki_server::Manager;
use wiki_server::http::{Directory, HttpOptions, HttpServer};

/// A running HTTP server over a manager; stopped (as SIGTERM stops it) on drop.
pub(crate) struct Served {
    pub(crate) address: SocketAddr,
    shutdown: CancellationToken,
    _task: JoinHandle<std::io::Result<()>>,
}

impl Served {
    /// Serves `manager` on `127.0.0.1:0` without rate limits; `direct_tool_calls: false` sends
    /// every request through rmcp's streamable HTTP service.
    pub(crate) async fn start(manager: Arc<Manager>, direct_tool_calls: bool) -> Self {
        let options = HttpOptions {
            rate_limit: None,
            page_rate_limit: None,
            direct_tool_calls,
            ..HttpOptions::default()
        };
        let server = HttpServer::bind("127.0.0.1:0", options)
            .await
            .unwrap_or_else(|e| panic!("bind 127.0.0.1:0: {e}"));
        let address = server
            .local_addr()
            .unwrap_or_else(|e| panic!("the bound address: {e}"));
        let shutdown = CancellationToken::new();
        let task = tokio::spawn(server.serve(Arc::new(Directory::new(manager)), shutdown.clone()));
        Served {
            address,
            shutdown,
            _task: task,
        }
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        self.shutdown.cancel();
    }
}

/// How a request's body is framed on the wire.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Framing {
    ContentLength,
    /// `Transfer-Encoding: chunked`, in two chunks.
    Chunked,
}

/// An open connection that has sent one MCP POST as the guest.
pub(crate) struct Connection {
    stream: TcpStream,
    received: Vec<u8>,
}

impl Connection {
    /// Connects to `served` and sends `body` to `wiki`'s MCP endpoint with the `Accept` and
    /// `Content-Type` streamable HTTP requires, `headers` and `framing`.
    pub(crate) async fn post(
        served: &Served,
        wiki: &str,
        headers: &[(&str, &str)],
        body: &Value,
        framing: Framing,
    ) -> Self {
        let mut stream = TcpStream::connect(served.address)
            .await
            .unwrap_or_else(|e| panic!("connect: {e}"));
        let body = serde_json::to_vec(body).unwrap_or_else(|e| panic!("{e}"));
        let mut head = format!(
            "POST /rest/wikis/{wiki}/aiLLM/mcp HTTP/1.1\r\nHost: {}\r\n\
             Accept: application/json, text/event-stream\r\nContent-Type: application/json\r\n",
            served.address
        );
        for (name, value) in headers {
            head.push_str(&format!("{name}: {value}\r\n"));
        }
        let mut wire = Vec::new();
        match framing {
            Framing::ContentLength => {
                head.push_str(&format!("Content-Length: {}\r\n\r\n", body.len()));
                wire.extend_from_slice(head.as_bytes());
                wire.extend_from_slice(&body);
            }
            Framing::Chunked => {
                head.push_str("Transfer-Encoding: chunked\r\n\r\n");
                wire.extend_from_slice(head.as_bytes());
                let (first, second) = body.split_at(body.len() / 2);
                for chunk in [first, second] {
                    wire.extend_from_slice(format!("{:x}\r\n", chunk.len()).as_bytes());
                    wire.extend_from_slice(chunk);
                    wire.extend_from_slice(b"\r\n");
                }
                wire.extend_from_slice(b"0\r\n\r\n");
            }
        }
        stream
            .write_all(&wire)
            .await
            .unwrap_or_else(|e| panic!("send the request: {e}"));
        Connection {
            stream,
            received: Vec::new(),
        }
    }

    /// Reads until what arrived contains `text`; panics after five seconds or at the end of
    /// the stream, showing what came.
    pub(crate) async fn read_until(&mut self, text: &str) -> String {
        let read = async {
            let mut buffer = [0u8; 4096];
            while !String::from_utf8_lossy(&self.received).contains(text) {
                let count = self.stream.read(&mut buffer).await.unwrap_or(0);
                if count == 0 {
                    return false;
                }
                self.received.extend_from_slice(&buffer[..count]);
            }
            true
        };
        let found = tokio::time::timeout(Duration::from_secs(5), read).await;
        let received = String::from_utf8_lossy(&self.received).into_owned();
        assert!(
            found == Ok(true),
            "{text:?} did not arrive; received: {received}"
        );
        received
    }

    /// Whether anything of a response arrived within `wait`.
    pub(crate) async fn answered_within(&mut self, wait: Duration) -> bool {
        let mut buffer = [0u8; 1];
        matches!(
            tokio::time::timeout(wait, self.stream.peek(&mut buffer)).await,
            Ok(Ok(1..))
        )
    }

    /// Closes the connection: the client goes away.
    pub(crate) fn hang_up(self) {
        drop(self.stream);
    }
}
