//! Tools with structured output: one whose results follow its type, one whose hand-written
//! `Serialize` lies about it (the runtime must refuse to send that), and a write tool stating
//! every hint.

use mcp_runtime::prelude::*;
use schemars::JsonSchema;
use serde::{Serialize, Serializer};

/// One entry of a listing.
#[mcp_output]
pub(crate) struct Entry {
    /// The entry's name.
    pub(crate) name: String,
    /// Its size in bytes, when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) size: Option<u64>,
}

/// What `listing` returns.
#[mcp_output]
#[serde(rename_all = "camelCase")]
pub(crate) struct Listing {
    /// The entries, in order.
    pub(crate) entries: Vec<Entry>,
    /// How many entries exist in all.
    pub(crate) total_count: u64,
}

/// List `count` entries, structured.
#[mcp_tool(id = "listing", category = "Fixtures", output = Listing)]
pub(crate) struct ListingTool {
    /// How many entries to list; 0 fails with an error.
    #[param(default = 2, range = 0..=50)]
    count: i64,
}

impl Execute<Structured<Listing>> for ListingTool {
    async fn execute(self, _ctx: &ToolContext) -> ToolResult<Structured<Listing>> {
        if self.count == 0 {
            return Err(ToolError::new(
                "Error: count=0 lists nothing; pass count=1 or more.",
            ));
        }
        let entries: Vec<Entry> = (0..self.count)
            .map(|index| Entry {
                name: format!("entry-{index}"),
                size: u64::try_from(index).ok().filter(|size| size % 2 == 1),
            })
            .collect();
        let text = entries
            .iter()
            .map(|entry| entry.name.as_str())
            .collect::<Vec<_>>()
            .join("\n");
        let total_count = u64::try_from(entries.len()).unwrap_or(u64::MAX);
        Ok(Structured::new(
            Listing {
                entries,
                total_count,
            },
            text,
        ))
    }
}

/// A count whose schema says integer and whose serialization writes a string.
#[derive(JsonSchema)]
pub(crate) struct Lying {
    /// Said to be an integer.
    #[allow(dead_code)]
    count: u64,
}

impl Serialize for Lying {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = serializer.serialize_map(Some(1))?;
        map.serialize_entry("count", "many")?;
        map.end()
    }
}

/// Return a result that breaks its own output schema.
#[mcp_tool(id = "lying", category = "Fixtures", output = Lying)]
pub(crate) struct LyingTool;

impl Execute<Structured<Lying>> for LyingTool {
    async fn execute(self, _ctx: &ToolContext) -> ToolResult<Structured<Lying>> {
        Ok(Structured::new(Lying { count: 1 }, "one"))
    }
}

/// Tag a document: adds a tag, never removes one, and tagging twice changes nothing more.
#[mcp_tool(
    id = "tag",
    write,
    idempotent,
    additive,
    open_world = false,
    category = "Fixtures"
)]
pub(crate) struct Tag {
    /// The tag to add.
    tag: String,
}

impl Execute for Tag {
    async fn execute(self, _ctx: &ToolContext) -> ToolResult {
        Ok(ToolOutput::text(format!("tagged {}", self.tag)))
    }
}
