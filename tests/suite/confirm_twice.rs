//! A contributed tool that writes twice in one call, on a wiki with `confirm_writes=true` over
//! protocol 2026-07-28: it announces both writes, the person is asked about both in one
//! question (before, the question named the first write only), and the one yes covers the call,
//! so both writes land (before that, the second write asked again after the first had landed,
//! and its single-use answer was refused, leaving the call half-done).

use serde_json::json;
use wiki_store::ConfigStore;
use wiki_tool_sdk::prelude::*;

use crate::confirm::{Client, audited, is_error, page, text};
use crate::harness::TestServer;

/// Create two pages with the same content, one write each.
#[mcp_tool(id = "write_twice", category = "Testing", write)]
pub(crate) struct WriteTwice {
    /// The first page to create, e.g. "Sandbox.One".
    first: String,
    /// The second page to create, e.g. "Sandbox.Two".
    second: String,
    /// The content of both.
    content: String,
}

impl Execute for WriteTwice {
    async fn execute(self, ctx: &ToolContext) -> ToolResult {
        let door = ctx.doors()?.write()?;
        let change = RowChange {
            content: self.content.clone(),
            title: None,
            major: false,
        };
        let mut targets = Vec::new();
        for reference in [&self.first, &self.second] {
            let target = door.target(reference, None, None, Right::Edit).await?;
            let base = target.base(None, BaseRule::RequiredIfExists, "Retry the call.")?;
            targets.push((target, base));
        }
        // Both writes announced first: the person is asked about both at once.
        let planned: Vec<_> = targets
            .iter()
            .map(|(target, _)| PlannedWrite::Save(target, &change))
            .collect();
        door.announce(&planned).await?;
        for (target, base) in targets {
            door.save(
                &target,
                change.clone(),
                Comment::new(None, "Written twice"),
                base,
            )
            .await?;
        }
        Ok(ToolOutput::text("Created both pages."))
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_yes_covers_every_write_of_the_call() {
    let server = TestServer::start().await;
    let main = WikiId::main();
    let mut config = server.store.mcp_config(&main);
    config.enabled_tools = vec!["write_twice".to_owned()];
    config.confirm_writes = true;
    server
        .store
        .set_mcp_config(&main, &config, "admin")
        .expect("the configuration is saved");
    let admin = Client::new(&server, &server.admin_token);
    let arguments = json!({"first": "Sandbox.One", "second": "Sandbox.Two", "content": "twice"});

    let (message, state) = admin.asked("write_twice", &arguments).await;
    assert_eq!(
        message,
        "An AI agent asks to make 2 changes: create main:Sandbox.One with 5 characters; create \
         main:Sandbox.Two with 5 characters on the wiki \"main\" (tool write_twice). Allow these \
         changes?"
    );
    assert_eq!(
        page(&server, "Sandbox.One"),
        None,
        "nothing before the answer"
    );

    let written = admin
        .answer("write_twice", &arguments, &state, "accept")
        .await;
    assert!(!is_error(&written), "{written}");
    assert_eq!(text(&written), "Created both pages.");
    assert_eq!(
        page(&server, "Sandbox.One"),
        Some(("1.1".into(), "twice".into()))
    );
    assert_eq!(
        page(&server, "Sandbox.Two"),
        Some(("1.1".into(), "twice".into()))
    );
    assert_eq!(audited(&server, "write_twice", 2), ["input_required", "ok"]);
    server.stop().await.expect("the server stops");
}
