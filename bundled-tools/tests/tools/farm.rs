//! The harness itself: calls really go through the middleware (parsing, refusals, audit).

use serde_json::json;

use crate::harness::{Farm, GUEST};

#[tokio::test]
async fn calls_go_through_the_manager_and_the_middleware() {
    let farm = Farm::new();
    let catalog = farm.call("man", json!({}), "alice", "main").await;
    assert!(catalog.is_ok_and(|text| text.starts_with("Available tools")));
    // The middleware's parser refuses unknown arguments with the accepted ones.
    let refused = farm.call("man", json!({"bogus": 1}), GUEST, "main").await;
    assert!(
        refused.is_err_and(|text| text.contains("bogus")),
        "unknown argument not refused"
    );
}
