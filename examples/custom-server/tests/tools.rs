//! The example's tools in-process, through the real call path (`wiki_server::testing`: a
//! temporary farm, `Manager::call`): the outputs, the doors' refusals, and that a write tool
//! tells a caller who may edit but not view a page nothing about it, and changes nothing.

use custom_server as _;
use serde_json::json;
use wiki_mcp_cli::farm::{Content, seed};
use wiki_server::testing::{Answer, TestFarm};
use wiki_tool_sdk::store::model::wiki::WikiId;
use wiki_tool_sdk::store::reference::DocumentReference;
use wiki_tool_sdk::store::rights::Right;

fn demo() -> TestFarm {
    let farm = TestFarm::seeded(|store| seed(store, Content::Demo));
    farm.enable_tools("main", &["append_note", "remove_last_line"]);
    farm
}

/// How many versions the history of the document `text` (of the main wiki) holds.
fn versions(farm: &TestFarm, text: &str) -> usize {
    let reference =
        DocumentReference::parse(text, &WikiId::main()).unwrap_or_else(|error| panic!("{error}"));
    farm.store()
        .history(&reference, None, 0, 100)
        .unwrap_or_else(|error| panic!("{error}"))
        .map_or(0, |history| history.revisions.len())
}

fn content(farm: &TestFarm, text: &str) -> Option<String> {
    let reference =
        DocumentReference::parse(text, &WikiId::main()).unwrap_or_else(|error| panic!("{error}"));
    farm.store()
        .document(&reference, None)
        .unwrap_or_else(|error| panic!("{error}"))
        .map(|document| document.content)
}

#[tokio::test]
async fn page_stats_counts_through_the_read_door() {
    let farm = demo();
    let stats = farm
        .guest()
        .call("page_stats", json!({"reference": "Sandbox.WebHome"}))
        .await
        .expect_text();
    assert_eq!(
        stats,
        "Document: main:Sandbox.WebHome\nVersion: 1.1\nLines: 3\nWords: 15\nHeadings: 1"
    );
    // Reach: the sub-wiki, named by prefix.
    let dev = farm
        .user("alice")
        .call("page_stats", json!({"reference": "dev:Main.WebHome"}))
        .await
        .expect_text();
    assert!(dev.starts_with("Document: dev:Main.WebHome\n"), "{dev}");
    let missing = farm
        .user("alice")
        .call("page_stats", json!({"reference": "Sandbox.Nowhere"}))
        .await
        .expect_error();
    assert_eq!(
        missing,
        "Error: the document \"main:Sandbox.Nowhere\" does not exist."
    );
    let unparsed = farm
        .user("alice")
        .call("page_stats", json!({}))
        .await
        .expect_error();
    assert!(unparsed.contains("'reference'"), "{unparsed}");
}

#[tokio::test]
async fn append_note_saves_as_the_caller_with_an_ai_comment() {
    let farm = demo();
    let note = json!({"reference": "Sandbox.WebHome", "note": "  Tried it.  "});
    let saved = farm
        .user("alice")
        .call("append_note", note)
        .await
        .expect_text();
    assert_eq!(
        saved,
        "Appended a note to main:Sandbox.WebHome.\nVersion: 1.1 -> 1.2"
    );
    let now = content(&farm, "Sandbox.WebHome").unwrap_or_default();
    assert!(now.ends_with("is next door.\nTried it.\n"), "{now:?}");
    let reference = DocumentReference::parse("Sandbox.WebHome", &WikiId::main())
        .unwrap_or_else(|error| panic!("{error}"));
    let history = farm
        .store()
        .history(&reference, None, 0, 1)
        .unwrap_or_else(|error| panic!("{error}"))
        .unwrap_or_else(|| panic!("no history"));
    let last = history
        .revisions
        .first()
        .unwrap_or_else(|| panic!("no revision"));
    assert_eq!(
        (last.author.as_str(), last.comment.as_str()),
        ("alice", "[AI] Appended a note")
    );

    for (note, says) in [
        ("  ", "'note' parameter is required"),
        ("two\nlines", "'note' must be one line of text"),
        (&"x".repeat(1001), "'note' is too long (1001 characters"),
    ] {
        let refused = farm
            .user("alice")
            .call(
                "append_note",
                json!({"reference": "Sandbox.WebHome", "note": note}),
            )
            .await
            .expect_error();
        assert!(refused.contains(says), "{refused}");
    }
    assert_eq!(content(&farm, "Sandbox.WebHome"), Some(now));
}

#[tokio::test]
async fn append_note_tells_an_editor_who_cannot_view_nothing_and_writes_nothing() {
    let farm = TestFarm::empty();
    farm.add_user("eve")
        .allow_on_wiki("eve", "main", &[Right::Edit]);
    farm.save("Sandbox.Secret", "the secret\n");
    farm.enable_tools("main", &["append_note"]);
    let eve = farm.user("eve");
    let existing = eve
        .call(
            "append_note",
            json!({"reference": "Sandbox.Secret", "note": "hi"}),
        )
        .await
        .expect_error();
    let missing = eve
        .call(
            "append_note",
            json!({"reference": "Sandbox.Missing", "note": "hi"}),
        )
        .await
        .expect_error();
    assert_eq!(
        existing,
        "You do not have permission to view \"main:Sandbox.Secret\"."
    );
    assert_eq!(
        missing,
        "You do not have permission to view \"main:Sandbox.Missing\"."
    );
    assert_eq!(
        content(&farm, "Sandbox.Secret").as_deref(),
        Some("the secret\n")
    );
    assert_eq!(content(&farm, "Sandbox.Missing"), None);
}

#[tokio::test]
async fn append_note_never_writes_the_mcp_configuration() {
    let farm = demo();
    let before = content(&farm, "MCP.ServerConfig");
    let config = json!({"reference": "MCP.ServerConfig", "note": "enabled=false"});
    let alice = farm
        .user("alice")
        .call("append_note", config.clone())
        .await
        .expect_error();
    assert_eq!(
        alice,
        "You do not have permission to view \"main:MCP.ServerConfig\"."
    );
    let admin = farm
        .user("admin")
        .call("append_note", config)
        .await
        .expect_error();
    assert!(
        admin.starts_with("Error: \"main:MCP.ServerConfig\" holds this server's MCP configuration"),
        "{admin}"
    );
    assert_eq!(content(&farm, "MCP.ServerConfig"), before);
}

#[tokio::test]
async fn append_note_asks_the_person_first_on_a_wiki_that_confirms_writes() {
    let farm = demo();
    farm.configure("main", |config| config.confirm_writes = true);
    let before = content(&farm, "Sandbox.WebHome");
    let note = json!({"reference": "Sandbox.WebHome", "note": "Asked first."});

    for answer in [Answer::Declined, Answer::Cancelled] {
        let declined = farm
            .user("alice")
            .answering(answer)
            .call("append_note", note.clone())
            .await;
        assert!(
            declined.expect_error().contains("declined"),
            "{answer:?}: {declined:?}"
        );
        assert_eq!(declined.questions().len(), 1, "{answer:?}");
    }
    let unasked = farm
        .user("alice")
        .call("append_note", note.clone())
        .await
        .expect_error();
    assert!(unasked.contains("confirm_writes=false"), "{unasked}");
    assert_eq!(content(&farm, "Sandbox.WebHome"), before, "nothing written");

    let accepted = farm
        .user("alice")
        .answering(Answer::Accepted)
        .call("append_note", note)
        .await;
    assert_eq!(
        accepted.expect_text(),
        "Appended a note to main:Sandbox.WebHome.\nVersion: 1.1 -> 1.2"
    );
    let [question] = accepted.questions() else {
        panic!("one question: {:?}", accepted.questions());
    };
    assert!(
        question.contains("main:Sandbox.WebHome (version 1.1)")
            && question.contains("append_note")
            && question.contains("\"main\""),
        "{question}"
    );
}

#[tokio::test]
async fn remove_last_line_asks_first_and_writes_once_only_when_accepted() {
    let farm = demo();
    let before = content(&farm, "Sandbox.WebHome").unwrap_or_default();
    let line = "A place to try edits. The [developer wiki](dev:Main.WebHome) is next door.";
    assert!(before.ends_with(&format!("\n{line}\n")), "{before:?}");
    let kept = "# Sandbox\n\n";
    let change = format!(
        "replace {} characters of main:Sandbox.WebHome (version 1.1) with {} characters",
        before.chars().count(),
        kept.chars().count()
    );
    let question = format!(
        "An AI agent asks to {change} on the wiki \"main\" (tool remove_last_line). Allow this \
         change?"
    );
    let remove = json!({"reference": "Sandbox.WebHome"});

    for answer in [Answer::Declined, Answer::Cancelled] {
        let declined = farm
            .user("alice")
            .answering(answer)
            .call("remove_last_line", remove.clone())
            .await;
        assert_eq!(
            declined.questions(),
            std::slice::from_ref(&question),
            "{answer:?}"
        );
        let refusal = declined.expect_error();
        assert!(
            refusal.starts_with(&format!(
                "The person using your client declined: {change} was not done. Nothing was saved."
            )),
            "{answer:?}: {refusal}"
        );
    }
    assert_eq!(content(&farm, "Sandbox.WebHome").as_ref(), Some(&before));
    assert_eq!(
        versions(&farm, "Sandbox.WebHome"),
        1,
        "declining wrote nothing"
    );

    let accepted = farm
        .user("alice")
        .answering(Answer::Accepted)
        .call("remove_last_line", remove)
        .await;
    assert_eq!(accepted.questions(), [question]);
    assert_eq!(
        accepted.expect_text(),
        format!("Removed the last line of main:Sandbox.WebHome: \"{line}\".\nVersion: 1.1 -> 1.2")
    );
    assert_eq!(content(&farm, "Sandbox.WebHome").as_deref(), Some(kept));
    assert_eq!(
        versions(&farm, "Sandbox.WebHome"),
        2,
        "accepting wrote once"
    );
}

#[tokio::test]
async fn remove_last_line_is_refused_to_a_client_that_cannot_ask() {
    // `confirm` always asks: a client that cannot ask (no elicitation) is refused, on a wiki
    // that does not require confirmation too, and told why; nothing is written.
    let farm = demo();
    let refused = farm
        .user("alice")
        .call("remove_last_line", json!({"reference": "Sandbox.WebHome"}))
        .await;
    assert!(refused.questions().is_empty());
    let message = refused.expect_error();
    assert!(
        message.starts_with("Error: remove_last_line always asks the person using your client")
            && message.contains("it declared no elicitation capability")
            && !message.contains("confirm_writes"),
        "{message}"
    );
    assert_eq!(versions(&farm, "Sandbox.WebHome"), 1, "nothing was written");
}

#[tokio::test]
async fn remove_last_line_refuses_a_document_with_no_line() {
    let farm = TestFarm::empty();
    farm.add_user("alice")
        .allow_on_wiki("alice", "main", &[Right::View, Right::Edit]);
    farm.save("Sandbox.Blank", " \n\n");
    farm.enable_tools("main", &["remove_last_line"]);
    let blank = farm
        .user("alice")
        .answering(Answer::Accepted)
        .call("remove_last_line", json!({"reference": "Sandbox.Blank"}))
        .await;
    assert_eq!(
        blank.expect_error(),
        "Error: the document \"main:Sandbox.Blank\" has no line to remove (it is empty). \
         Nothing was saved."
    );
    assert!(blank.questions().is_empty(), "nothing to confirm");
}
