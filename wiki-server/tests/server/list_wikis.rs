//! `list_wikis`: this wiki first, then the wikis the caller may view, only where reach is on.

use serde_json::json;
use wiki_store::testing::backend_test;

use crate::harness::{Farm, alice, call, client, guest, tool_names, wiki};

#[backend_test]
async fn lists_this_wiki_first_then_the_viewable_ones() {
    let farm = Farm::new();
    farm.store
        .create_wiki(&wiki("archive"), "Old Archive")
        .unwrap_or_else(|error| panic!("{error}"));
    // main has reach until the main configuration initializes it.
    let user = client(farm.manager(), alice("main")).await;
    let header = "Wiki ids: pass one as `wiki` to query_documents or get_tree, prefix a \
                  reference with it (`id:Space.Page`), or use wiki=\"all\" to search every \
                  wiki.\n\n";
    // alice may view dev but not archive (no rule there: default deny).
    assert_eq!(
        call(&user, "list_wikis", json!({})).await,
        Ok(format!(
            "{header}  main — Main Wiki (this endpoint)\n  dev — Development\n"
        ))
    );
    let guest = client(farm.manager(), guest("main")).await;
    assert_eq!(
        call(&guest, "list_wikis", json!({})).await,
        Ok(format!(
            "{header}  main — Main Wiki (this endpoint)\n  dev — Development\n"
        ))
    );
    // Without reach the tool is not served at all.
    let on_dev = client(farm.manager(), alice("dev")).await;
    assert!(!tool_names(&on_dev).await.contains(&"list_wikis".to_owned()));
}
