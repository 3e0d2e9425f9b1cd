//! `serve`'s connection flags: how many connections may be open and how long a request may take
//! to arrive (the HTTP edge's bounds, `wiki_server::http::ConnectionLimits`).

use std::time::Duration;

use anyhow::{Result, bail};
use wiki_server::http::ConnectionLimits;

/// The defaults shown by `--help` are [`ConnectionLimits::default`]'s.
#[derive(Debug, clap::Args)]
pub(crate) struct ConnectionArgs {
    /// Connections open at once, all clients together; past it new clients wait.
    #[arg(
        long,
        env = "WIKI_MCP_MAX_CONNECTIONS",
        value_name = "N",
        default_value_t = ConnectionLimits::default().max_connections
    )]
    max_connections: usize,
    /// Connections open at once from one client address (an IPv6 client: its /64); past it a
    /// client gets 503. Behind a reverse proxy every client has the proxy's address: set it to
    /// the proxy's pool size.
    #[arg(
        long,
        env = "WIKI_MCP_MAX_CONNECTIONS_PER_ADDRESS",
        value_name = "N",
        default_value_t = ConnectionLimits::default().max_connections_per_address
    )]
    max_connections_per_address: usize,
    /// Seconds a connection may take to send a request's line and headers (and may stay idle
    /// between requests).
    #[arg(
        long,
        env = "WIKI_MCP_HEADER_TIMEOUT",
        value_name = "SECONDS",
        default_value_t = ConnectionLimits::default().header_timeout.as_secs()
    )]
    header_timeout: u64,
    /// Seconds a request's body may take to arrive after its headers (408 beyond).
    #[arg(
        long,
        env = "WIKI_MCP_BODY_TIMEOUT",
        value_name = "SECONDS",
        default_value_t = ConnectionLimits::default().body_timeout.as_secs()
    )]
    body_timeout: u64,
}

impl ConnectionArgs {
    /// The limits these flags say. A zero is refused, naming the flag: no connection could be
    /// served, or every request would time out at once.
    pub(crate) fn limits(&self) -> Result<ConnectionLimits> {
        for (flag, value) in [
            ("--max-connections", self.max_connections as u64),
            (
                "--max-connections-per-address",
                self.max_connections_per_address as u64,
            ),
            ("--header-timeout", self.header_timeout),
            ("--body-timeout", self.body_timeout),
        ] {
            if value == 0 {
                bail!(
                    "{flag} 0 would refuse every request: give 1 or more (or leave it out for the default)"
                );
            }
        }
        Ok(ConnectionLimits {
            max_connections: self.max_connections,
            max_connections_per_address: self.max_connections_per_address,
            header_timeout: Duration::from_secs(self.header_timeout),
            body_timeout: Duration::from_secs(self.body_timeout),
        })
    }
}
