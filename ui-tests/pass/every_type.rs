//! One field of every row of DESIGN's type table, in one tool: it compiles, advertises every
//! parameter in declaration order with the right `required` set, and parses a full argument set.

use std::collections::BTreeMap;

use mcp_runtime::declaration::ToolParams;
use mcp_runtime::prelude::*;

/// How to list.
#[derive(Debug, PartialEq, ParamEnum)]
pub enum Order {
    /// Newest first.
    NewestFirst,
    /// Oldest first.
    OldestFirst,
}

/// A line window.
#[derive(Debug, PartialEq, ParamObject)]
pub struct Window {
    /// First line, 1-based.
    from: i64,
    /// Last line, inclusive.
    to: Option<i64>,
}

/// Exercise every parameter type.
#[mcp_tool(id = "every_type")]
pub struct EveryType {
    /// Required, trimmed, non-blank.
    reference: String,
    /// Kept exactly as sent.
    #[param(raw)]
    content: String,
    /// Optional; blank means absent.
    locale: Option<String>,
    /// Optional; empty kept distinct from absent.
    comment: Keep<String>,
    /// Optional and kept exactly as sent.
    #[param(raw)]
    suffix: Option<String>,
    /// Integer with default and range.
    #[param(default = 20, range = 1..=100)]
    limit: i64,
    /// Negative bounds and default.
    #[param(default = -3, range = -10..=-1)]
    delta: i64,
    /// Optional integer, clamped.
    #[param(range = 0..=10, clamp)]
    offset: Option<i64>,
    /// A flag; absent is false.
    hidden: bool,
    /// Tri-state.
    minor: Option<bool>,
    /// Strings.
    tags: Vec<String>,
    /// A map that must be sent.
    #[param(required)]
    fields: BTreeMap<String, String>,
    /// An optional map.
    extra: BTreeMap<String, String>,
    /// An enum.
    order: Order,
    /// An optional enum.
    fallback_order: Option<Order>,
    /// An object.
    window: Window,
    /// Objects.
    windows: Vec<Window>,
    /// An optional object.
    maybe_window: Option<Window>,
}

impl Execute for EveryType {
    async fn execute(self, _ctx: &ToolContext) -> ToolResult {
        Ok(ToolOutput::text(""))
    }
}

fn main() {
    let registry = mcp_runtime::registry().expect("no duplicate ids");
    let tool = registry.get("every_type").expect("registered");
    let schema = &tool
        .definition(mcp_runtime::SchemaVariant::Standard)
        .expect("valid, flat schema")
        .input_schema;
    let properties: Vec<&String> = schema["properties"]
        .as_object()
        .expect("properties")
        .keys()
        .collect();
    assert_eq!(
        properties,
        [
            "reference",
            "content",
            "locale",
            "comment",
            "suffix",
            "limit",
            "delta",
            "offset",
            "hidden",
            "minor",
            "tags",
            "fields",
            "extra",
            "order",
            "fallback_order",
            "window",
            "windows",
            "maybe_window"
        ]
    );
    let required: Vec<&str> = schema["required"]
        .as_array()
        .expect("required")
        .iter()
        .filter_map(|v| v.as_str())
        .collect();
    // Arrays are optional (absent = empty), as in the reference.
    assert_eq!(
        required,
        ["reference", "content", "fields", "order", "window"]
    );

    let args = mcp_runtime::__private::serde_json::json!({
        "reference": " Sandbox.WebHome ",
        "content": "  kept  ",
        "locale": "  ",
        "comment": "",
        "suffix": "  ",
        "offset": 99,
        "hidden": "true",
        "tags": ["a", "b"],
        "fields": {"title": "T"},
        "order": "oldest_first",
        "fallback_order": "newest_first",
        "window": {"from": 1},
        "windows": [{"from": 2, "to": 3}],
    });
    let parsed = EveryType::parse_args(args.as_object().expect("object")).expect("parses");
    assert_eq!(parsed.reference, "Sandbox.WebHome");
    assert_eq!(parsed.content, "  kept  ");
    assert_eq!(parsed.locale, None);
    assert_eq!(parsed.comment, Keep::Present(String::new()));
    assert_eq!(parsed.suffix.as_deref(), Some("  "));
    assert_eq!(parsed.limit, 20);
    assert_eq!(parsed.delta, -3);
    assert_eq!(parsed.offset, Some(10));
    assert!(parsed.hidden);
    assert_eq!(parsed.minor, None);
    assert_eq!(parsed.tags, ["a", "b"]);
    assert_eq!(parsed.fields.get("title").map(String::as_str), Some("T"));
    assert!(parsed.extra.is_empty());
    assert_eq!(parsed.order, Order::OldestFirst);
    assert_eq!(parsed.fallback_order, Some(Order::NewestFirst));
    assert_eq!(parsed.window, Window { from: 1, to: None });
    assert_eq!(
        parsed.windows,
        [Window {
            from: 2,
            to: Some(3)
        }]
    );
    assert_eq!(parsed.maybe_window, None);
}
