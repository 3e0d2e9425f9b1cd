//! Schema and parser cannot drift: for EVERY registered tool (this binary's test tools and the
//! linked contributed crate), in both schema variants, the served schema is valid 2020-12 and
//! flat, arguments generated from that schema parse, and arguments that break it are refused
//! with an `Error: '<param>' …` message naming the parameter. No input panics.

use mcp_runtime::SchemaVariant;
use mcp_runtime::SchemaVariant::Extended;
use mcp_runtime::schema::check_schema;
use proptest::prelude::*;
use proptest::sample::{Index, select};
use proptest::test_runner::{Config, TestRunner};
use serde_json::{Map, Value};

use crate::harness::{call, schema, tool};
use crate::schema_gen::{any_json, required_names, valid_value, wrong_values};

const CASES: u32 = 48;

fn tool_ids() -> Vec<&'static str> {
    match mcp_runtime::registry() {
        // `slow` waits by design (the signal tests' fixture): thousands of random calls of it
        // would only measure its sleeps; its parser is generated like every other's.
        Ok(registry) => registry
            .tools()
            .iter()
            .map(|t| t.id())
            .filter(|id| *id != "slow")
            .collect(),
        Err(error) => panic!("{error}"),
    }
}

/// Runs `property` as its own proptest for each tool and schema variant, reporting the minimal
/// failing input with the tool it failed on.
fn for_every_tool(
    property: impl Fn(&'static str, SchemaVariant, &mut TestRunner) -> Result<(), String>,
) {
    for id in tool_ids() {
        for variant in SchemaVariant::ALL {
            let mut config = Config::with_cases(CASES);
            config.failure_persistence = None;
            let mut runner = TestRunner::new(config);
            if let Err(failure) = property(id, variant, &mut runner) {
                panic!("tool `{id}` ({variant} variant): {failure}");
            }
        }
    }
}

/// Fails the case unless `result`, the call with `args`, is a refusal starting with `prefix`.
fn refused_with(
    args: &Value,
    result: &Result<String, String>,
    prefix: &str,
) -> Result<(), TestCaseError> {
    prop_assert!(
        result.as_ref().is_err_and(|e| e.starts_with(prefix)),
        "{args}: {result:?}"
    );
    Ok(())
}

fn object(value: &Value) -> Map<String, Value> {
    value.as_object().cloned().unwrap_or_default()
}

#[test]
fn every_served_schema_meta_validates_and_is_flat() {
    for id in tool_ids() {
        for variant in SchemaVariant::ALL {
            let definition = tool(id).definition(variant);
            let checked = definition.map(|d| check_schema(&d.input_schema));
            assert_eq!(checked, Ok(Ok(())), "{id} ({variant} variant)");
        }
    }
}

#[test]
fn arguments_generated_from_the_schema_parse() {
    for_every_tool(|id, variant, runner| {
        runner
            .run(&valid_value(&schema(id, variant)), |args| {
                let result = call(id, &args);
                // A tool may still answer with its own error (`man` with a name it does not
                // know); what must not happen is a parameter refusal.
                let refused = result
                    .as_ref()
                    .is_err_and(|message| message.starts_with("Error: '"));
                prop_assert!(!refused, "{args} was refused: {result:?}");
                Ok(())
            })
            .map_err(|e| e.to_string())
    });
}

#[test]
fn a_wrong_type_is_refused_naming_the_parameter() {
    for_every_tool(|id, variant, runner| {
        let schema = schema(id, variant);
        let properties = object(&schema["properties"]);
        if properties.is_empty() {
            return Ok(());
        }
        let names: Vec<String> = properties.keys().cloned().collect();
        let strategy = (valid_value(&schema), select(names), any::<Index>());
        runner
            .run(&strategy, |(mut args, name, pick)| {
                let wrong = wrong_values(&properties[&name]);
                args[&name] = pick.get(&wrong).clone();
                let prefix = format!("Error: '{name}' ");
                refused_with(&args, &call(id, &args), &prefix)
            })
            .map_err(|e| e.to_string())
    });
}

#[test]
fn a_missing_required_parameter_is_refused_naming_it() {
    for_every_tool(|id, variant, runner| {
        let schema = schema(id, variant);
        let required = required_names(&schema);
        if required.is_empty() {
            return Ok(());
        }
        runner
            .run(
                &(valid_value(&schema), select(required)),
                |(mut args, name)| {
                    if let Some(args) = args.as_object_mut() {
                        args.remove(&name);
                    }
                    let expected = format!("Error: '{name}' parameter is required.");
                    prop_assert_eq!(call(id, &args), Err(expected));
                    Ok(())
                },
            )
            .map_err(|e| e.to_string())
    });
}

#[test]
fn an_unknown_argument_is_refused_naming_it() {
    for_every_tool(|id, variant, runner| {
        // Names the parser accepts are the extended variant's (an extended parameter is parsed
        // in both variants, then refused by the server if it must be), so "unknown" is relative
        // to it.
        let known = object(&schema(id, Extended)["properties"]);
        let unknown =
            "[a-zA-Z_]{1,12}".prop_filter("a declared name", move |n| !known.contains_key(n));
        runner
            .run(
                &(valid_value(&schema(id, variant)), unknown),
                |(mut args, name)| {
                    args[&name] = Value::from("x");
                    let prefix = format!("Error: '{name}' is not a parameter of this tool.");
                    refused_with(&args, &call(id, &args), &prefix)
                },
            )
            .map_err(|e| e.to_string())
    });
}

#[test]
fn out_of_range_integers_are_refused_unless_above_a_clamping_maximum() {
    for_every_tool(|id, variant, runner| {
        let schema = schema(id, variant);
        let bounded: Vec<(String, i64, i64)> = object(&schema["properties"])
            .into_iter()
            .filter_map(|(name, property)| {
                Some((
                    name,
                    property["minimum"].as_i64()?,
                    property["maximum"].as_i64()?,
                ))
            })
            .collect();
        if bounded.is_empty() {
            return Ok(());
        }
        let strategy = (
            valid_value(&schema),
            select(bounded),
            any::<bool>(),
            1..1000i64,
        );
        runner
            .run(&strategy, |(mut args, (name, min, max), above, by)| {
                let clamps = tool(id)
                    .declaration()
                    .params
                    .iter()
                    .any(|p| p.spec.name == name && p.spec.clamp);
                let value = if above {
                    max.saturating_add(by)
                } else {
                    min.saturating_sub(by)
                };
                args[&name] = Value::from(value);
                let result = call(id, &args);
                // Clamping lowers a value above the maximum; one below the minimum is refused.
                if clamps && above {
                    prop_assert!(result.is_ok(), "{args}: {result:?}");
                } else {
                    let prefix = format!("Error: '{name}' must be between {min} and {max}");
                    refused_with(&args, &result, &prefix)?;
                }
                Ok(())
            })
            .map_err(|e| e.to_string())
    });
}

#[test]
fn no_input_panics() {
    for_every_tool(|id, variant, runner| {
        let names: Vec<String> = object(&schema(id, variant)["properties"])
            .keys()
            .cloned()
            .collect();
        let key = if names.is_empty() {
            ".{0,8}".boxed()
        } else {
            prop_oneof![select(names), ".{0,8}"].boxed()
        };
        let args = prop::collection::btree_map(key, any_json(), 0..6);
        runner
            .run(&args, |args| {
                let args = Value::Object(args.into_iter().collect());
                // A panic fails the case; any Ok or Err is an answer.
                let _ = call(id, &args);
                Ok(())
            })
            .map_err(|e| e.to_string())
    });
}
