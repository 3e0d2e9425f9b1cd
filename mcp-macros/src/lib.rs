//! `#[mcp_tool]` and the parameter derives. Use them through `mcp_runtime::prelude`.
