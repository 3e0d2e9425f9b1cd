//! `/metrics` through a real server: who may read it, and what it says, read back with a
//! Prometheus text-format parser (`prometheus-parse`) as a scraper would.

use std::collections::HashMap;

use prometheus_parse::{Scrape, Value as Sample};
use serde_json::json;
use wiki_server::http::{HttpOptions, RateLimit, Refusal};
use wiki_tool_sdk::startup::Gauge;

use crate::harness::{Answer, TestServer};

/// `GET /metrics` on `base` with `token`.
async fn get_metrics(base: &str, token: Option<&str>) -> reqwest::Response {
    let mut request = reqwest::Client::new().get(format!("{base}/metrics"));
    if let Some(token) = token {
        request = request.header("authorization", format!("Bearer {token}"));
    }
    request.send().await.expect("the server answers")
}

/// The scrape of `response`, which must be a 200 in the text format.
async fn parsed(response: reqwest::Response) -> Scrape {
    assert_eq!(Answer::of(&response), Answer::ok());
    let content_type = response
        .headers()
        .get("content-type")
        .and_then(|value| value.to_str().ok())
        .unwrap_or_default()
        .to_owned();
    assert!(
        content_type.starts_with("text/plain; version=0.0.4"),
        "{content_type}"
    );
    let text = response.text().await.expect("a body");
    Scrape::parse(text.lines().map(|line| Ok(line.to_owned())))
        .unwrap_or_else(|error| panic!("not the Prometheus text format ({error}):\n{text}"))
}

/// The value of the sample `name` whose labels include `labels`: a counter's or gauge's value,
/// a histogram's count.
fn value(scrape: &Scrape, name: &str, labels: &[(&str, &str)]) -> Option<f64> {
    scrape
        .samples
        .iter()
        .filter(|sample| sample.metric == name)
        .find(|sample| {
            labels
                .iter()
                .all(|(key, value)| sample.labels.get(key) == Some(*value))
        })
        .map(|sample| match &sample.value {
            Sample::Counter(value) | Sample::Gauge(value) | Sample::Untyped(value) => *value,
            Sample::Histogram(buckets) => buckets.last().map_or(0.0, |bucket| bucket.count),
            Sample::Summary(_) => f64::NAN,
        })
}

async fn call(server: &TestServer, token: Option<&str>, tool: &str, arguments: serde_json::Value) {
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": {"name": tool, "arguments": arguments}});
    let answer = server.post("main", token, &body, &[]).await;
    assert_eq!(Answer::of(&answer), Answer::ok());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn only_a_farm_administrator_reads_the_metrics_on_the_main_address() {
    let server = TestServer::start().await;
    assert_eq!(
        Answer::of(&get_metrics(&server.base, None).await),
        Answer::refused(&Refusal::TokenRequired {
            resource_metadata: None
        }),
        "never the guest"
    );
    assert_eq!(
        Answer::of(&get_metrics(&server.base, Some("wmcp_forged")).await),
        Answer::refused(&Refusal::InvalidToken {
            resource_metadata: None
        })
    );
    assert_eq!(
        Answer::of(&get_metrics(&server.base, Some(&server.alice_token)).await),
        Answer::refused(&Refusal::FarmAdminRequired),
        "a user who administers nothing"
    );
    parsed(get_metrics(&server.base, Some(&server.admin_token)).await).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn calls_responses_refusals_and_pools_are_counted() {
    let server = TestServer::start().await;
    let alice = server.alice_token.clone();
    call(&server, Some(&alice), "man", json!({})).await;
    call(&server, Some(&alice), "man", json!({})).await;
    call(
        &server,
        Some(&alice),
        "man",
        json!({"tool": "no_such_tool"}),
    )
    .await;
    call(&server, None, "list_wikis", json!({})).await;
    server.list_tools("main", Some("wmcp_forged")).await;
    server.list_tools("nowhere", None).await;
    let backlog = Gauge::new("test_backlog", "A start-up hook's gauge, set by the test.");
    server.manager.metrics().publish(backlog.clone());
    backlog.set(7);

    let scrape = parsed(get_metrics(&server.base, Some(&server.admin_token)).await).await;
    let calls = |tool: &str, outcome: &str| {
        value(
            &scrape,
            "wiki_mcp_tool_calls_total",
            &[("wiki", "main"), ("tool", tool), ("outcome", outcome)],
        )
    };
    assert_eq!(calls("man", "ok"), Some(2.0));
    assert_eq!(calls("man", "error"), Some(1.0));
    assert_eq!(calls("list_wikis", "ok"), Some(1.0));
    assert_eq!(
        calls("get_document", "ok"),
        None,
        "no series for a tool not called"
    );
    assert_eq!(
        value(
            &scrape,
            "wiki_mcp_tool_call_duration_seconds",
            &[("wiki", "main"), ("tool", "man")]
        ),
        Some(3.0)
    );
    let responses = |status: &str| {
        value(
            &scrape,
            "wiki_mcp_http_responses_total",
            &[("status", status)],
        )
    };
    assert_eq!(responses("200"), Some(4.0));
    assert_eq!(responses("401"), Some(1.0));
    assert_eq!(responses("404"), Some(1.0));
    assert_eq!(
        value(
            &scrape,
            "wiki_mcp_authentication_refusals_total",
            &[("reason", "invalid-token")]
        ),
        Some(1.0)
    );
    let gauge = |name: &str, labels: &[(&str, &str)]| value(&scrape, name, labels);
    assert_eq!(
        gauge("wiki_mcp_http_open_connections", &[]).map(|n| n >= 1.0),
        Some(true)
    );
    assert_eq!(gauge("wiki_mcp_http_open_streams", &[]), Some(0.0));
    assert!(
        gauge("wiki_mcp_db_pool_max_connections", &[]).is_some_and(|max| max >= 2.0),
        "the SQLite pool's readers and writer"
    );
    for (name, labels) in [
        ("wiki_mcp_db_pool_connections", &[("state", "in_use")][..]),
        ("wiki_mcp_db_pool_connections", &[("state", "idle")][..]),
        ("wiki_mcp_db_pool_waits_total", &[][..]),
        ("wiki_mcp_db_pool_wait_seconds_total", &[][..]),
        ("wiki_mcp_audit_queue_depth", &[][..]),
        (
            "wiki_mcp_store_errors_total",
            &[("kind", "unavailable")][..],
        ),
        ("wiki_mcp_store_errors_total", &[("kind", "failed")][..]),
    ] {
        assert!(gauge(name, labels).is_some(), "{name} {labels:?}");
    }
    assert_eq!(gauge("wiki_mcp_test_backlog", &[]), Some(7.0));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rate_limited_requests_are_counted_by_limit() {
    let server = TestServer::start_with(HttpOptions {
        rate_limit: Some(RateLimit {
            per_second: 1,
            burst: 1,
        }),
        ..HttpOptions::default()
    })
    .await;
    let alice = server.alice_token.clone();
    server.list_tools("main", Some(&alice)).await;
    let limited = server.list_tools("main", Some(&alice)).await;
    assert_eq!(Answer::of(&limited).status, 429);
    let scrape = parsed(get_metrics(&server.base, Some(&server.admin_token)).await).await;
    assert_eq!(
        value(
            &scrape,
            "wiki_mcp_rate_limited_requests_total",
            &[("limit", "mcp")]
        ),
        Some(1.0)
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_metrics_address_serves_them_without_a_token() {
    let server = TestServer::start_with(HttpOptions {
        rate_limit: None,
        metrics_listen: Some(([127, 0, 0, 1], 0).into()),
        ..HttpOptions::default()
    })
    .await;
    let address = server.metrics_bound.expect("a metrics address");
    let scrape = parsed(get_metrics(&format!("http://{address}"), None).await).await;
    let names: HashMap<&str, usize> =
        scrape
            .samples
            .iter()
            .fold(HashMap::new(), |mut names, sample| {
                *names.entry(sample.metric.as_str()).or_default() += 1;
                names
            });
    assert!(
        names.contains_key("wiki_mcp_http_open_connections"),
        "{names:?}"
    );
    // Only the metrics there: the MCP endpoint is not served on it.
    let endpoint = reqwest::get(format!("http://{address}/rest/wikis/main/aiLLM/mcp"))
        .await
        .expect("an answer");
    assert_eq!(endpoint.status(), 404);
}
