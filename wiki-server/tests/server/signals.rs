//! The modern tool surface through rmcp's client over a pipe (stdio's transport): structured
//! results validated against the advertised output schema, progress notifications for a
//! request with a progress token, and the timeout and `notifications/cancelled` stopping a
//! call, each audited with its outcome.

use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;
use wiki_store::testing::backend_test;

use rmcp::model::{
    CallToolRequest, CallToolRequestParams, ClientRequest, ProgressNotificationParam,
};
use rmcp::service::{NotificationContext, PeerRequestOptions, RoleClient};
use rmcp::{ClientHandler, ServiceExt};
use serde_json::{Value, json};
use wiki_server::{McpHandler, ServerSettings};

use crate::harness::{Farm, alice, call, client};
use crate::logs;
use crate::tools::{grind_end, grind_started};

/// Waits up to two seconds for an audit line of `tool` with `outcome`.
async fn audited(log: &logs::Since, tool: &str, outcome: &str) -> bool {
    let tool = format!("tool={tool}");
    let outcome = format!("outcome={outcome}");
    for _ in 0..200 {
        if !log.lines_with(&["audit", &tool, &outcome]).is_empty() {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    false
}

#[backend_test]
async fn list_wikis_answers_structured_content_its_schema_accepts() {
    let farm = Farm::new();
    let user = client(farm.manager(), alice("main")).await;
    let tools = user
        .list_all_tools()
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let listed = tools.iter().find(|tool| tool.name == "list_wikis");
    let schema = listed
        .and_then(|tool| tool.output_schema.clone())
        .map(|schema| Value::Object((*schema).clone()))
        .unwrap_or_else(|| panic!("list_wikis advertises no output schema"));
    let annotations = listed.and_then(|tool| tool.annotations.clone());
    assert_eq!(annotations.and_then(|a| a.open_world_hint), Some(false));
    let result = user
        .call_tool(CallToolRequestParams::new("list_wikis"))
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let structured = result.structured_content.clone().unwrap_or_default();
    assert_eq!(
        structured,
        json!({"reach": true, "wikis": [
            {"id": "main", "name": "Main Wiki", "current": true},
            {"id": "dev", "name": "Development", "current": false},
        ]})
    );
    let validator = jsonschema::draft202012::new(&schema).unwrap_or_else(|e| panic!("{e}"));
    assert!(validator.is_valid(&structured), "{structured}");
    // The text stays the reference's, for models and older clients.
    let text = result.content.first().and_then(|block| block.as_text());
    assert!(
        text.is_some_and(|text| text.text.contains("  dev — Development\n")),
        "{result:?}"
    );
}

#[backend_test]
async fn a_timed_out_call_says_so_and_is_audited_timeout() {
    let log = logs::capture();
    let farm = Farm::new();
    let manager =
        farm.manager_with(ServerSettings::default().with_call_timeout(Duration::from_millis(150)));
    let alice = client(manager, alice("main")).await;
    assert_eq!(
        call(&alice, "sleepy", json!({})).await,
        Err(
            "Error: tool 'sleepy' did not finish within 150 ms and was cancelled. Retry with a \
             narrower request (a smaller limit, a more specific query); if it keeps timing out, \
             tell an administrator."
                .to_owned()
        )
    );
    assert!(audited(&log, "sleepy", "timeout").await);
}

#[backend_test]
async fn notifications_cancelled_stops_the_call_and_is_audited_cancelled() {
    let log = logs::capture();
    let farm = Farm::new();
    // A wiki of its own, so the audit line found is this test's.
    farm.store
        .create_wiki(&crate::harness::wiki("cancelling"), "Cancelling")
        .unwrap_or_else(|e| panic!("{e}"));
    let alice = client(
        farm.manager(),
        wiki_server::Caller::user(crate::harness::wiki("cancelling"), "alice"),
    )
    .await;
    call_then_cancel(
        &alice,
        "sleepy",
        tokio::time::sleep(Duration::from_millis(100)),
    )
    .await;
    assert!(
        audited(&log, "sleepy", "cancelled").await,
        "{:#?}",
        log.lines_with(&["audit", "tool=sleepy"])
    );
}

/// Calls `tool` from `client` and cancels the request (`notifications/cancelled`) once
/// `ready` (a delay, or a tool's start marker) resolves after it was sent.
async fn call_then_cancel(
    client: &crate::harness::Client,
    tool: &'static str,
    ready: impl std::future::Future<Output = ()>,
) {
    let request =
        ClientRequest::CallToolRequest(CallToolRequest::new(CallToolRequestParams::new(tool)));
    let handle = client
        .peer()
        .send_cancellable_request(request, PeerRequestOptions::no_options())
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    ready.await;
    handle
        .cancel(Some("the person changed their mind".to_owned()))
        .await
        .unwrap_or_else(|e| panic!("{e}"));
}

/// A client that keeps the progress notifications it receives.
#[derive(Clone, Default)]
struct Recording(Arc<Mutex<Vec<ProgressNotificationParam>>>);

impl ClientHandler for Recording {
    async fn on_progress(
        &self,
        params: ProgressNotificationParam,
        _context: NotificationContext<RoleClient>,
    ) {
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(params);
    }
}

#[backend_test]
async fn a_request_with_a_progress_token_gets_throttled_progress_notifications() {
    let farm = Farm::new();
    let (server_io, client_io) = tokio::io::duplex(1 << 16);
    let handler = McpHandler::with_caller(farm.manager(), alice("main"));
    tokio::spawn(async move {
        if let Ok(running) = handler.serve(server_io).await {
            let _ = running.waiting().await;
        }
    });
    let recording = Recording::default();
    let client = recording
        .clone()
        .serve(client_io)
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    // rmcp's client sends a progress token with every request.
    let result = client
        .call_tool(CallToolRequestParams::new("stepper"))
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(result.is_error, Some(false));
    // The notifications race the reply on the pipe: give the last one a moment.
    let mut seen = Vec::new();
    for _ in 0..100 {
        seen = recording
            .0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone();
        if seen.last().is_some_and(|p| p.progress == 5.0) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let steps: Vec<f64> = seen.iter().map(|p| p.progress).collect();
    assert_eq!(
        steps,
        [1.0, 2.0, 3.0, 4.0, 5.0],
        "120 ms apart: none throttled"
    );
    assert!(seen.iter().all(|p| p.total == Some(5.0)));
    assert_eq!(
        seen.last().and_then(|p| p.message.clone()),
        Some("step 5".to_owned())
    );
}

/// A wiki of the test's own (audit lines and grind ends are told apart by it) and alice's
/// client on it.
async fn own_wiki(
    farm: &Farm,
    manager: Arc<wiki_server::Manager>,
    id: &str,
) -> crate::harness::Client {
    farm.store
        .create_wiki(&crate::harness::wiki(id), id)
        .unwrap_or_else(|e| panic!("{e}"));
    client(
        manager,
        wiki_server::Caller::user(crate::harness::wiki(id), "alice"),
    )
    .await
}

#[backend_test]
async fn notifications_cancelled_interrupts_the_store_work_of_the_call() {
    let log = logs::capture();
    let farm = Farm::new();
    let alice = own_wiki(&farm, farm.manager(), "grinding").await;
    // Cancelled once its store work runs: earlier, there would be no statement to interrupt.
    call_then_cancel(&alice, "grind", grind_started("grinding")).await;
    // The loop ignores the signal: only the store interrupting its statement ends it early.
    assert_eq!(
        grind_end("grinding", Duration::from_secs(10))
            .await
            .as_deref(),
        Some("interrupted")
    );
    assert!(audited(&log, "grind", "cancelled").await);
}

#[backend_test]
async fn a_timed_out_store_call_answers_in_time_stops_and_others_keep_answering() {
    let log = logs::capture();
    let farm = Farm::new();
    let timeout = Duration::from_millis(400);
    let manager = farm.manager_with(ServerSettings::default().with_call_timeout(timeout));
    let alice = own_wiki(&farm, Arc::clone(&manager), "timing").await;
    let other = client(manager, crate::harness::alice("main")).await;
    let started = tokio::time::Instant::now();
    let grinding = call(&alice, "grind", json!({}));
    let meanwhile = async {
        tokio::time::sleep(Duration::from_millis(100)).await;
        call(&other, "echo", json!({"text": "still here"})).await
    };
    let (ground, echoed) = tokio::join!(grinding, meanwhile);
    let answered = started.elapsed();
    assert_eq!(echoed.as_deref(), Ok("still here"));
    let refusal = ground.err().unwrap_or_default();
    assert!(
        refusal.starts_with("Error: tool 'grind' did not finish within 400 ms"),
        "{refusal}"
    );
    assert!(answered < timeout + Duration::from_secs(1), "{answered:?}");
    assert_eq!(
        grind_end("timing", Duration::from_secs(10))
            .await
            .as_deref(),
        Some("interrupted")
    );
    assert!(audited(&log, "grind", "timeout").await);
}

/// Whether the `queued` call on `wiki` ran its heavy job.
fn queued_ran(wiki: &str) -> bool {
    crate::tools::QUEUED_RAN
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .iter()
        .any(|on| *on == crate::tools::trial_wiki(wiki))
}

/// Takes every heavy slot of the process with a job that holds it until the returned senders
/// are dropped; returns once every slot is held, with the holders' tasks.
async fn hold_every_heavy_slot() -> (
    Vec<std::sync::mpsc::Sender<()>>,
    Vec<tokio::task::JoinHandle<Result<(), wiki_tool_sdk::heavy::NotRun>>>,
) {
    let slots = wiki_tool_sdk::budgets::budgets().heavy_slots;
    let (started, mut running) = tokio::sync::mpsc::unbounded_channel::<()>();
    let mut releases = Vec::new();
    let mut holders = Vec::new();
    for holder in 0..slots {
        let (release, held) = std::sync::mpsc::channel::<()>();
        let started = started.clone();
        releases.push(release);
        holders.push(tokio::spawn(async move {
            let never = wiki_tool_sdk::prelude::CancellationToken::new();
            // One caller runs at most half the slots: each is held for another.
            let share = wiki_tool_sdk::heavy::Share::user(&format!("holder {holder}"));
            wiki_tool_sdk::heavy::run_heavy(&share, &never, move || {
                let _ = started.send(());
                // Returns once the sender is dropped.
                let _ = held.recv();
            })
            .await
        }));
    }
    for _ in 0..slots {
        running.recv().await;
    }
    (releases, holders)
}

#[backend_test(only = "sqlite")]
async fn a_call_stopped_while_its_heavy_job_waits_for_a_slot_never_runs_the_job() {
    let log = logs::capture();
    let farm = Farm::new();
    let manager =
        farm.manager_with(ServerSettings::default().with_call_timeout(Duration::from_millis(300)));
    let cancelling = own_wiki(&farm, farm.manager(), "queued-cancel").await;
    let timing = own_wiki(&farm, manager, "queued-timeout").await;

    let (releases, holders) = hold_every_heavy_slot().await;
    // Cancelled by the client while waiting.
    call_then_cancel(
        &cancelling,
        "queued",
        tokio::time::sleep(Duration::from_millis(200)),
    )
    .await;
    assert!(audited(&log, "queued", "cancelled").await);
    // Timed out while waiting (the slots stay taken past the call timeout).
    let refusal = call(&timing, "queued", json!({})).await.err();
    assert!(
        refusal
            .as_deref()
            .is_some_and(|r| r.starts_with("Error: tool 'queued' did not finish within 300 ms")),
        "{refusal:?}"
    );
    drop(releases);
    for holder in holders {
        assert!(holder.await.is_ok_and(|held| held.is_ok()));
    }
    // Slots are free now: a job still queued would run at once. Neither does.
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(!queued_ran("queued-cancel"), "the cancelled call's job ran");
    assert!(
        !queued_ran("queued-timeout"),
        "the timed-out call's job ran"
    );
    // The same call with a free slot runs its job: the record above is not vacuous.
    assert_eq!(
        call(&timing, "queued", json!({})).await.as_deref(),
        Ok("ran")
    );
    assert!(queued_ran("queued-timeout"));
}
