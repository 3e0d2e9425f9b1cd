//! DESIGN's example tool, written with `mcp_runtime::prelude::*` and nothing else, registered,
//! parsed and run through its declaration.

use std::future::Future;
use std::task::{Context, Poll, Waker};

use mcp_runtime::prelude::*;

/// Read a document's revision history.
///
/// Lists revisions newest first, or shows one revision, or a diff between two.
#[mcp_tool(id = "get_history", category = "Search and Navigation")]
pub struct GetHistory {
    /// The document to read, e.g. "Sandbox.WebHome".
    reference: String,
    /// Read a translation, e.g. "fr" or "pt_BR".
    locale: Option<String>,
    /// Revisions per page (default 20, max 100).
    #[param(default = 20, range = 1..=100)]
    limit: i64,
    /// Optional wiki id to read from instead of the current wiki.
    #[param(extended)]
    wiki: Option<String>,
}

impl Execute for GetHistory {
    async fn execute(self, ctx: &ToolContext) -> ToolResult {
        if self.reference == "Missing.Page" {
            return Err("Error: the document does not exist.".into());
        }
        Ok(ToolOutput::text(format!(
            "{} on {} ({}), limit {}, locale {:?}",
            self.reference,
            self.wiki.as_deref().unwrap_or("this wiki"),
            ctx.user().unwrap_or("guest"),
            self.limit,
            self.locale
        )))
    }
}

/// Runs a future that never waits (these tools do no I/O) to completion.
fn run<F: Future>(future: F) -> F::Output {
    let mut future = std::pin::pin!(future);
    match future
        .as_mut()
        .poll(&mut Context::from_waker(Waker::noop()))
    {
        Poll::Ready(output) => output,
        Poll::Pending => panic!("the tool waited on nothing"),
    }
}

fn main() {
    let registry = mcp_runtime::registry().expect("no duplicate ids");
    let declaration = registry
        .get("get_history")
        .expect("registered by being linked")
        .declaration();
    assert_eq!(declaration.summary, "Read a document's revision history.");
    assert_eq!(
        declaration.description,
        "Read a document's revision history.\n\n\
         Lists revisions newest first, or shows one revision, or a diff between two."
    );
    assert_eq!(declaration.category, "Search and Navigation");
    assert!(!declaration.write);

    let ctx = ToolContext::new(Some("alice".to_owned()));
    let args = mcp_runtime::__private::serde_json::json!({
        "reference": " Sandbox.WebHome ",
        "limit": "5"
    });
    let args = args.as_object().expect("an object");
    let output = run((declaration.invoke)(&ctx, args)).expect("runs");
    assert_eq!(
        output,
        ToolOutput::text("Sandbox.WebHome on this wiki (alice), limit 5, locale None")
    );

    let missing = mcp_runtime::__private::serde_json::json!({ "reference": "Missing.Page" });
    let error = run((declaration.invoke)(
        &ctx,
        missing.as_object().expect("an object"),
    ))
    .expect_err("the tool's own error");
    assert_eq!(error.message(), "Error: the document does not exist.");

    let unknown = mcp_runtime::__private::serde_json::json!({ "reference": "A", "limti": 3 });
    let error = run((declaration.invoke)(
        &ctx,
        unknown.as_object().expect("an object"),
    ))
    .expect_err("unknown names are refused before the tool runs");
    assert!(error.message().contains("'limti'"), "{}", error.message());
    assert!(
        error.message().contains("reference, locale, limit, wiki"),
        "{}",
        error.message()
    );
}
