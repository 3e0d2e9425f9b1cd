//! `man`: the catalog and the pages, compared whole, for what this wiki and caller can use.

use serde_json::json;
use wiki_store::testing::backend_test;

use crate::harness::{Farm, alice, assert_text, call, client, guest};

#[backend_test]
async fn the_catalog_lists_what_this_caller_can_use() {
    let farm = Farm::new();
    let alice = client(farm.manager(), alice("dev")).await;
    let catalog = call(&alice, "man", json!({}))
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert_text(
        &catalog,
        "Available tools and reference pages - use `man <name>` for full documentation:

Help
  man - Show the manual: the catalog of tools and reference pages, or one page.

Testing
  boom - Panic while running.
  boom_blocking - Panic inside a store call, on a blocking thread.
  echo - Repeat a text.
  grind - Read one document over and over for up to a minute, never checking the call's signal.
  peek - Read a document's title through the document door.
  queued - Run a job in a heavy-work slot that records that it ran.
  sleepy - Take longer than any test's call timeout.
  stepper - Work through five steps of 120 ms, reporting progress after each.

Reference
  markdown-syntax - the content syntax: CommonMark + GFM with wiki links
",
    );
}

#[backend_test]
async fn a_tool_page_follows_the_wikis_reach() {
    let farm = Farm::new();
    let on_main = client(farm.manager(), alice("main")).await;
    let page = call(&on_main, "man", json!({"tool": "peek"})).await;
    assert_text(
        &page.unwrap_or_else(|e| panic!("{e}")),
        "NAME
    peek - Read a document's title through the document door.

SYNOPSIS
    peek reference=<string> [wiki=<string>]

OPTIONS
    reference (string, required)
        The document, e.g. \"Sandbox.WebHome\".
    wiki (string, optional)
        Optional wiki id to read from instead of the current wiki.

DESCRIPTION
    Read a document's title through the document door.
",
    );
    let on_dev = client(farm.manager(), alice("dev")).await;
    let page = call(&on_dev, "man", json!({"tool": "peek"})).await;
    assert_text(
        &page.unwrap_or_else(|e| panic!("{e}")),
        "NAME
    peek - Read a document's title through the document door.

SYNOPSIS
    peek reference=<string>

OPTIONS
    reference (string, required)
        The document, e.g. \"Sandbox.WebHome\".

DESCRIPTION
    Read a document's title through the document door.
",
    );
}

#[backend_test]
async fn a_page_without_parameters_has_no_options_and_the_man_page_documents_itself() {
    let farm = Farm::new();
    let alice = client(farm.manager(), alice("dev")).await;
    let page = call(&alice, "man", json!({"tool": "echo"})).await;
    assert!(page.is_ok_and(|page| page.contains("OPTIONS\n    text (string, required)")));
    let page = call(&alice, "man", json!({"tool": "boom"})).await;
    assert_text(
        &page.unwrap_or_else(|e| panic!("{e}")),
        "NAME\n    boom - Panic while running.\n\nSYNOPSIS\n    boom\n\nDESCRIPTION\n    Panic while running.\n",
    );
    let page = call(&alice, "man", json!({"tool": "markdown-syntax"})).await;
    assert!(page.is_ok_and(|page| page.contains("[label](wiki:Space.Page)")));
}

#[backend_test]
async fn an_unknown_name_lists_what_exists_and_hidden_tools_stay_hidden() {
    let farm = Farm::new();
    farm.configure("dev", |config| {
        config.enabled_tools = vec!["echo".into(), "scribble".into()];
    });
    let guest = client(farm.manager(), guest("dev")).await;
    assert_eq!(
        call(&guest, "man", json!({"tool": "scribble"})).await,
        Err(
            "No manual entry for \"scribble\". Available tools: echo, man. Reference pages: \
             markdown-syntax."
                .to_owned()
        )
    );
    let alice = client(farm.manager(), alice("dev")).await;
    assert!(
        call(&alice, "man", json!({"tool": "scribble"}))
            .await
            .is_ok()
    );
}

#[backend_test]
async fn the_man_page_of_man_ends_with_its_prose() {
    let farm = Farm::new();
    let alice = client(farm.manager(), alice("dev")).await;
    let page = call(&alice, "man", json!({"tool": "man"})).await;
    assert_text(
        &page.unwrap_or_else(|e| panic!("{e}")),
        "NAME
    man - Show the manual: the catalog of tools and reference pages, or one page.

SYNOPSIS
    man [tool=<string>]

OPTIONS
    tool (string, optional)
        A tool or reference page; omit it for the catalog.

DESCRIPTION
    Show the manual: the catalog of tools and reference pages, or one page.

NOTES
    Without `tool`, lists every tool this endpoint offers you, by category, and the reference
    pages. With `tool`, shows that tool's manual page (synopsis, options, description, notes
    and examples) or a reference page such as \"markdown-syntax\".

    The catalog and the pages list only what this endpoint offers you: tools this wiki
    enables (write tools only for signed-in users) and the reference pages.

EXAMPLES
    man
    man tool=\"get_document\"
    man tool=\"markdown-syntax\"

SEE ALSO
    markdown-syntax
",
    );
}
