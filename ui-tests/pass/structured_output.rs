//! A tool with structured output from `mcp_runtime::prelude::*` alone: `#[mcp_output]` types,
//! `output = T`, the declared hints, and the structured content its declaration's invoke yields.

use std::future::Future;
use std::task::{Context, Poll, Waker};

use mcp_runtime::prelude::*;

/// A revision.
#[mcp_output]
#[serde(rename_all = "camelCase")]
pub struct Revision {
    /// Its version, e.g. "2.1".
    pub version: String,
    /// Who saved it, when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub saved_by: Option<String>,
}

/// A page of revisions.
#[mcp_output]
pub struct Revisions {
    /// Newest first.
    pub revisions: Vec<Revision>,
}

/// List a document's revisions.
#[mcp_tool(id = "revisions", output = Revisions, open_world = false)]
pub struct ListRevisions {
    /// The document.
    reference: String,
}

impl Execute<Structured<Revisions>> for ListRevisions {
    async fn execute(self, _ctx: &ToolContext) -> ToolResult<Structured<Revisions>> {
        let revisions = vec![Revision {
            version: "1.1".to_owned(),
            saved_by: None,
        }];
        Ok(
            ToolOutput::text(format!("{}: 1.1", self.reference))
                .structured(Revisions { revisions }),
        )
    }
}

/// Delete a tag, idempotently.
#[mcp_tool(id = "untag", write, idempotent)]
pub struct Untag {
    /// The tag.
    tag: String,
}

impl Execute for Untag {
    async fn execute(self, _ctx: &ToolContext) -> ToolResult {
        Ok(ToolOutput::text(self.tag))
    }
}

fn run<F: Future>(future: F) -> F::Output {
    let mut future = std::pin::pin!(future);
    let mut cx = Context::from_waker(Waker::noop());
    loop {
        if let Poll::Ready(output) = future.as_mut().poll(&mut cx) {
            return output;
        }
    }
}

fn main() {
    let registry = mcp_runtime::registry().expect("no conflicts");
    let tool = registry.get("revisions").expect("registered");
    let declaration = tool.declaration();
    assert_eq!(declaration.output.map(|o| o.type_name), Some("Revisions"));
    assert_eq!(declaration.open_world, Some(false));
    let definition = tool.definition(mcp_runtime::SchemaVariant::Standard).expect("advertisable");
    let schema = definition.output_schema.as_ref().expect("an output schema");
    assert_eq!(schema.get("type").and_then(|t| t.as_str()), Some("object"));

    let ctx = ToolContext::new(None);
    let args = mcp_runtime::__private::serde_json::json!({ "reference": "A.B" });
    let output = run((declaration.invoke)(
        &ctx,
        args.as_object().expect("an object"),
    ))
    .expect("runs");
    assert_eq!(
        output
            .structured_content()
            .map(|s| mcp_runtime::__private::serde_json::Value::Object(s.clone())),
        Some(mcp_runtime::__private::serde_json::json!({"revisions": [{"version": "1.1"}]}))
    );
    let untag = registry.get("untag").expect("registered").declaration();
    assert!(untag.write && untag.idempotent && !untag.additive);
}
