//! The unsigned integers and `f64`, bare and optional, with `default`, `range` and `clamp` as on
//! `i64`: the schema says `integer` with `minimum: 0` (never a `format`), or `number`; the parser
//! refuses what the type cannot hold.

use mcp_runtime::SchemaVariant;
use mcp_runtime::__private::serde_json::{Value, json};
use mcp_runtime::declaration::ToolParams;
use mcp_runtime::prelude::*;

/// Page through a list.
#[mcp_tool(id = "numbers")]
pub struct Numbers {
    /// Items per page.
    #[param(default = 20, range = 1..=100, clamp)]
    limit: u32,
    /// The first item, 0-based.
    #[param(default = 0)]
    offset: usize,
    /// A byte count.
    size: Option<u64>,
    /// The greatest id, if any.
    #[param(range = 0..=18446744073709551615)]
    max_id: Option<u64>,
    /// A share between 0 and 1.
    #[param(default = 0.5, range = 0.0..=1.0)]
    ratio: f64,
    /// An optional weight, whole bounds allowed on a float.
    #[param(range = -1..=1, clamp)]
    weight: Option<f64>,
    /// A position, unclamped.
    index: Option<usize>,
    /// The first line, 1-based.
    #[param(range = 1..)]
    line: Option<usize>,
}

impl Execute for Numbers {
    async fn execute(self, _ctx: &ToolContext) -> ToolResult {
        Ok(ToolOutput::text(""))
    }
}

fn parse(args: Value) -> Result<Numbers, String> {
    Numbers::parse_args(args.as_object().expect("object")).map_err(|e| e.to_string())
}

fn main() {
    let schema = &mcp_runtime::registry()
        .expect("no duplicate ids")
        .get("numbers")
        .expect("registered")
        .definition(SchemaVariant::Standard)
        .expect("valid, flat schema")
        .input_schema;
    let properties = &schema["properties"];
    assert_eq!(
        properties["limit"],
        json!({"type": "integer", "description": "Items per page.", "minimum": 1, "maximum": 100, "default": 20})
    );
    assert_eq!(
        properties["offset"],
        json!({"type": "integer", "description": "The first item, 0-based.", "minimum": 0, "default": 0})
    );
    assert_eq!(
        properties["size"],
        json!({"type": "integer", "description": "A byte count.", "minimum": 0})
    );
    assert_eq!(properties["max_id"]["maximum"], json!(u64::MAX));
    assert_eq!(
        properties["ratio"],
        json!({"type": "number", "description": "A share between 0 and 1.", "minimum": 0.0, "maximum": 1.0, "default": 0.5})
    );
    assert_eq!(properties["weight"]["type"], "number");
    // A minimum alone: no maximum is invented.
    assert_eq!(
        properties["line"],
        json!({"type": "integer", "description": "The first line, 1-based.", "minimum": 1})
    );
    assert_eq!(schema["required"], json!([]));

    let parsed = parse(json!({"limit": 500, "size": "12", "ratio": "0.25", "weight": 3}))
        .expect("parses");
    assert_eq!(
        (parsed.limit, parsed.offset, parsed.size, parsed.max_id),
        (100, 0, Some(12), None)
    );
    assert_eq!((parsed.ratio, parsed.weight, parsed.index), (0.25, Some(1.0), None));
    assert_eq!(parse(json!({})).map(|p| (p.limit, p.ratio)), Ok((20, 0.5)));

    assert_eq!(
        parse(json!({"offset": -1})).err(),
        Some("Error: 'offset' must be 0 or more (got -1).".to_owned())
    );
    assert_eq!(
        parse(json!({"line": 0})).err(),
        Some("Error: 'line' must be 1 or more (got 0).".to_owned())
    );
    assert_eq!(
        parse(json!({"line": u64::MAX})).map(|p| p.line),
        Ok(Some(usize::MAX))
    );
    assert_eq!(
        parse(json!({"index": 1.5})).err(),
        Some("Error: 'index' must be an integer.".to_owned())
    );
    assert_eq!(
        parse(json!({"ratio": 2})).err(),
        Some("Error: 'ratio' must be between 0 and 1 (got 2).".to_owned())
    );
    assert_eq!(
        parse(json!({"ratio": "NaN"})).err(),
        Some("Error: 'ratio' must be a finite number.".to_owned())
    );
}
