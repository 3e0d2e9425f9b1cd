//! `hello-stdio`: an MCP server over stdin/stdout serving the tools this binary links (here
//! `text_stats`), built from the framework and rmcp alone.
//!
//! The framework collects the linked tools (`mcp_runtime::registry`), builds their
//! definitions once (`ToolSet`), and serves them through its rmcp adapter (`ToolHandler`):
//! `tools/list` from the set, `tools/call` through the framework's call path (argument parsing
//! with the parameter's message on a bad argument, timeout, panic boundary, audit event).
//! stdout carries only MCP messages; a failure to start is reported on stderr.

use std::process::ExitCode;

use hello_stdio as _;
use mcp_runtime::handler::ToolHandler;
use mcp_runtime::{SchemaVariant, ToolSet};
use rmcp::ServiceExt;
use rmcp::model::Implementation;

/// What the server tells a client about itself in `initialize`.
const INSTRUCTIONS: &str = "Tools for measuring text. Call text_stats with a text to get its \
                            line, word and character counts and its most frequent words.";

#[tokio::main(flavor = "current_thread")]
async fn main() -> ExitCode {
    match serve().await {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("hello-stdio: {error}");
            ExitCode::FAILURE
        }
    }
}

/// Serves until the client closes stdin.
async fn serve() -> Result<(), Box<dyn std::error::Error>> {
    let tools = ToolSet::from_registry(mcp_runtime::registry()?, SchemaVariant::Standard)?;
    let info = Implementation::new(env!("CARGO_PKG_NAME"), env!("CARGO_PKG_VERSION"));
    let handler = ToolHandler::new(tools, info).with_instructions(INSTRUCTIONS);
    let running = handler.serve(rmcp::transport::stdio()).await?;
    running.waiting().await?;
    Ok(())
}
