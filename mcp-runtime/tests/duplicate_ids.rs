//! A binary linking two crates that both declare `contributed_echo` must not start: the registry
//! names both declarations instead of picking one by link order.

use fixture_contributed_tools as _;
use fixture_duplicate_tools as _;
use mcp_runtime::{Error, Registry};

#[test]
fn duplicate_ids_across_crates_are_refused_naming_both_declarations() {
    let refused = Registry::load().map(|registry| registry.tools().len());
    assert_eq!(
        refused,
        Err(Error::DuplicateTool {
            id: "contributed_echo",
            first: "fixture_contributed_tools::contributed_echo",
            second: "fixture_duplicate_tools::contributed_echo",
        })
    );
    let message = mcp_runtime::registry().map(|_| ()).unwrap_err().to_string();
    assert!(
        message.starts_with("duplicate tool id `contributed_echo`: ")
            && message.contains("fixture_contributed_tools::contributed_echo")
            && message.contains("fixture_duplicate_tools::contributed_echo"),
        "{message}"
    );
}
