//! Test-only tools, linked into this test binary only: one per failure the server must contain.

use std::time::Duration;

use mcp_runtime::param::{JsonObject, Param, ParamError, ParamSpec};
use serde_json::Value;
use wiki_server::prelude::*;
use wiki_store::rights::Right;

/// Repeat a text.
#[mcp_tool(id = "echo", category = "Testing")]
pub(crate) struct Echo {
    /// The text to repeat.
    text: String,
}

impl Execute for Echo {
    async fn execute(self, _ctx: &ToolContext) -> ToolResult {
        Ok(ToolOutput::text(self.text))
    }
}

/// Panic while running.
#[mcp_tool(id = "boom", category = "Testing")]
pub(crate) struct Boom {}

impl Execute for Boom {
    async fn execute(self, _ctx: &ToolContext) -> ToolResult {
        panic!("secret detail: /var/lib/wiki.db is corrupt")
    }
}

/// Panic inside a store call, on a blocking thread.
#[mcp_tool(id = "boom_blocking", category = "Testing")]
pub(crate) struct BoomBlocking {}

impl Execute for BoomBlocking {
    async fn execute(self, ctx: &ToolContext) -> ToolResult {
        ctx.store_call("panic", |_store| -> wiki_store::Result<()> {
            panic!("blocking secret")
        })
        .await?;
        Ok(ToolOutput::text("unreachable"))
    }
}

/// Take longer than any test's call timeout.
#[mcp_tool(id = "sleepy", category = "Testing")]
pub(crate) struct Sleepy {}

impl Execute for Sleepy {
    async fn execute(self, _ctx: &ToolContext) -> ToolResult {
        tokio::time::sleep(Duration::from_secs(30)).await;
        Ok(ToolOutput::text("woke up"))
    }
}

/// Pretend to change content.
#[mcp_tool(id = "scribble", category = "Testing", write)]
pub(crate) struct Scribble {}

impl Execute for Scribble {
    async fn execute(self, _ctx: &ToolContext) -> ToolResult {
        Ok(ToolOutput::text("scribbled"))
    }
}

/// Read a document's title through the document door.
#[mcp_tool(id = "peek", category = "Testing")]
pub(crate) struct Peek {
    /// The document, e.g. "Sandbox.WebHome".
    reference: String,
    /// Optional wiki id to read from instead of the current wiki.
    #[param(cross_wiki)]
    wiki: Option<String>,
}

impl Execute for Peek {
    async fn execute(self, ctx: &ToolContext) -> ToolResult {
        let doors = ctx.doors()?;
        let authorized = doors.authorize(&self.reference, self.wiki.as_deref(), Right::View)?;
        let document = doors.read_document(&authorized, None).await?;
        Ok(ToolOutput::text(format!(
            "{} — {}",
            authorized.reference(),
            document.title
        )))
    }
}

/// A parameter type whose schema is not valid JSON Schema.
pub(crate) struct Misspelled;

impl Param for Misspelled {
    fn schema(spec: &ParamSpec) -> JsonObject {
        let mut schema = JsonObject::new();
        schema.insert("type".to_owned(), "strin".into());
        schema.insert("description".to_owned(), spec.description.into());
        schema
    }

    fn is_required(_spec: &ParamSpec) -> bool {
        false
    }

    fn parse(_value: Option<&Value>, _spec: &ParamSpec) -> Result<Self, ParamError> {
        Ok(Misspelled)
    }
}

/// A tool whose schema is invalid: never served.
#[mcp_tool(id = "bad_schema", category = "Testing")]
pub(crate) struct BadSchema {
    /// A parameter with a broken schema.
    broken: Misspelled,
}

impl Execute for BadSchema {
    async fn execute(self, _ctx: &ToolContext) -> ToolResult {
        let Misspelled = self.broken;
        Ok(ToolOutput::text("served a broken schema"))
    }
}

/// A parameter type whose schema panics.
pub(crate) struct Exploding;

impl Param for Exploding {
    fn schema(_spec: &ParamSpec) -> JsonObject {
        panic!("this schema explodes")
    }

    fn is_required(_spec: &ParamSpec) -> bool {
        false
    }

    fn parse(_value: Option<&Value>, _spec: &ParamSpec) -> Result<Self, ParamError> {
        Ok(Exploding)
    }
}

/// A tool whose definition panics: never served.
#[mcp_tool(id = "explodes", category = "Testing")]
pub(crate) struct Explodes {
    /// A parameter whose schema panics.
    fuse: Exploding,
}

impl Execute for Explodes {
    async fn execute(self, _ctx: &ToolContext) -> ToolResult {
        let Exploding = self.fuse;
        Ok(ToolOutput::text("served an exploding schema"))
    }
}

/// Work through five steps of 120 ms, reporting progress after each.
#[mcp_tool(id = "stepper", category = "Testing")]
pub(crate) struct Stepper {}

impl Execute for Stepper {
    async fn execute(self, ctx: &ToolContext) -> ToolResult {
        for step in 1..=5 {
            tokio::time::sleep(Duration::from_millis(120)).await;
            ctx.progress(step, Some(5), || format!("step {step}"));
        }
        Ok(ToolOutput::text("five steps"))
    }
}
