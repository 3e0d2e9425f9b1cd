//! `serve`'s operations flags: where the metrics are also served, how long a shutdown waits
//! (that one `stdio`'s too).

use std::net::SocketAddr;
use std::time::Duration;

use wiki_server::http::DEFAULT_SHUTDOWN_TIMEOUT;

/// What an operator running the server sets beside the endpoint itself.
#[derive(Debug, clap::Args)]
pub(crate) struct OperationArgs {
    /// Also serve `GET /metrics` (Prometheus) on this address, without a token: for a
    /// Prometheus server on a private network; never bind it where clients can reach it. The
    /// main address serves `/metrics` to a farm administrator's token either way.
    #[arg(long, env = "WIKI_MCP_METRICS_LISTEN", value_name = "ADDRESS")]
    pub(crate) metrics_listen: Option<SocketAddr>,

    #[command(flatten)]
    pub(crate) shutdown: ShutdownArgs,
}

/// How long a stop may take (`serve` and `stdio`).
#[derive(Debug, clap::Args)]
pub(crate) struct ShutdownArgs {
    /// After SIGTERM or Ctrl-C (or, over stdio, the end of stdin), how many seconds calls in
    /// flight may take to finish (new requests are answered 503 meanwhile) before they are
    /// cancelled and the process exits.
    #[arg(
        long,
        env = "WIKI_MCP_SHUTDOWN_TIMEOUT",
        value_name = "SECONDS",
        default_value_t = DEFAULT_SHUTDOWN_TIMEOUT.as_secs()
    )]
    pub(crate) shutdown_timeout: u64,
}

impl OperationArgs {
    /// [`ShutdownArgs::shutdown_timeout`] as a duration.
    pub(crate) fn shutdown_timeout(&self) -> Duration {
        self.shutdown.timeout()
    }
}

impl ShutdownArgs {
    /// [`ShutdownArgs::shutdown_timeout`] as a duration.
    pub(crate) fn timeout(&self) -> Duration {
        Duration::from_secs(self.shutdown_timeout)
    }
}
