//! Calling a registered tool the way the server will: by id, with a JSON argument object.

use std::pin::pin;
use std::task::{Context, Poll, Waker};

use mcp_runtime::RegisteredTool;
use mcp_runtime::tool::{ContentBlock, ToolContext};
use serde_json::Value;

/// The registry of this test binary (its own tools plus the linked contributed crate).
pub(crate) fn tool(id: &str) -> &'static RegisteredTool {
    let registry = match mcp_runtime::registry() {
        Ok(registry) => registry,
        Err(error) => panic!("the registry refused this binary's tools: {error}"),
    };
    registry
        .get(id)
        .unwrap_or_else(|| panic!("no tool `{id}` in the registry"))
}

/// The served input schema of `id` for the given reach, as JSON.
pub(crate) fn schema(id: &str, cross_wiki_reach: bool) -> Value {
    match tool(id).definition(cross_wiki_reach) {
        Ok(definition) => Value::Object((*definition.input_schema).clone()),
        Err(error) => panic!("{error}"),
    }
}

/// Calls `id` with `args` (which must be a JSON object) as user `alice` on wiki `main`:
/// the text of the result, or the agent-facing error message.
pub(crate) fn call(id: &str, args: &Value) -> Result<String, String> {
    let Value::Object(args) = args else {
        panic!("arguments must be an object, got {args}");
    };
    let ctx = ToolContext::new(Some("alice".to_owned()), "main", true);
    let future = pin!((tool(id).declaration().invoke)(&ctx, args));
    // The test tools never wait on anything, so one poll completes them.
    match future.poll(&mut Context::from_waker(Waker::noop())) {
        Poll::Ready(Ok(output)) => match output.content.as_slice() {
            [ContentBlock::Text(text)] => Ok(text.clone()),
            other => panic!("expected one text block, got {other:?}"),
        },
        Poll::Ready(Err(error)) => Err(error.message().to_owned()),
        Poll::Pending => panic!("test tools complete without waiting"),
    }
}
