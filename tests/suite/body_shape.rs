//! A JSON body within the byte cap but of very many values is refused before it is parsed,
//! so its cost in memory stays near its size.

use wiki_server::http::{HttpOptions, REFUSAL_HEADER, Refusal};
use wiki_server::testing::PeakMemory;

use crate::harness::TestServer;
use crate::many_keys::many_keys;

/// Regression: a 13 MB body of 700,000 keys was parsed into a tree before anything looked at
/// it, raising the server's peak memory by about 240 MB (40 at once: 820 MB). Peak memory is
/// per process, so the test is measured alone in a process of its own ([`PeakMemory::in_own_process`]):
/// the server is started, the peak reset, the body sent, and the peak may grow by 64 MB at most.
#[test]
fn a_body_of_700000_keys_is_refused_within_64_mb() {
    if !PeakMemory::in_own_process("body_shape::a_body_of_700000_keys_is_refused_within_64_mb") {
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
    let Some(peak) = PeakMemory::reset() else {
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
    let grew = peak.grown_kb();
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
