//! A call's signals through the call path: the timeout and the transport's cancellation stop
//! the tool, tell the work it started to stop, answer a truthful `isError` result and audit
//! `timeout` / `cancelled`; progress reaches the request's sink, throttled, final report
//! included.

use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use mcp_runtime::ToolContext;
use mcp_runtime::audit::{Audit, AuditRecord, Outcome};
use mcp_runtime::call::{CallSettings, ToolCall, call};
use mcp_runtime::signals::{CancellationToken, ProgressSink, ProgressUpdate};
use rmcp::model::CallToolResult;
use serde_json::json;

use crate::harness::every_tool;
use crate::tools::slow::worker_saw_cancellation;

#[derive(Clone, Default)]
struct Outcomes(Arc<Mutex<Vec<Outcome>>>);

impl Audit for Outcomes {
    fn record(&self, record: &AuditRecord<'_>) {
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(record.outcome);
    }
}

#[derive(Clone, Default)]
struct Reports(Arc<Mutex<Vec<ProgressUpdate>>>);

impl ProgressSink for Reports {
    fn send(&self, update: ProgressUpdate) {
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(update);
    }
}

fn slow(steps: i64) -> ToolCall {
    match json!({"steps": steps}) {
        serde_json::Value::Object(arguments) => ToolCall::new("slow", arguments),
        _ => unreachable!("an object literal"),
    }
}

/// A `slow` call that answers its own error once its token fires.
fn answering_its_own_error() -> ToolCall {
    match json!({"steps": 1000, "own_error": true}) {
        serde_json::Value::Object(arguments) => ToolCall::new("slow", arguments),
        _ => unreachable!("an object literal"),
    }
}

fn text(result: &CallToolResult) -> String {
    let block = result.content.first().and_then(|block| block.as_text());
    block.map(|text| text.text.clone()).unwrap_or_default()
}

async fn run(request: ToolCall, settings: &CallSettings) -> CallToolResult {
    let ctx = ToolContext::new(Some("alice".to_owned()));
    call(every_tool(), request, ctx, settings)
        .await
        .unwrap_or_else(|error| panic!("{}", error.message))
}

/// Waits (up to a second) for the tool's blocking worker to see the stop signal.
async fn worker_stopped() -> bool {
    for _ in 0..100 {
        if worker_saw_cancellation().load(Ordering::SeqCst) {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    false
}

// The fixture's worker flag is shared: the tests that read it run one at a time.
static SERIAL: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

#[tokio::test]
async fn a_timed_out_call_answers_in_time_stops_its_work_and_is_audited_timeout() {
    let _serial = SERIAL.lock().await;
    let outcomes = Outcomes::default();
    let settings = CallSettings::default()
        .with_timeout(Duration::from_millis(150))
        .with_audit(outcomes.clone());
    let started = Instant::now();
    let result = run(slow(1000), &settings).await;
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(result.is_error, Some(true));
    assert_eq!(
        text(&result),
        "Error: tool 'slow' did not finish within 150 ms and was cancelled. Retry with a \
         narrower request (a smaller limit, a more specific query); if it keeps timing out, \
         tell an administrator."
    );
    assert!(
        worker_stopped().await,
        "the work the tool started was told to stop"
    );
    let outcomes = outcomes
        .0
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .clone();
    assert_eq!(outcomes, [Outcome::Timeout]);
}

#[tokio::test]
async fn a_cancelled_call_stops_and_is_audited_cancelled() {
    let _serial = SERIAL.lock().await;
    let outcomes = Outcomes::default();
    let settings = CallSettings::default().with_audit(outcomes.clone());
    let token = CancellationToken::new();
    let cancel = token.clone();
    tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(60)).await;
        cancel.cancel();
    });
    let started = Instant::now();
    let result = run(slow(1000).with_cancellation(token), &settings).await;
    assert!(started.elapsed() < Duration::from_secs(2));
    assert_eq!(result.is_error, Some(true));
    assert_eq!(
        text(&result),
        "Error: the call of 'slow' was cancelled before it finished."
    );
    assert!(worker_stopped().await);
    let outcomes = outcomes
        .0
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .clone();
    assert_eq!(outcomes, [Outcome::Cancelled]);
}

/// A tool that answers its own error once the token fired (the store interrupted its work)
/// returns in the same poll the call path sees the token: the answer is still the call path's,
/// audited `cancelled`, whatever the tool said.
#[tokio::test]
async fn a_cancelled_call_answers_the_call_paths_text_even_when_the_tool_answered_first() {
    let _serial = SERIAL.lock().await;
    let outcomes = Outcomes::default();
    let settings = CallSettings::default().with_audit(outcomes.clone());
    let token = CancellationToken::new();
    let cancel = token.clone();
    tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(60)).await;
        cancel.cancel();
    });
    let request = answering_its_own_error();
    let result = run(request.with_cancellation(token), &settings).await;
    assert_eq!(result.is_error, Some(true));
    assert_eq!(
        text(&result),
        "Error: the call of 'slow' was cancelled before it finished."
    );
    let outcomes = outcomes
        .0
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .clone();
    assert_eq!(outcomes, [Outcome::Cancelled]);
}

/// The timeout cancels the token itself and answers at once: the same tool's own error never
/// replaces the timeout's text, which differs from a client's cancel (it says to narrow).
#[tokio::test]
async fn a_timed_out_call_keeps_the_timeouts_text_when_the_tool_answers_its_own_error() {
    let _serial = SERIAL.lock().await;
    let outcomes = Outcomes::default();
    let settings = CallSettings::default()
        .with_timeout(Duration::from_millis(150))
        .with_audit(outcomes.clone());
    let request = answering_its_own_error();
    let result = run(request, &settings).await;
    assert!(
        text(&result).starts_with("Error: tool 'slow' did not finish within 150 ms"),
        "{}",
        text(&result)
    );
    let outcomes = outcomes
        .0
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .clone();
    assert_eq!(outcomes, [Outcome::Timeout]);
}

#[tokio::test]
async fn progress_goes_to_the_requests_sink_throttled_with_the_final_report() {
    let _serial = SERIAL.lock().await;
    let reports = Reports::default();
    let request = slow(20).with_progress(Arc::new(reports.clone()));
    let result = run(request, &CallSettings::default()).await;
    assert_eq!(text(&result), "20 steps done");
    let reports = reports
        .0
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .clone();
    // 20 steps of 20 ms: ~400 ms, so ~4-5 reports at 100 ms spacing, never all 20.
    assert!(reports.len() >= 2 && reports.len() < 20, "{reports:?}");
    assert_eq!(
        reports.last(),
        Some(&ProgressUpdate {
            progress: 20.0,
            total: Some(20.0),
            message: Some("step 20 of 20".to_owned())
        })
    );
    assert_eq!(reports.first().map(|r| r.progress), Some(1.0));
    // Without a sink the same call reports nothing and costs nothing.
    let plain = run(slow(2), &CallSettings::default()).await;
    assert_eq!(text(&plain), "2 steps done");
}
