//! A contributed tool may not take an id the runtime keeps for its own tools (`man`,
//! `list_wikis`): the registry refuses it, naming both declarations.

use fixture_reserved_tools as _;
use mcp_runtime::{Error, Registry};

#[test]
fn a_contributed_tool_claiming_a_reserved_id_is_refused() {
    let refused = Registry::load().map(|registry| registry.tools().len());
    assert_eq!(
        refused,
        Err(Error::ReservedTool {
            id: "man",
            module: "fixture_reserved_tools::man",
            owner: "mcp_runtime::man",
        })
    );
    let message = mcp_runtime::registry().map(|_| ()).unwrap_err().to_string();
    assert!(message.contains("`man` is reserved"), "{message}");
    assert!(message.contains("fixture_reserved_tools::man"), "{message}");
    assert!(message.contains("mcp_runtime::man"), "{message}");
}
