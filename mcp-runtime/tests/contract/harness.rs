//! Calling a registered tool the way a server does: through the framework's one call path
//! ([`mcp_runtime::call::call`]), by id, with a JSON argument object.

use std::cell::RefCell;
use std::sync::OnceLock;

use mcp_runtime::call::{CallSettings, ToolCall, call as call_tool};
use mcp_runtime::{RegisteredTool, SchemaVariant, ToolContext, ToolSet};
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

/// The served input schema of `id` in `variant`, as JSON.
pub(crate) fn schema(id: &str, variant: SchemaVariant) -> Value {
    match tool(id).definition(variant) {
        Ok(definition) => Value::Object((*definition.input_schema).clone()),
        Err(error) => panic!("{error}"),
    }
}

/// Every tool of this binary, in the extended variant (which advertises every parameter).
pub(crate) fn every_tool() -> &'static ToolSet {
    static TOOLS: OnceLock<ToolSet> = OnceLock::new();
    TOOLS.get_or_init(|| {
        let registry = mcp_runtime::registry().unwrap_or_else(|error| panic!("{error}"));
        ToolSet::from_registry(registry, SchemaVariant::Extended)
            .unwrap_or_else(|error| panic!("{error}"))
    })
}

/// Runs `future` to completion on this thread's runtime (the property tests call thousands of
/// times; one runtime per thread keeps that cheap).
pub(crate) fn block_on<F: Future>(future: F) -> F::Output {
    thread_local! {
        static RUNTIME: RefCell<Option<tokio::runtime::Runtime>> = const { RefCell::new(None) };
    }
    RUNTIME.with(|cell| {
        let mut slot = cell.borrow_mut();
        let runtime = slot.get_or_insert_with(|| {
            tokio::runtime::Builder::new_current_thread()
                .enable_time()
                .build()
                .unwrap_or_else(|error| panic!("a test runtime: {error}"))
        });
        runtime.block_on(future)
    })
}

/// Calls `id` with `args` (which must be a JSON object) as user `alice` among every tool of
/// this binary: the text of the result, or the agent-facing error message.
pub(crate) fn call(id: &str, args: &Value) -> Result<String, String> {
    call_as(Some("alice"), id, args)
}

/// [`call`] as `user` (`None`: the guest).
pub(crate) fn call_as(user: Option<&str>, id: &str, args: &Value) -> Result<String, String> {
    let Value::Object(args) = args else {
        panic!("arguments must be an object, got {args}");
    };
    let request = ToolCall::new(id, args.clone());
    let ctx = ToolContext::new(user.map(str::to_owned));
    let result = block_on(call_tool(
        every_tool(),
        request,
        ctx,
        &CallSettings::default(),
    ))
    .unwrap_or_else(|error| panic!("`{id}` is not served: {}", error.message));
    let text = match result.content.as_slice() {
        [block] => match block.as_text() {
            Some(text) => text.text.clone(),
            None => panic!("expected a text block, got {block:?}"),
        },
        other => panic!("expected one block, got {other:?}"),
    };
    if result.is_error == Some(true) {
        Err(text)
    } else {
        Ok(text)
    }
}
