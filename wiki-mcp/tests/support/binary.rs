//! The stock binary run by a test on one data directory (`tests/budgets`, `tests/guest_links`):
//! admin commands, and a `serve` child that is killed when the test lets go of it.

use std::net::SocketAddr;
use std::path::Path;
use std::process::{Child, Command, Output, Stdio};
use std::time::Duration;

use crate::listening::spawn_listening;

const BINARY: &str = env!("CARGO_BIN_EXE_wiki-mcp");

/// The binary on `data` (SQLite), with no farm location or log level inherited from the
/// environment the tests run in.
pub(crate) fn command(data: &Path) -> Command {
    let mut command = Command::new(BINARY);
    command
        .arg("--data")
        .arg(data)
        .env_remove("WIKI_MCP_DATA")
        .env_remove("WIKI_MCP_DATABASE")
        .env("WIKI_MCP_LOG", "warn")
        .stdin(Stdio::null());
    command
}

/// What `wiki-mcp --data DATA args...` printed and how it exited.
pub(crate) fn run(data: &Path, args: &[&str]) -> Output {
    command(data).args(args).output().unwrap()
}

/// A running `serve`, killed on drop.
pub(crate) struct Serving {
    child: Child,
    /// The address it listens on.
    pub(crate) address: SocketAddr,
}

impl Drop for Serving {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts `serve` as `command` says (its `--listen` must be `127.0.0.1:0`).
pub(crate) fn serve_as(command: &mut Command) -> Serving {
    let (child, address) = spawn_listening(command, Duration::from_secs(60));
    Serving { child, address }
}

/// `serve` on `data` on a free loopback port, rate limit off, with `flags` added.
pub(crate) fn serve(data: &Path, flags: &[&str]) -> Serving {
    serve_as(
        command(data)
            .args(["serve", "--listen", "127.0.0.1:0", "--rate-limit", "0"])
            .args(flags),
    )
}
