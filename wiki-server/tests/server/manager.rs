//! The manager: built once, rebuilt on configuration changes (in-process events and other
//! processes' writes), faulty tools skipped.

use std::sync::Arc;
use wiki_store::testing::backend_test;

use wiki_server::{Manager, WikiServer};
use wiki_store::rights::{Effect, Right, RightRule, RightScope, Subject};

use crate::harness::{Farm, configure, wiki};
use crate::logs;

async fn server(manager: &Manager, id: &str) -> Arc<WikiServer> {
    match manager.server(&wiki(id)).await {
        Ok(Some(server)) => server,
        Ok(None) => panic!("no wiki {id}"),
        Err(error) => panic!("{error}"),
    }
}

fn ids(server: &WikiServer, guest: bool) -> Vec<&'static str> {
    server
        .tools(guest)
        .iter()
        .map(|served| served.tool.id())
        .collect()
}

#[backend_test(flavor = "multi_thread", worker_threads = 2)]
async fn concurrent_first_requests_build_once() {
    let farm = Farm::new();
    let manager = farm.manager();
    let requests: Vec<_> = (0..16)
        .map(|_| {
            let manager = Arc::clone(&manager);
            tokio::spawn(async move { server(&manager, "dev").await })
        })
        .collect();
    let mut servers = Vec::new();
    for request in requests {
        servers.push(request.await.unwrap_or_else(|error| panic!("{error}")));
    }
    assert!(servers.iter().all(|s| Arc::ptr_eq(s, &servers[0])));
    assert!(Arc::ptr_eq(&server(&manager, "dev").await, &servers[0]));
}

#[backend_test]
async fn an_unknown_wiki_has_no_server() {
    let farm = Farm::new();
    let manager = farm.manager();
    assert!(matches!(manager.server(&wiki("nope")).await, Ok(None)));
}

#[backend_test]
async fn a_config_save_rebuilds_that_wiki_and_keeps_the_others() {
    let farm = Farm::new();
    let manager = farm.manager();
    let main_before = server(&manager, "main").await;
    let dev_before = server(&manager, "dev").await;
    assert!(!ids(&dev_before, false).contains(&"scribble"));

    farm.configure("dev", |config| {
        config.enabled_tools = vec!["echo".into(), "scribble".into()];
    });
    let dev_after = server(&manager, "dev").await;
    assert!(!Arc::ptr_eq(&dev_before, &dev_after));
    assert_eq!(ids(&dev_after, false), ["echo", "man", "scribble"]);
    assert_eq!(ids(&dev_after, true), ["echo", "man"]);
    // The old server still answers for calls that started on it.
    assert!(!ids(&dev_before, false).contains(&"scribble"));
    // main's inputs did not change: same server.
    assert!(Arc::ptr_eq(&main_before, &server(&manager, "main").await));
}

#[backend_test]
async fn reach_comes_from_the_main_wiki_only() {
    let farm = Farm::new();
    let manager = farm.manager();
    // Until reach is initialized only main has it.
    assert!(server(&manager, "main").await.reach());
    assert!(!server(&manager, "dev").await.reach());
    // A sub-wiki cannot grant itself reach.
    farm.configure("dev", |config| {
        config.reach_initialized = true;
        config.reach_enabled_wikis = vec!["dev".into()];
    });
    let dev = server(&manager, "dev").await;
    assert!(!dev.reach() && !ids(&dev, false).contains(&"list_wikis"));
    // A save on main reaches every wiki.
    farm.configure("main", |config| {
        config.reach_initialized = true;
        config.reach_enabled_wikis = vec!["dev".into()];
    });
    let dev = server(&manager, "dev").await;
    assert!(dev.reach() && ids(&dev, false).contains(&"list_wikis"));
    let main = server(&manager, "main").await;
    assert!(!main.reach() && !ids(&main, false).contains(&"list_wikis"));
}

#[backend_test]
async fn another_process_changes_apply_on_the_next_request() {
    let farm = Farm::new();
    let manager = farm.manager();
    let before = server(&manager, "dev").await;
    assert!(before.enabled());
    // An admin command in another process: its store has no link to this manager's listener.
    let admin = farm.other_process();
    configure(admin.as_ref(), "dev", |config| {
        config.enabled = false;
        config.description = Some("Disabled for maintenance".into());
    });
    farm.until_seen("the wiki disabled", async || {
        !server(&manager, "dev").await.enabled()
    })
    .await;
    let after = server(&manager, "dev").await;
    assert!(after.instructions().starts_with("Disabled for maintenance"));

    // Rights changed elsewhere reach the doors of the next call too.
    let caller = crate::harness::alice("main");
    let main = server(&manager, "main").await;
    let sandbox = crate::harness::reference("Sandbox.WebHome");
    let visible = |manager: &Manager, main: &Arc<WikiServer>| {
        manager.doors(main, &caller).row_visible(&sandbox)
    };
    assert!(visible(&manager, &main));
    let deny = RightRule {
        scope: RightScope::Page(sandbox.clone()),
        subject: Subject::User("alice".into()),
        right: Right::View,
        effect: Effect::Deny,
    };
    admin
        .set_right(&deny)
        .unwrap_or_else(|error| panic!("{error}"));
    farm.until_seen("the page denied", async || {
        !visible(&manager, &server(&manager, "main").await)
    })
    .await;
    // A user created elsewhere is simply there (no restart, no stale cache to clear).
    admin
        .create_user("carol", None)
        .unwrap_or_else(|error| panic!("{error}"));
    assert!(server(&manager, "main").await.enabled());
}

#[backend_test]
async fn faulty_tools_are_skipped_and_the_others_serve() {
    let log = logs::capture();
    let farm = Farm::new();
    farm.configure("dev", |config| {
        config.enabled_tools = vec!["bad_schema".into(), "explodes".into(), "echo".into()];
    });
    let manager = farm.manager();
    let dev = server(&manager, "dev").await;
    assert_eq!(ids(&dev, false), ["echo", "man"]);
    for tool in ["bad_schema", "explodes"] {
        let warned = log.lines_with(&["WARN", "skipping MCP tool", tool]);
        assert!(!warned.is_empty(), "no WARN naming {tool}");
    }
}

#[backend_test]
async fn unknown_ids_in_a_stored_list_are_ignored() {
    let log = logs::capture();
    let farm = Farm::new();
    farm.configure("dev", |config| {
        config.enabled_tools = vec!["gone_tool".into(), "echo".into()];
    });
    let manager = farm.manager();
    let dev = server(&manager, "dev").await;
    assert_eq!(ids(&dev, false), ["echo", "man"]);
    assert!(
        !log.lines_with(&["WARN", "unknown tool id", "gone_tool"])
            .is_empty()
    );
}
