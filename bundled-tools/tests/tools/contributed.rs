//! A contributed write tool, written as a third party would write one: outside bundled-tools'
//! source, with `wiki_tool_sdk::prelude::*` and the public write door alone. The door, not the
//! tool, keeps it from the server's configuration and from pages its caller cannot view, and
//! records what it saves as the caller with an `[AI] ` comment.

use serde_json::json;
use wiki_store::testing::backend_test;
use wiki_tool_sdk::prelude::*;
use wiki_tool_sdk::store::model::document::Document;

use crate::harness::unchanged::Says::Exactly;
use crate::harness::{Farm, ok, reference, text};

/// Append a line to a document (created if missing).
#[mcp_tool(
    id = "append_note",
    write,
    title = "Append a note",
    category = "Authoring"
)]
struct AppendNote {
    /// The document, e.g. "Sandbox.Notes".
    reference: String,
    /// The line to append.
    line: String,
}

impl Execute for AppendNote {
    async fn execute(self, ctx: &ToolContext) -> ToolResult {
        let door = ctx.doors()?.write()?;
        let target = door
            .target(&self.reference, None, None, Right::Edit)
            .await?;
        let mut content = target
            .current()
            .map(|row| row.content.clone())
            .unwrap_or_default();
        if !content.is_empty() && !content.ends_with('\n') {
            content.push('\n');
        }
        content.push_str(&self.line);
        content.push('\n');
        let base = target.base(None, BaseRule::OptionalLock, "append the line again")?;
        let change = RowChange {
            content,
            title: None,
            major: false,
        };
        let outcome = door
            .save(&target, change, Comment::new(None, "Appended a note"), base)
            .await?;
        Ok(ToolOutput::text(format!(
            "Appended to {}.\n{}",
            target.reference(),
            version_line(&outcome)
        )))
    }
}

/// The seeded farm with `append_note` enabled on `main` (its configuration document exists).
fn farm() -> Farm {
    let farm = Farm::new();
    farm.configure("main", |config| {
        config.enabled_tools = vec!["append_note".to_owned(), "get_document".to_owned()];
    });
    farm
}

fn row(farm: &Farm, text: &str) -> Option<Document> {
    ok(farm.store.document(&reference(text), None))
}

#[backend_test]
async fn a_contributed_tool_cannot_rewrite_the_configuration_as_anyone() {
    let farm = farm();
    let before = row(&farm, "MCP.ServerConfig");
    assert!(before.is_some(), "the configuration document exists");
    for document in [
        "MCP.ServerConfig",
        "MCP.ServerConfigClass",
        "sub:MCP.ServerConfig",
    ] {
        let arguments = json!({"reference": document, "line": "guest_access=1"});
        let shown = if document.contains(':') {
            document.to_owned()
        } else {
            format!("main:{document}")
        };
        // alice may edit all of main, but only its administrators may view the configuration:
        // she is answered as for any page she may not view.
        let hidden = format!("You do not have permission to view \"{shown}\".");
        farm.refuses(
            "append_note",
            "alice",
            arguments.clone(),
            &[Exactly(&hidden)],
        )
        .await;
        if document.contains(':') {
            continue;
        }
        // The administrator may view it, and is told why the write is refused.
        let refusal = format!(
            "Error: \"{shown}\" holds this server's MCP configuration; write tools never \
             change it (an administrator uses the configuration commands). Nothing was saved."
        );
        farm.refuses("append_note", "admin", arguments, &[Exactly(&refusal)])
            .await;
    }
    assert_eq!(row(&farm, "MCP.ServerConfig"), before);
    // The endpoint still serves what its configuration says.
    let page = farm
        .call(
            "get_document",
            json!({"reference": "Sandbox.Notes"}),
            "alice",
            "main",
        )
        .await;
    assert!(page.is_ok(), "{page:?}");
}

#[backend_test]
async fn a_contributed_tool_cannot_touch_a_page_its_caller_cannot_view() {
    let farm = farm();
    // alice may edit all of main but may not view Secret: existing or not, the door answers
    // as reading does, and nothing is written.
    for page in ["Secret.Plans", "Secret.Missing"] {
        let refusal = format!("You do not have permission to view \"main:{page}\".");
        farm.refuses(
            "append_note",
            "alice",
            json!({"reference": page, "line": "pwned"}),
            &[Exactly(&refusal)],
        )
        .await;
    }
    // bob may view Secret but not edit it: told what he lacks.
    farm.refuses(
        "append_note",
        "bob",
        json!({"reference": "Secret.Plans", "line": "pwned"}),
        &[Exactly(
            "You do not have permission to edit \"main:Secret.Plans\".",
        )],
    )
    .await;
}

#[backend_test]
async fn a_contributed_tool_writes_as_its_caller_with_an_ai_comment() {
    let farm = farm();
    for user in ["alice", "admin"] {
        let answer = text(
            farm.call(
                "append_note",
                json!({"reference": "Sandbox.Notes", "line": format!("from {user}")}),
                user,
                "main",
            )
            .await,
        );
        assert!(
            answer.starts_with("Appended to main:Sandbox.Notes."),
            "{answer}"
        );
        let saved = row(&farm, "Sandbox.Notes").unwrap_or_else(|| panic!("Sandbox.Notes"));
        assert!(
            saved.content.ends_with(&format!("from {user}\n")),
            "{saved:?}"
        );
        assert_eq!(saved.author, user);
        let history = ok(farm.store.history(&reference("Sandbox.Notes"), None, 0, 1))
            .unwrap_or_else(|| panic!("Sandbox.Notes has a history"));
        let latest = history
            .revisions
            .first()
            .unwrap_or_else(|| panic!("a revision"));
        assert_eq!(latest.comment, "[AI] Appended a note");
    }
    let created = text(
        farm.call(
            "append_note",
            json!({"reference": "Sandbox.Fresh", "line": "first"}),
            "alice",
            "main",
        )
        .await,
    );
    assert!(created.ends_with("Version: 1.1"), "{created}");
    // The guest is never offered a write tool.
    let guest = farm
        .call(
            "append_note",
            json!({"reference": "Sandbox.Notes", "line": "x"}),
            crate::harness::GUEST,
            "main",
        )
        .await;
    assert!(guest.is_err_and(|error| error.contains("guests cannot")));
}
