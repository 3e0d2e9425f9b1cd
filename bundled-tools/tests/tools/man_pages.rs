//! `man` pages of the bundled tools follow the endpoint's reach and the caller's tools, as the
//! schemas do: without cross-wiki reach a page says nothing of other wikis, and SEE ALSO never
//! names a tool the caller cannot call.

use serde_json::json;

use crate::harness::{Farm, GUEST, ok};

/// The read tools, served on every endpoint of the farm.
const READ_TOOLS: &[&str] = &[
    "get_attachment",
    "get_document",
    "get_history",
    "get_links",
    "get_schema",
    "get_tree",
    "query_documents",
    "query_objects",
];

async fn man(farm: &Farm, tool: &str, user: &str, wiki: &str) -> String {
    ok(farm.call("man", json!({"tool": tool}), user, wiki).await)
}

/// Regression (issue 11): on an endpoint without cross-wiki reach (`sub`), pages showed
/// `wiki=` examples and pointed to list_wikis, which that endpoint does not serve.
#[tokio::test]
async fn without_reach_no_page_mentions_other_wikis() {
    let farm = Farm::new();
    for tool in READ_TOOLS {
        let page = man(&farm, tool, "alice", "sub").await;
        for said in ["wiki=", "list_wikis", "cross-wiki reach"] {
            assert!(
                !page.contains(said),
                "man {tool} on sub says {said:?}:\n{page}"
            );
        }
        assert!(
            page.contains("\nEXAMPLES\n") && page.contains("\nSEE ALSO\n"),
            "{page}"
        );
    }
    // What the removed sentences shared a paragraph with stays, re-wrapped.
    let links = man(&farm, "get_links", "alice", "sub").await;
    assert!(
        links.contains("unless showHidden=true lists them.\n")
            && links.contains("    Outgoing links (direction=out)"),
        "{links}"
    );
    let tree = man(&farm, "get_tree", "alice", "sub").await;
    assert!(tree.contains("    Ages: just now, 5m ago"), "{tree}");

    let main = man(&farm, "query_documents", "alice", "main").await;
    assert!(
        main.contains("query_documents query=\"roadmap\" wiki=\"all\" offset=10")
            && main.contains("cross-wiki reach (see list_wikis).")
            && main.contains("query_objects, list_wikis\n"),
        "{main}"
    );
}

/// SEE ALSO names only tools the caller is served: no write tool for the guest.
#[tokio::test]
async fn see_also_names_only_tools_the_caller_can_call() {
    let farm = Farm::new();
    let guest = man(&farm, "get_links", GUEST, "main").await;
    assert!(
        guest.ends_with("SEE ALSO\n    get_document, get_tree, query_documents\n"),
        "{guest}"
    );
}
