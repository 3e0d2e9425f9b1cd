//! A contributed tool that writes twice in one call, on a wiki with `confirm_writes=true` over
//! protocol 2026-07-28: the person's one yes covers the call, so both writes land (before, the
//! second write asked again after the first had landed, and its single-use answer was refused,
//! leaving the call half-done).

use serde_json::json;
use wiki_server::prelude::*;
use wiki_store::ConfigStore;

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
        for reference in [&self.first, &self.second] {
            let target = door.target(reference, None, None, Right::Edit).await?;
            let base = target.base(None, BaseRule::RequiredIfExists, "Retry the call.")?;
            let change = RowChange {
                content: self.content.clone(),
                title: None,
                major: false,
            };
            door.save(&target, change, Comment::new(None, "Written twice"), base)
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
    assert!(message.contains("write_twice"), "{message}");
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
