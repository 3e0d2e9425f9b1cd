//! A JSON body within the byte cap but of very many values is refused before it is parsed,
//! so its cost in memory stays near its size.

use std::io::Write as _;

use wiki_server::http::{HttpOptions, REFUSAL_HEADER, Refusal};

use crate::harness::TestServer;

/// Set in the process [`a_body_of_700000_keys_is_refused_within_64_mb`] starts.
const MEASURED: &str = "WIKI_MCP_TEST_MEASURE_BODY_PEAK";

/// The process's peak resident memory (kB) since the last reset, read from /proc (Linux).
fn peak_memory() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|line| line.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// A `tools/call` whose arguments are `keys` short keys: about 19 bytes each.
fn many_keys(keys: usize) -> String {
    let mut body = String::with_capacity(keys * 19 + 128);
    body.push_str(
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_document","arguments":{"#,
    );
    for i in 0..keys {
        if i > 0 {
            body.push(',');
        }
        body.push_str(&format!("\"key{i:012}\":0"));
    }
    body.push_str("}}}");
    body
}

/// Regression: a 13 MB body of 700,000 keys was parsed into a tree before anything looked at
/// it, raising the server's peak memory by about 240 MB (40 at once: 820 MB). Peak memory is
/// per process and other tests run beside this one: the test binary runs it again, alone, in
/// a process of its own, which resets its peak, sends the body and checks the peak grew by at
/// most 64 MB.
#[test]
fn a_body_of_700000_keys_is_refused_within_64_mb() {
    if std::env::var_os(MEASURED).is_none() {
        let current = std::env::current_exe().unwrap_or_default();
        let name = "body_shape::a_body_of_700000_keys_is_refused_within_64_mb";
        let run = std::process::Command::new(current)
            .args(["--exact", name, "--test-threads=1", "--nocapture"])
            .env(MEASURED, "1")
            .output()
            .unwrap_or_else(|error| panic!("cannot run the test binary: {error}"));
        assert!(
            run.status.success(),
            "{}{}",
            String::from_utf8_lossy(&run.stdout),
            String::from_utf8_lossy(&run.stderr)
        );
        return;
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap_or_else(|error| panic!("{error}"));
    let server = runtime.block_on(TestServer::start_with(HttpOptions {
        rate_limit: None,
        ..HttpOptions::default()
    }));
    let body = many_keys(700_000);
    assert!(body.len() > 13_000_000 && body.len() < 16 * 1024 * 1024);
    let client = reqwest::Client::new();
    let reset = std::fs::write("/proc/self/clear_refs", "5");
    let Some(before) = peak_memory().filter(|_| reset.is_ok()) else {
        let _ = writeln!(
            std::io::stderr(),
            "peak memory not measured: /proc/self/status and clear_refs are Linux-only"
        );
        return;
    };
    let response = runtime.block_on(
        client
            .post(format!("{}/rest/wikis/main/aiLLM/mcp", server.base))
            .header("Content-Type", "application/json")
            .header("Accept", "application/json, text/event-stream")
            .bearer_auth(&server.admin_token)
            .body(body)
            .send(),
    );
    let response = response.unwrap_or_else(|error| panic!("{error}"));
    let grew = peak_memory().unwrap_or(u64::MAX).saturating_sub(before);
    let _ = writeln!(std::io::stderr(), "peak memory grew by {grew} kB");
    assert!(
        grew <= 64 * 1024,
        "the body must be refused before it is parsed: the peak grew by {grew} kB"
    );
    assert_eq!(response.status(), 413);
    assert_eq!(
        response
            .headers()
            .get(REFUSAL_HEADER)
            .and_then(|value| value.to_str().ok()),
        Some(
            Refusal::BodyTooComplex {
                values: 100_000,
                depth: 64
            }
            .code()
        )
    );
}
