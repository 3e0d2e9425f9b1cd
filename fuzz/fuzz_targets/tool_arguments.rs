//! The argument parser that `#[mcp_tool]` generates, over arbitrary JSON objects.
//!
//! The tools are the contract tests' own (`mcp-runtime/tests/contract/tools`): `every_kind` has
//! a parameter of every supported kind (strings raw, trimmed, optional and kept; integers with
//! defaults, ranges and clamping; flags; lists; maps; enums; derived objects and lists of them;
//! a cross-wiki parameter), `renamed` renames them, `no_params` has none.
//!
//! Properties, for each tool: no input panics; the parser accepts every argument object that
//! the schema it advertises accepts (validated with `jsonschema`, the cross-wiki variant, since
//! the parser always accepts cross-wiki parameters), so a client that follows the schema is never
//! refused; and every refusal is an agent-facing `Error: '<name>' ...` naming a declared
//! parameter or an argument that was sent. (The parser is deliberately more lenient than the
//! schema in documented ways, numeric strings for integers and clamped ranges, so acceptance does
//! not imply schema validity. It is stricter in one: an integer past what 64 bits hold, such as
//! `1e33`, is refused with the type's bounds, while the schema does not spell out `i64`'s or
//! `u64`'s bounds, which clients holding numbers as doubles could not state exactly anyway.)
#![no_main]

use std::sync::LazyLock;

use libfuzzer_sys::fuzz_target;
use mcp_runtime::__private::{JsonObject, ParamError, ToolParams};
use mcp_runtime::output::guard::fragment;
use serde_json::Value;

#[allow(dead_code, unreachable_pub)]
#[path = "../../mcp-runtime/tests/contract/tools/mod.rs"]
mod tools;

/// A tool under test: its parser and the validator of the schema it advertises.
struct Tool {
    id: &'static str,
    parse: fn(&JsonObject) -> Result<(), ParamError>,
    schema: jsonschema::Validator,
}

fn parse<T: ToolParams>(args: &JsonObject) -> Result<(), ParamError> {
    T::parse_args(args).map(drop)
}

fn tool(id: &'static str, parse: fn(&JsonObject) -> Result<(), ParamError>) -> Tool {
    let registry = mcp_runtime::registry().expect("the contract tools register");
    let definition = registry
        .get(id)
        .expect("a contract tool")
        .definition(mcp_runtime::SchemaVariant::Extended)
        .expect("its definition");
    let schema = Value::Object((*definition.input_schema).clone());
    let schema = jsonschema::validator_for(&schema).expect("the advertised schema compiles");
    Tool { id, parse, schema }
}

static TOOLS: LazyLock<Vec<Tool>> = LazyLock::new(|| {
    vec![
        tool("every_kind", parse::<tools::every_kind::EveryKind>),
        tool("renamed", parse::<tools::renamed::Renamed>),
        tool("no_params", parse::<tools::no_params::NoParams>),
    ]
});

fuzz_target!(|data: &[u8]| {
    let Ok(Value::Object(args)) = serde_json::from_slice::<Value>(data) else {
        return;
    };
    let instance = Value::Object(args.clone());
    for tool in TOOLS.iter() {
        let parsed = (tool.parse)(&args);
        let valid = tool.schema.is_valid(&instance);
        if let Err(error) = parsed {
            let message = error.to_string();
            assert!(
                !valid || holds_an_integer_past_64_bits(&instance),
                "{}: the schema accepts {instance} but the parser refuses it: {message}",
                tool.id
            );
            // The name as the message shows it: a declared parameter, or an argument that was
            // sent, through the runtime's echo guard (which strips line breaks and caps length).
            let names = |name: &str| message.starts_with(&format!("Error: '{name}' "));
            let declared = mcp_runtime::registry()
                .ok()
                .and_then(|registry| registry.get(tool.id))
                .is_some_and(|t| t.declaration().params.iter().any(|p| names(p.spec.name)));
            assert!(
                declared || args.keys().any(|key| names(&fragment(key))),
                "{}: {message:?} names neither a parameter nor an argument of {instance}",
                tool.id
            );
        }
    }
});

/// Whether `value` holds, at any depth, an integral number that no 64-bit integer holds.
fn holds_an_integer_past_64_bits(value: &Value) -> bool {
    match value {
        Value::Number(number) => {
            number.as_i64().is_none()
                && number.as_u64().is_none()
                && number
                    .as_f64()
                    .is_some_and(|f| f.fract() == 0.0 && f.abs() >= 9.2e18)
        }
        Value::Array(items) => items.iter().any(holds_an_integer_past_64_bits),
        Value::Object(fields) => fields.values().any(holds_an_integer_past_64_bits),
        _ => false,
    }
}
