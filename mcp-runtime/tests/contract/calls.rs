//! The framework's one call path ([`mcp_runtime::call::call`]) without any server: lookup in the
//! caller's set, the guest's write refusal, and one audit record per call.

use std::sync::{Arc, Mutex, PoisonError};

use mcp_runtime::audit::{Audit, AuditRecord, Outcome};
use mcp_runtime::call::{CallSettings, ToolCall, call};
use mcp_runtime::{ToolContext, ToolSet};
use rmcp::model::ErrorCode;
use serde_json::json;

use crate::harness::{block_on, call_as, every_tool};

fn request(name: &str, arguments: serde_json::Value) -> ToolCall {
    match arguments {
        serde_json::Value::Object(arguments) => ToolCall::new(name, arguments),
        other => panic!("arguments must be an object, got {other}"),
    }
}

#[test]
fn a_name_outside_the_callers_set_is_a_json_rpc_error_listing_the_set() {
    let readers = every_tool().without_writes();
    let refused = block_on(call(
        &readers,
        request("contributed_stamp", json!({"reference": "A.B"})),
        ToolContext::new(Some("alice".to_owned())),
        &CallSettings::default(),
    ));
    let error = refused
        .err()
        .map(|error| (error.code, error.message.into_owned()));
    assert_eq!(
        error,
        Some((
            ErrorCode::INVALID_PARAMS,
            format!(
                "Unknown tool 'contributed_stamp'. Tools you can use here: {}.",
                readers.names()
            )
        ))
    );
    let empty = block_on(call(
        &ToolSet::default(),
        request("x\ny", json!({})),
        ToolContext::new(None),
        &CallSettings::default(),
    ));
    // The echoed name is guarded: no line break reaches the message.
    assert_eq!(
        empty.err().map(|error| error.message.into_owned()),
        Some("Unknown tool 'xy'. Tools you can use here: .".to_owned())
    );
}

#[test]
fn the_guest_is_refused_a_write_tool_even_when_a_set_offers_it() {
    let stamp = json!({"reference": "Sandbox.WebHome"});
    assert_eq!(
        call_as(None, "contributed_stamp", &stamp),
        Err(
            "Error: 'contributed_stamp' changes content, which guests cannot do. Connect with an \
             API token (Authorization: Bearer <token>) of a user allowed to edit."
                .to_owned()
        )
    );
    assert_eq!(
        call_as(Some("alice"), "contributed_stamp", &stamp),
        Ok("Stamped Sandbox.WebHome.".to_owned())
    );
}

/// An audit sink that keeps what it was told.
#[derive(Clone, Default)]
struct Recorder(Arc<Mutex<Vec<Recorded>>>);

/// One record as the recorder keeps it: tool, user, outcome, reason.
type Recorded = (String, String, Outcome, &'static str);

impl Audit for Recorder {
    fn record(&self, record: &AuditRecord<'_>) {
        let entry = (
            record.tool.to_owned(),
            record.context.user_or_guest().to_owned(),
            record.outcome,
            record.reason_str(),
        );
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(entry);
    }
}

#[test]
fn every_call_that_found_its_tool_is_audited_once() {
    let recorder = Recorder::default();
    let settings = CallSettings::default().with_audit(recorder.clone());
    let run = |user: Option<&str>, name: &str, arguments| {
        let ctx = ToolContext::new(user.map(str::to_owned));
        block_on(call(every_tool(), request(name, arguments), ctx, &settings))
    };
    assert!(run(Some("alice"), "contributed_echo", json!({"message": "hi"})).is_ok());
    assert!(run(Some("alice"), "contributed_echo", json!({})).is_ok());
    assert!(run(None, "contributed_stamp", json!({"reference": "A.B"})).is_ok());
    assert!(run(None, "nope", json!({})).is_err());
    let records = recorder
        .0
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .clone();
    // The reason is the error's category, never its message: a missing argument is
    // `bad_argument`, the guest's write `forbidden`, a success `-`.
    let expected = [
        ("contributed_echo", "alice", Outcome::Ok, "-"),
        ("contributed_echo", "alice", Outcome::Error, "bad_argument"),
        ("contributed_stamp", "guest", Outcome::Error, "forbidden"),
    ];
    let expected: Vec<_> = expected
        .iter()
        .map(|(tool, user, outcome, reason)| {
            ((*tool).to_owned(), (*user).to_owned(), *outcome, *reason)
        })
        .collect();
    assert_eq!(records, expected);
}
