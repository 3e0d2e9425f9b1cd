//! `crate = "..."`: a framework that re-exports mcp-runtime lets its authors name the runtime
//! through it. Every macro and derive here names the runtime only through `framework::runtime`.

use std::future::Future;
use std::task::{Context, Poll, Waker};

/// A framework built on mcp-runtime, re-exporting it.
mod framework {
    pub use ::mcp_runtime as runtime;
}

use framework::runtime::prelude::*;

/// How much to show.
#[derive(ParamEnum)]
#[param(crate = "crate::framework::runtime")]
pub enum Detail {
    /// Titles only.
    Brief,
    /// Everything.
    Full,
}

/// Paging shared by tools.
#[derive(ParamObject)]
#[param(crate = "crate::framework::runtime")]
pub struct Paging {
    /// Items per page.
    #[param(default = 10, range = 1..=50)]
    limit: u32,
}

/// What the tool found.
#[mcp_output(crate = "crate::framework::runtime")]
pub struct Found {
    /// The detail asked for.
    pub detail: String,
    /// The page size used.
    pub limit: u32,
}

/// Find notes.
#[mcp_tool(id = "find_notes", output = Found, crate = "crate::framework::runtime")]
pub struct FindNotes {
    /// How much to show.
    detail: Detail,
    #[param(flatten)]
    paging: Paging,
}

impl Execute<Structured<Found>> for FindNotes {
    async fn execute(self, _ctx: &ToolContext) -> ToolResult<Structured<Found>> {
        let detail = match self.detail {
            Detail::Brief => "brief",
            Detail::Full => "full",
        };
        let found = Found {
            detail: detail.to_owned(),
            limit: self.paging.limit,
        };
        Ok(ToolOutput::text(detail).structured(found))
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
    use framework::runtime::__private::serde_json::{Value, json};
    let registry = framework::runtime::registry().expect("no conflicts");
    let declaration = registry.get("find_notes").expect("registered").declaration();
    let args = json!({ "detail": "full" });
    let output = run((declaration.invoke)(
        &ToolContext::new(None),
        args.as_object().expect("an object"),
    ))
    .expect("runs");
    assert_eq!(
        output.structured_content().map(|s| Value::Object(s.clone())),
        Some(json!({ "detail": "full", "limit": 10 }))
    );
}
