//! A contributed tool may not take an id this server keeps for its own tools (`man`,
//! `list_wikis`): the server's registry refuses it, naming both declarations.

use fixture_reserved_tools as _;
use mcp_runtime::{Error, Registry};

#[test]
fn a_contributed_tool_claiming_a_reserved_id_is_refused() {
    let refused = Registry::load_reserving(&[wiki_server::RESERVED]).map(|r| r.tools().len());
    assert_eq!(
        refused,
        Err(Error::ReservedTool {
            id: "man",
            module: "fixture_reserved_tools::man",
            owner: "wiki_server::man",
        })
    );
    let message = wiki_server::registry()
        .map(|_| ())
        .err()
        .map(|error| error.to_string())
        .unwrap_or_default();
    assert!(message.contains("`man` is reserved"), "{message}");
    assert!(message.contains("fixture_reserved_tools::man"), "{message}");
    assert!(message.contains("wiki_server::man"), "{message}");
}

#[test]
fn without_the_servers_reservation_the_same_tools_are_only_a_duplicate() {
    // The framework names no server: its own registry sees two tools called `man`.
    let refused = mcp_runtime::registry().map(|r| r.tools().len());
    assert_eq!(
        refused,
        Err(Error::DuplicateTool {
            id: "man",
            first: "fixture_reserved_tools::man",
            second: "wiki_server::man",
        })
    );
}
