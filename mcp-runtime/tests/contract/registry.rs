//! The registry of this binary: its own test tools plus a linked crate of contributed tools.

// Linking the crate is all it takes: inventory collects its declarations.
use fixture_contributed_tools as _;

use crate::harness::{call, tool};

#[test]
fn a_linked_crate_contributes_its_tools_with_no_change_to_the_runtime() {
    let registry = mcp_runtime::registry().map(|r| {
        r.tools()
            .iter()
            .map(|t| (t.id(), t.declaration().module_path))
            .collect::<Vec<_>>()
    });
    assert_eq!(
        registry,
        Ok(vec![
            (
                "contributed_echo",
                "fixture_contributed_tools::contributed_echo"
            ),
            (
                "contributed_stamp",
                "fixture_contributed_tools::contributed_stamp"
            ),
            ("every_kind", "contract::tools::every_kind"),
            ("listing", "contract::tools::structured"),
            ("lying", "contract::tools::structured"),
            // The framework declares no tool of its own: a binary serves what it links.
            ("no_params", "contract::tools::no_params"),
            ("renamed", "contract::tools::renamed"),
            ("slow", "contract::tools::slow"),
            ("tag", "contract::tools::structured"),
        ])
    );
    assert_eq!(
        call("contributed_echo", &serde_json::json!({"message": " hi "})),
        Ok("hi".to_owned())
    );
    assert!(tool("contributed_stamp").declaration().write);
}
