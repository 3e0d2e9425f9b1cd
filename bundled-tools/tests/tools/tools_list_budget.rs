//! What `tools/list` costs an agent, held against the golden snapshot of the widest listing
//! (alice on `main` with cross-wiki reach, every bundled tool enabled): characters of compact
//! JSON, per tool and on average, both as sent (the whole definition) and as read by the model
//! (name, title, description and input schema; clients use the output schema and annotations
//! to check and label calls, not as prompt). The golden test keeps the snapshot equal to what
//! the server lists, so a description or schema that grows past its budget fails here.
//! `tests/tools_list_size.py` prints the same figures for any snapshot.

use serde_json::{Map, Value};
use wiki_store::testing::backend_test;

/// The listing measured: the largest one (a user's, with reach, sees every tool and parameter).
const SNAPSHOT: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/golden/tools-list.main.user.reach.json"
);

/// Average characters per tool as sent, at most: what an agent's client pays for the listing.
const SENT_PER_TOOL: usize = 1_500;
/// Average characters per tool the model reads, at most.
const READ_PER_TOOL: usize = 1_000;

// The ceilings below are today's costs: lower them whenever a listing gets leaner, never raise
// them without saying in the commit what the extra characters buy. A new tool raises the
// totals by what it costs, within the averages above.

/// Characters of the whole listing as sent.
const SENT_TOTAL: usize = 34_400;
/// Characters of the whole listing the model reads.
const READ_TOTAL: usize = 19_850;
/// No single tool may cost more than this as sent, however lean the others are.
const SENT_ONE_TOOL: usize = 2_850;
/// No single tool may cost more than this as read.
const READ_ONE_TOOL: usize = 1_450;

/// The keys of a tool definition the model reads.
const READ_KEYS: &[&str] = &["name", "title", "description", "inputSchema"];

fn size(value: &Value) -> usize {
    value.to_string().chars().count()
}

fn tools() -> Vec<Map<String, Value>> {
    let text = std::fs::read_to_string(SNAPSHOT).unwrap_or_else(|e| panic!("{SNAPSHOT}: {e}"));
    let listed: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{SNAPSHOT}: {e}"));
    let Some(Value::Array(tools)) = listed.get("tools") else {
        panic!("{SNAPSHOT} lists no tools");
    };
    tools
        .iter()
        .map(|tool| match tool {
            Value::Object(tool) => tool.clone(),
            other => panic!("not a tool definition: {other}"),
        })
        .collect()
}

fn read_part(tool: &Map<String, Value>) -> Value {
    Value::Object(
        tool.iter()
            .filter(|(key, _)| READ_KEYS.contains(&key.as_str()))
            .map(|(key, value)| (key.clone(), value.clone()))
            .collect(),
    )
}

#[backend_test(only = "sqlite")]
fn tools_list_stays_within_its_character_budget() {
    let tools = tools();
    let mut over = Vec::new();
    let (mut sent_total, mut read_total) = (0, 0);
    for tool in &tools {
        let name = tool.get("name").and_then(Value::as_str).unwrap_or("?");
        let sent = size(&Value::Object(tool.clone()));
        let read = size(&read_part(tool));
        if sent > SENT_ONE_TOOL || read > READ_ONE_TOOL {
            over.push(format!(
                "{name}: {sent} sent (at most {SENT_ONE_TOOL}), {read} read (at most {READ_ONE_TOOL})"
            ));
        }
        sent_total += sent;
        read_total += read;
    }
    let count = tools.len().max(1);
    let (sent, read) = (sent_total / count, read_total / count);
    if sent > SENT_PER_TOOL || read > READ_PER_TOOL {
        over.push(format!(
            "{count} tools: {sent} sent per tool (at most {SENT_PER_TOOL}), {read} read per tool \
             (at most {READ_PER_TOOL})"
        ));
    }
    if sent_total > SENT_TOTAL || read_total > READ_TOTAL {
        over.push(format!(
            "{count} tools: {sent_total} sent in all (at most {SENT_TOTAL}), {read_total} read \
             (at most {READ_TOTAL})"
        ));
    }
    assert!(
        over.is_empty(),
        "tools/list is over its budget; say each rule once in the description and move long \
         prose to the tool's `man` text:\n{}",
        over.join("\n")
    );
}

/// No `tools/list` snapshot advertises a number `format` (`uint64`, `int32`, `double`…) that
/// common clients do not know (the TypeScript SDK warns about each one).
#[backend_test(only = "sqlite")]
fn no_snapshot_advertises_a_number_format_clients_do_not_know() {
    let dir = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/golden"));
    let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    let mut checked = 0;
    for entry in entries {
        let path = entry.unwrap_or_else(|e| panic!("{e}")).path();
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default();
        if !name.starts_with("tools-list.") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{name}: {e}"));
        let compact: String = text.split_whitespace().collect();
        for format in [
            "\"format\":\"uint",
            "\"format\":\"int",
            "\"format\":\"double",
            "\"format\":\"float",
        ] {
            assert!(
                !compact.contains(format),
                "{name} advertises a {format}…\" clients do not know"
            );
        }
        checked += 1;
    }
    assert!(
        checked >= 8,
        "only {checked} tools/list snapshots in {}",
        dir.display()
    );
}

/// The listed tools that answer text only, with no structured result to describe: the
/// contributed tool the tests link in, written as a third party would write the smallest tool.
const TEXT_ONLY: &[&str] = &["append_note"];

/// What every listed tool states besides its schemas: a title, an output schema (unless it
/// answers text only), and all four behaviour hints, so no client falls back on the protocol's
/// defaults (destructive, not idempotent, open world).
#[backend_test(only = "sqlite")]
fn every_listed_tool_has_a_title_an_output_schema_and_all_four_hints() {
    let mut missing = Vec::new();
    for tool in tools() {
        let name = tool.get("name").and_then(Value::as_str).unwrap_or("?");
        let expected: &[&str] = if TEXT_ONLY.contains(&name) {
            &["title"]
        } else {
            &["title", "outputSchema"]
        };
        for key in expected {
            if !tool.contains_key(*key) {
                missing.push(format!("{name}: no {key}"));
            }
        }
        let annotations = tool.get("annotations").and_then(Value::as_object);
        for hint in [
            "readOnlyHint",
            "destructiveHint",
            "idempotentHint",
            "openWorldHint",
        ] {
            if annotations.and_then(|a| a.get(hint)).is_none() {
                missing.push(format!("{name}: no {hint}"));
            }
        }
    }
    assert!(missing.is_empty(), "{}", missing.join("\n"));
}
