//! Tools without parameters: a unit struct and an empty struct. Both accept `{}` and refuse any
//! argument, saying there are none.

use mcp_runtime::declaration::ToolParams;
use mcp_runtime::prelude::*;

/// Say hello.
#[mcp_tool(id = "hello")]
pub struct Hello;

impl Execute for Hello {
    async fn execute(self, _ctx: &ToolContext) -> ToolResult {
        Ok(ToolOutput::text("hello"))
    }
}

/// Say goodbye.
#[mcp_tool(id = "goodbye")]
pub struct Goodbye {}

impl Execute for Goodbye {
    async fn execute(self, _ctx: &ToolContext) -> ToolResult {
        Ok(ToolOutput::text("goodbye"))
    }
}

fn main() {
    let registry = mcp_runtime::registry().expect("no duplicate ids");
    for id in ["hello", "goodbye"] {
        let tool = registry.get(id).expect("registered");
        assert!(tool.declaration().params.is_empty());
        let schema = &tool.definition(mcp_runtime::SchemaVariant::Standard).expect("valid schema").input_schema;
        assert_eq!(
            schema.get("properties"),
            Some(&mcp_runtime::__private::serde_json::json!({}))
        );
    }

    let empty = mcp_runtime::param::JsonObject::new();
    assert!(Hello::parse_args(&empty).is_ok());
    assert!(Goodbye::parse_args(&empty).is_ok());

    let mut args = mcp_runtime::param::JsonObject::new();
    args.insert("verbose".to_owned(), true.into());
    let error = Hello::parse_args(&args).err().expect("refused");
    // The runtime owns the wording; the contract is: it names the argument and says there are
    // no parameters to send.
    let message = error.to_string();
    assert!(
        message.starts_with("Error: 'verbose' is not a parameter of this tool."),
        "{message}"
    );
    assert!(message.contains("no arguments"), "{message}");
    assert!(Goodbye::parse_args(&args).is_err());
}
