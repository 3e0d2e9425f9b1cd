//! Skill change announcements with raw JSON-RPC over HTTP: a 2025-11-25 client's standalone
//! GET stream and a 2026-07-28 client subscribed to `resourcesListChanged` hear
//! `notifications/resources/list_changed` within a second of a change of the skills they may
//! view (a skill page created, edited or deleted, a file attached, a right that hides one), and
//! nothing for a change that leaves their skills alone (another page saved, a skill hidden
//! from someone else).

use std::time::{Duration, Instant};

use serde_json::{Value, json};
use wiki_store::model::attachment::AttachmentWrite;
use wiki_store::model::document::{DocumentSave, Expected};
use wiki_store::model::trash::DocumentDelete;
use wiki_store::model::wiki::WikiId;
use wiki_store::reference::DocumentReference;
use wiki_store::rights::{Effect, Right, RightRule, RightScope, Subject};
use wiki_store::{AttachmentStore, DocumentStore, RightsStore, TrashStore};

use crate::harness::TestServer;
use crate::list_changed::Events;

/// How soon a listener must hear a change.
const HEARD_WITHIN: Duration = Duration::from_secs(1);

/// How long a listener is watched for a change it must not hear.
const QUIET_FOR: Duration = Duration::from_millis(500);

fn reference(page: &str) -> DocumentReference {
    DocumentReference::parse(page, &WikiId::main()).expect("a reference")
}

fn save(server: &TestServer, page: &str, content: &str) {
    server
        .store
        .save_document(&DocumentSave::new(reference(page), content, "admin").title("A skill"))
        .expect("the page is saved");
}

fn is_skills_changed(message: &Value) -> bool {
    message["method"] == "notifications/resources/list_changed"
}

/// Waits for `events` to announce a skill change, within a second of `since`.
async fn hears(events: &mut Events, since: Instant, what: &str) {
    let heard = events
        .next(HEARD_WITHIN.saturating_sub(since.elapsed()))
        .await
        .unwrap_or_else(|| panic!("{what}: not heard within a second"));
    assert!(is_skills_changed(&heard), "{what}: {heard}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn skill_changes_are_heard_by_those_whose_skills_they_change() {
    let server = TestServer::start().await;
    let endpoint = server.endpoint("main");
    let mut alice = Events::get(&endpoint, &server.alice_token).await;
    let mut subscribed = Events::listen_to(
        &endpoint,
        &server.alice_token,
        json!({"resourcesListChanged": true}),
    )
    .await;
    let mut admin = Events::get(&endpoint, &server.admin_token).await;

    save(&server, "Sandbox.Quiet", "not a skill");
    assert_eq!(alice.next(QUIET_FOR).await, None, "another page saved");

    let at = Instant::now();
    save(&server, "Skills.review-a-page", "# Review\n");
    hears(&mut alice, at, "a skill page created (GET stream)").await;
    hears(&mut subscribed, at, "a skill page created (listen stream)").await;
    assert_eq!(
        subscribed.next(Duration::from_millis(100)).await,
        None,
        "announced once"
    );
    hears(&mut admin, at, "a skill page created (another caller)").await;

    let at = Instant::now();
    server
        .store
        .write_attachment(&AttachmentWrite {
            reference: reference("Skills.review-a-page"),
            name: "checklist.md".to_owned(),
            content: b"- read it whole\n".to_vec(),
            author: "admin".to_owned(),
            comment: String::new(),
            expected: Expected::Any,
        })
        .expect("the file is attached");
    hears(&mut alice, at, "a file attached").await;
    hears(&mut admin, at, "a file attached (another caller)").await;

    // Hidden from alice: she hears it, the administrator (who still sees it) does not.
    let at = Instant::now();
    server
        .store
        .set_right(&RightRule {
            scope: RightScope::Page(reference("Skills.review-a-page")),
            subject: Subject::User("alice".to_owned()),
            right: Right::View,
            effect: Effect::Deny,
        })
        .expect("a deny rule");
    hears(&mut alice, at, "a skill hidden").await;
    hears(&mut subscribed, at, "a skill hidden (listen stream)").await;
    assert_eq!(
        admin.next(QUIET_FOR).await,
        None,
        "hidden from someone else"
    );

    // Edited where alice cannot see it: nothing for her.
    let at = Instant::now();
    save(&server, "Skills.review-a-page", "# Review, again\n");
    hears(&mut admin, at, "a skill page edited").await;
    assert_eq!(alice.next(QUIET_FOR).await, None, "a skill she cannot see");

    let at = Instant::now();
    server
        .store
        .delete_document(&DocumentDelete {
            reference: reference("Skills.find-and-cite"),
            author: "admin".to_owned(),
            comment: String::new(),
            expected: Expected::Any,
        })
        .expect("the skill page is deleted");
    hears(&mut alice, at, "a skill page deleted").await;
    hears(&mut admin, at, "a skill page deleted (another caller)").await;
    server.stop().await.expect("the server stops");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_server_announces_resource_list_changes() {
    let server = TestServer::start().await;
    let initialize = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": "skills-changed-test", "version": "1"}}});
    let response = server
        .post("main", Some(&server.alice_token), &initialize, &[])
        .await;
    let reply = crate::harness::message(&response.text().await.expect("a body"));
    assert_eq!(
        reply["result"]["capabilities"]["resources"]["listChanged"],
        json!(true),
        "{reply}"
    );
}
