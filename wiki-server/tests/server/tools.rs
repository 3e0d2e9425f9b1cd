//! Test-only tools, linked into this test binary only: one per failure the server must contain.

use std::time::Duration;

use mcp_runtime::param::{JsonObject, Param, ParamError, ParamSpec};
use serde_json::Value;
use wiki_store::rights::Right;
use wiki_tool_sdk::prelude::*;

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

/// The name a marker below records a call's wiki by: with the trial's backend, since each test
/// runs in this one process on each backend in turn, on wikis of the same names.
pub(crate) fn trial_wiki(wiki: &str) -> String {
    format!("{}/{wiki}", wiki_store::testing::Backend::current().name())
}

/// The wikis whose `grind` call's store work has started ([`trial_wiki`]).
pub(crate) static GRIND_STARTS: std::sync::Mutex<Vec<String>> = std::sync::Mutex::new(Vec::new());

/// How each `grind` call's store work ended, by wiki: `interrupted` when the store stopped it.
pub(crate) static GRIND_ENDS: std::sync::Mutex<Vec<(String, String)>> =
    std::sync::Mutex::new(Vec::new());

/// Read one document over and over for up to a minute, never checking the call's signal.
#[mcp_tool(id = "grind", category = "Testing")]
pub(crate) struct Grind {
    /// Report progress once before grinding, so that a request with a progress token gets
    /// its reply as a stream that is open while the store works.
    report: Option<bool>,
}

impl Execute for Grind {
    async fn execute(self, ctx: &ToolContext) -> ToolResult {
        if self.report == Some(true) {
            ctx.progress(0, None, || "grinding".to_owned());
        }
        let wiki = ctx.wiki().cloned().unwrap_or_else(WikiId::main);
        let page = DocumentReference::parse("Sandbox.WebHome", &wiki)
            .map_err(|e| ToolError::new(e.to_string()))?;
        // Here, on the runtime's thread: the store work may run on a thread of its own.
        let marked_as = trial_wiki(wiki.as_str());
        ctx.store_call("grind", move |store| {
            GRIND_STARTS
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .push(marked_as.clone());
            // Only the store can end this loop early: it ignores the call's signal on purpose.
            let until = std::time::Instant::now() + Duration::from_secs(60);
            let end = loop {
                if let Err(error) = store.document(&page, None) {
                    break match error {
                        StoreError::Interrupted => "interrupted".to_owned(),
                        other => other.to_string(),
                    };
                }
                if std::time::Instant::now() > until {
                    break "ran a minute".to_owned();
                }
            };
            let interrupted = end == "interrupted";
            GRIND_ENDS
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .push((marked_as, end));
            // As a real tool does: the store's refusal is the call's answer, so the audit says
            // `cancelled` whether the call path or the tool's own end is seen first.
            if interrupted {
                return Err(StoreError::Interrupted);
            }
            Ok(())
        })
        .await?;
        Ok(ToolOutput::text("ground"))
    }
}

/// Waits up to `within` for the first item of `marks` that `find` accepts: the markers above
/// are pushed from the tools' store work, so a test polls them.
async fn marked<T: Clone>(
    marks: &std::sync::Mutex<Vec<T>>,
    within: Duration,
    find: impl Fn(&T) -> bool,
) -> Option<T> {
    let deadline = std::time::Instant::now() + within;
    loop {
        let found = marks
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .iter()
            .find(|mark| find(mark))
            .cloned();
        if found.is_some() || std::time::Instant::now() >= deadline {
            return found;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

/// Waits until the `grind` call on `wiki` runs its store loop (a call stopped before would
/// never start it, and could not show that the store interrupts it); panics after ten seconds.
pub(crate) async fn grind_started(wiki: &str) {
    let wiki = trial_wiki(wiki);
    let started = marked(&GRIND_STARTS, Duration::from_secs(10), |on| *on == wiki).await;
    assert!(started.is_some(), "the grind on {wiki} did not start");
}

/// Waits up to `within` for how the `grind` call on `wiki` ended.
pub(crate) async fn grind_end(wiki: &str, within: Duration) -> Option<String> {
    let wiki = trial_wiki(wiki);
    marked(&GRIND_ENDS, within, |(on, _)| *on == wiki)
        .await
        .map(|(_, end)| end)
}

/// The wikis whose `queued` call's heavy job ran ([`trial_wiki`]).
pub(crate) static QUEUED_RAN: std::sync::Mutex<Vec<String>> = std::sync::Mutex::new(Vec::new());

/// Run a job in a heavy-work slot that records that it ran.
#[mcp_tool(id = "queued", category = "Testing")]
pub(crate) struct Queued {}

impl Execute for Queued {
    async fn execute(self, ctx: &ToolContext) -> ToolResult {
        let wiki = trial_wiki(ctx.wiki().cloned().unwrap_or_else(WikiId::main).as_str());
        wiki_tool_sdk::heavy::run_heavy(&ctx.heavy_share(), ctx.cancellation(), move || {
            QUEUED_RAN
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .push(wiki);
        })
        .await
        .map_err(|not_run| not_run.tool_error("running test jobs"))?;
        Ok(ToolOutput::text("ran"))
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
    #[param(extended)]
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
