//! Running the real binary from the test binaries that need it (`tests/semantic`,
//! `tests/replicas`): a `serve` child and the address it bound, and admin commands that must
//! succeed.

use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::process::{Child, Command, Output, Stdio};
use std::time::Duration;

/// Spawns `command` (a `serve --listen 127.0.0.1:0 ...`) with its stdout piped, and returns the
/// child with the address its banner names, waiting at most `within`. The rest of stdout is
/// drained on a thread so the pipe never fills. Its stderr is the test's unless `command` says
/// otherwise.
pub(crate) fn spawn_listening(command: &mut Command, within: Duration) -> (Child, SocketAddr) {
    let mut child = command.stdout(Stdio::piped()).spawn().unwrap();
    let stdout = child.stdout.take().unwrap();
    let (found, address) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut found = Some(found);
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if let Some(address) = line.strip_prefix("wiki-mcp listening on ")
                && let Some(found) = found.take()
            {
                let _ = found.send(address.trim().parse::<SocketAddr>().unwrap());
            }
        }
    });
    let address = address
        .recv_timeout(within)
        .unwrap_or_else(|_| panic!("serve did not listen within {within:?}"));
    (child, address)
}

/// The stdout of an admin command run with `args`, which must have succeeded (else its stderr
/// is the failure message).
pub(crate) fn succeeded(output: Output, args: &[&str]) -> String {
    assert!(
        output.status.success(),
        "wiki-mcp {args:?} failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout).into_owned()
}
