//! `serve --metrics-listen`: the stock binary serves its metrics there without a token, with
//! the semantic indexer's backlog its start-up hook publishes.

use crate::Needs;
use crate::served::{Served, init};

pub(crate) fn cases() -> Vec<(&'static str, Needs)> {
    vec![(
        "the_metrics_address_serves_the_metrics_and_the_hooks_gauges",
        Needs::Nothing(the_metrics_address_serves_the_metrics),
    )]
}

fn the_metrics_address_serves_the_metrics() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().to_str().unwrap();
    let farm = ["--data", data];
    init(&farm);
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|listener| listener.local_addr())
        .unwrap()
        .port();
    let metrics = format!("127.0.0.1:{port}");
    let served = Served::start(&farm, &["--metrics-listen", &metrics]);
    let text = served
        .client
        .get(format!("http://{metrics}/metrics"))
        .send()
        .and_then(|response| response.error_for_status())
        .and_then(|response| response.text())
        .expect("the metrics address answers");
    // Read back with a Prometheus text-format parser, as a scraper would.
    let scrape = prometheus_parse::Scrape::parse(text.lines().map(|line| Ok(line.to_owned())))
        .unwrap_or_else(|error| panic!("not the Prometheus text format ({error}):\n{text}"));
    for name in [
        "wiki_mcp_http_open_connections",
        "wiki_mcp_db_pool_max_connections",
        "wiki_mcp_semantic_index_backlog",
    ] {
        assert!(
            scrape.samples.iter().any(|sample| sample.metric == name),
            "{name} missing:\n{text}"
        );
    }
    let (status, refusal, _) = served.get("/metrics");
    assert_eq!(
        (status, refusal.as_deref()),
        (401, Some("token-required")),
        "the main address asks for a farm administrator's token"
    );
}
