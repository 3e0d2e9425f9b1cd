//! The tool contract end to end, through the public surface: test-only tools declared with
//! `#[mcp_tool]`, a linked crate of contributed tools, the served schemas, and the proof that
//! what a schema advertises and what the parser accepts cannot drift.

mod calls;
mod definitions;
mod drift;
mod harness;
mod parsing;
mod registry;
mod schema_gen;
mod signals;
mod structured;
mod tools;
