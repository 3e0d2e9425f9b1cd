//! `man` pages of the bundled tools follow the endpoint's reach and the caller's tools, as the
//! schemas do: without cross-wiki reach a page says nothing of other wikis, and SEE ALSO never
//! names a tool the caller cannot call.

use serde_json::json;
use wiki_store::testing::backend_test;

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

/// Enables every linked tool on `main`; their ids.
fn enable_every_tool(farm: &Farm) -> Vec<String> {
    let ids: Vec<String> = farm
        .test_farm()
        .manager()
        .registry()
        .tools()
        .iter()
        .map(|tool| tool.id().to_owned())
        .collect();
    farm.configure("main", |config| config.enabled_tools = ids.clone());
    ids
}

async fn man(farm: &Farm, tool: &str, user: &str, wiki: &str) -> String {
    ok(farm.call("man", json!({"tool": tool}), user, wiki).await)
}

/// Regression: on an endpoint without cross-wiki reach (`sub`), pages showed
/// `wiki=` examples and pointed to list_wikis, which that endpoint does not serve.
#[backend_test]
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
#[backend_test]
async fn see_also_names_only_tools_the_caller_can_call() {
    let farm = Farm::new();
    let guest = man(&farm, "get_links", GUEST, "main").await;
    assert!(
        guest.ends_with("SEE ALSO\n    get_document, get_tree, query_documents\n"),
        "{guest}"
    );
}

/// Regression: three write tools said "Structured data" and the others "Structured
/// Data", so the catalog printed the category twice. Every tool names one of the server's
/// category constants, and the catalog shows each category once.
#[backend_test]
async fn the_catalog_shows_each_category_once() {
    let farm = Farm::new();
    enable_every_tool(&farm);
    let catalog = ok(farm.call("man", json!({}), "alice", "main").await);
    let headings: Vec<&str> = catalog
        .lines()
        .skip(1)
        .filter(|line| !line.is_empty() && !line.starts_with(' '))
        .collect();
    let mut folded: Vec<String> = headings.iter().map(|h| h.to_lowercase()).collect();
    folded.sort_unstable();
    folded.dedup();
    assert_eq!(folded.len(), headings.len(), "{catalog}");
    for heading in &headings {
        assert!(
            *heading == "Reference" || wiki_tool_sdk::categories::ALL.contains(heading),
            "{heading:?} is not one of wiki_tool_sdk::categories:\n{catalog}"
        );
    }
    for category in [
        "Authoring",
        "Structured Data",
        "Search and Navigation",
        "Help",
    ] {
        assert!(headings.contains(&category), "{category}:\n{catalog}");
    }
}

/// Regression: the delete tools' pages said base_version is "always required" while
/// their schemas had it optional. As in the reference, it is required: in the schema, in the
/// page's synopsis and options, and by the parser (before anything is looked up).
#[backend_test]
async fn the_delete_tools_require_base_version_in_schema_man_and_call() {
    let farm = Farm::new();
    // Each with every other required argument, so only base_version is missing.
    let deletes = [
        (
            "delete_attachment",
            json!({"reference": "Sandbox.WebHome", "filename": "notes.txt"}),
        ),
        ("delete_document", json!({"reference": "Sandbox.WebHome"})),
        (
            "delete_object",
            json!({"reference": "Sandbox.WebHome", "class": "Tasks.TaskClass", "object": 0}),
        ),
    ];
    farm.configure("main", |config| {
        config.enabled_tools = deletes.iter().map(|(id, _)| (*id).to_owned()).collect();
    });
    let listed = farm
        .caller("alice", "main")
        .tools_list()
        .await
        .unwrap_or_else(|error| panic!("tools/list: {error:?}"))
        .tools;
    for (id, arguments) in deletes {
        let tool = listed
            .iter()
            .find(|tool| tool.name == id)
            .unwrap_or_else(|| panic!("{id} is listed"));
        let required = tool
            .input_schema
            .get("required")
            .and_then(|required| required.as_array())
            .unwrap_or_else(|| panic!("{id} has required parameters"));
        assert!(
            required.iter().any(|name| name == "base_version"),
            "{id}: {required:?}"
        );
        let page = man(&farm, id, "alice", "main").await;
        assert!(
            page.contains(" base_version=<string> ")
                && page.contains("base_version (string, required)"),
            "{page}"
        );
        let refused = farm.call(id, arguments, "alice", "main").await;
        assert!(
            refused
                .as_ref()
                .is_err_and(|text| text.contains("'base_version' parameter is required")),
            "{id}: {refused:?}"
        );
    }
}

/// Regression: `man write_attachment` sent agents to a `get_attachment version=`
/// that does not exist. Every `<tool> <param>=` a page shows must be a parameter that tool has.
#[backend_test]
async fn pages_name_only_parameters_their_tools_have() {
    let farm = Farm::new();
    let ids = enable_every_tool(&farm);
    let listed = farm
        .caller("alice", "main")
        .tools_list()
        .await
        .unwrap_or_else(|error| panic!("tools/list: {error:?}"))
        .tools;
    let params = |id: &str| -> Vec<String> {
        listed
            .iter()
            .find(|tool| tool.name == id)
            .and_then(|tool| tool.input_schema.get("properties"))
            .and_then(|properties| properties.as_object())
            .map(|properties| properties.keys().cloned().collect())
            .unwrap_or_default()
    };
    for id in &ids {
        let page = man(&farm, id, "alice", "main").await;
        let words: Vec<&str> = page
            .split(|c: char| c.is_whitespace() || "()[],".contains(c))
            .collect();
        for pair in words.windows(2) {
            let (tool, argument) = (pair[0], pair[1]);
            let Some((name, _)) = argument.split_once('=') else {
                continue;
            };
            if !ids.iter().any(|known| known == tool) || name.is_empty() {
                continue;
            }
            assert!(
                params(tool).iter().any(|param| param == name),
                "man {id} shows `{tool} {name}=`, which {tool} does not take:\n{page}"
            );
        }
    }
}
