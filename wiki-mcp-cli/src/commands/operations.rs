//! `serve`'s operations flags: where the metrics are also served.

use std::net::SocketAddr;

/// What an operator running the server sets beside the endpoint itself.
#[derive(Debug, clap::Args)]
pub(crate) struct OperationArgs {
    /// Also serve `GET /metrics` (Prometheus) on this address, without a token: for a
    /// Prometheus server on a private network; never bind it where clients can reach it. The
    /// main address serves `/metrics` to a farm administrator's token either way.
    #[arg(long, env = "WIKI_MCP_METRICS_LISTEN", value_name = "ADDRESS")]
    pub(crate) metrics_listen: Option<SocketAddr>,
}
