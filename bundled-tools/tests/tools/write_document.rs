//! write_document through the middleware: creation, overwrite, base_version rules (missing,
//! forbidden, stale with the exact conflict message and nothing saved), no-op writes, CRLF,
//! the size cap, translations, cross-wiki writes with and without reach, the configuration
//! refusal, and the callers who may not write. Also the shared helpers of the write modules.

use serde_json::{Value, json};
use wiki_server::ServerSettings;
use wiki_server::http::BaseUrl;
use wiki_store::testing::backend_test;
use wiki_tool_sdk::store::model::document::{Document, DocumentSave};
use wiki_tool_sdk::store::model::locale::Locale;

use crate::harness::unchanged::Says::{Contains, Exactly, StartsWith};
use crate::harness::{Farm, locale, ok, reference, text, unsigned};

/// The tools a write test serves on a wiki: reads to check back, and the write tools.
const WRITE_TOOLS: [&str; 5] = [
    "get_document",
    "get_history",
    "write_document",
    "edit_document",
    "delete_document",
];

/// The farm with the write tools enabled on `main` and `sub`.
pub(crate) fn writable_farm() -> Farm {
    writable_farm_with(ServerSettings::default())
}

/// [`writable_farm`] served with `settings`.
pub(crate) fn writable_farm_with(settings: ServerSettings) -> Farm {
    let farm = Farm::with_settings(settings);
    for wiki in ["main", "sub"] {
        farm.configure(wiki, |config| {
            config.enabled_tools = WRITE_TOOLS.iter().map(|t| (*t).to_owned()).collect();
        });
    }
    farm
}

/// The stored row, read straight from the store.
pub(crate) fn stored(farm: &Farm, text: &str, row: Option<&Locale>) -> Option<Document> {
    ok(farm.store.document(&reference(text), row))
}

const TOOL: &str = "write_document";

async fn write(farm: &Farm, arguments: Value, user: &str) -> Result<String, String> {
    farm.call(TOOL, arguments, user, "main").await
}

#[backend_test]
async fn creation_then_overwrite_records_the_caller_and_the_ai_comment() {
    let farm = writable_farm();
    let created = text(
        write(
            &farm,
            json!({"reference": "Sandbox.Draft", "content": "# Draft\n", "title": "Draft"}),
            "alice",
        )
        .await,
    );
    assert_eq!(
        created,
        "Created document main:Sandbox.Draft.\nVersion: 1.1\nSyntax: markdown/1.0\nTitle set."
    );
    let row = stored(&farm, "Sandbox.Draft", None).unwrap_or_else(|| panic!("not saved"));
    assert_eq!(
        (row.author.as_str(), row.title.as_str()),
        ("alice", "Draft")
    );
    let page = ok(farm.store.history(&reference("Sandbox.Draft"), None, 0, 10));
    let comments: Vec<String> = page
        .map(|page| page.revisions.into_iter().map(|r| r.comment).collect())
        .unwrap_or_default();
    assert_eq!(comments, ["[AI] Created document"]);

    let overwritten = text(
        write(
            &farm,
            json!({"reference": "Sandbox.Draft", "content": "# Draft\n\nmore\n",
                   "base_version": "1.1", "comment": "expand", "major": true}),
            "alice",
        )
        .await,
    );
    assert_eq!(
        overwritten,
        "Overwrote document main:Sandbox.Draft.\nVersion: 1.1 -> 2.1"
    );
    let row = stored(&farm, "Sandbox.Draft", None).unwrap_or_else(|| panic!("gone"));
    assert_eq!(row.content, "# Draft\n\nmore\n");
    let read = text(
        farm.call(
            "get_document",
            json!({"reference": "Sandbox.Draft"}),
            "alice",
            "main",
        )
        .await,
    );
    assert!(read.contains("Version: 2.1"), "{read}");
}

#[backend_test]
async fn base_version_is_required_to_overwrite_and_refused_to_create() {
    let farm = writable_farm();
    for (arguments, expected) in [
        (
            json!({"reference": "Sandbox.Notes", "content": "x"}),
            Exactly(
                "Error: the document \"main:Sandbox.Notes\" already exists (version 2.1); \
                 'base_version' is required to change it. Read it with get_document and pass \
                 the version it shows as base_version. Nothing was saved.",
            ),
        ),
        (
            json!({"reference": "Sandbox.Brand", "content": "x", "base_version": "1.1"}),
            Exactly(
                "Error: the document \"main:Sandbox.Brand\" does not exist; omit base_version \
                 to create it. Nothing was saved.",
            ),
        ),
        (
            json!({"reference": "Sandbox.Notes", "content": "x", "base_version": "deleted:3"}),
            StartsWith("Error: 'base_version' must be a version"),
        ),
    ] {
        farm.refuses(TOOL, "alice", arguments, &[expected]).await;
    }
}

#[backend_test]
async fn a_stale_base_version_is_a_conflict_and_saves_nothing() {
    let farm = writable_farm();
    let stale = json!({"reference": "Sandbox.Notes", "content": "mine\n", "base_version": "1.3"});
    let conflict = Exactly(
        "Version conflict: the document is now at version 2.1 but base_version is 1.3. \
         Re-read it with get_document and resend the whole content with its version as \
         base_version. get_history from=1.3 shows what changed since. Nothing was saved.",
    );
    farm.refuses(TOOL, "alice", stale, &[conflict]).await;
}

/// A retry of a write that succeeded (its answer lost): the stale base_version, or none for
/// the page it created, meets a page holding exactly what was sent, so it is done, not in
/// conflict; the same base_version with other content still is a conflict.
#[backend_test]
async fn a_retry_of_a_write_that_succeeded_is_already_applied() {
    let farm = writable_farm();
    let send = json!({"reference": "Sandbox.Notes", "content": "mine\n", "title": "Mine",
                      "base_version": "2.1"});
    text(write(&farm, send.clone(), "alice").await);
    let again = farm.call_result(TOOL, send.clone(), "alice", "main").await;
    assert_eq!(again.is_error, Some(false));
    let said = unsigned(
        &again.content[0]
            .as_text()
            .map(|t| t.text.clone())
            .unwrap_or_default(),
    );
    assert_eq!(
        said,
        "Already applied: the document \"main:Sandbox.Notes\" is at version 2.2 and already \
         holds exactly what you sent (a retry of a write that succeeded). Nothing was saved."
    );
    assert_eq!(
        again
            .structured_content
            .map(|value| (value["change"].clone(), value["version"].clone())),
        Some((json!("unchanged"), json!("2.2")))
    );
    assert_eq!(
        stored(&farm, "Sandbox.Notes", None).map(|row| row.version.to_string()),
        Some("2.2".to_owned())
    );
    let created = json!({"reference": "Sandbox.Fresh", "content": "new\n"});
    text(write(&farm, created.clone(), "alice").await);
    let again = text(write(&farm, created, "alice").await);
    assert!(
        again.starts_with("Already applied: the document \"main:Sandbox.Fresh\" is at version 1.1"),
        "{again}"
    );
    // Not what was sent: the conflict stands.
    let other = json!({"reference": "Sandbox.Notes", "content": "other\n", "base_version": "2.1"});
    farm.refuses(
        TOOL,
        "alice",
        other,
        &[StartsWith(
            "Version conflict: the document is now at version 2.2 but base_version is 2.1.",
        )],
    )
    .await;
    let retitled = json!({"reference": "Sandbox.Notes", "content": "mine\n", "title": "Other",
                          "base_version": "2.1"});
    farm.refuses(TOOL, "alice", retitled, &[StartsWith("Version conflict:")])
        .await;
}

#[backend_test]
async fn unchanged_content_saves_nothing_and_crlf_becomes_lf() {
    let farm = writable_farm();
    let same = text(
        write(
            &farm,
            json!({"reference": "Sandbox.Notes", "content": "# Notes\r\n\r\nrewritten\r\n",
                   "base_version": "2.1"}),
            "alice",
        )
        .await,
    );
    assert_eq!(
        same,
        "No changes: the content and title are already as given. Nothing was saved; the \
         document \"main:Sandbox.Notes\" stays at version 2.1."
    );
    let row = stored(&farm, "Sandbox.Notes", None).unwrap_or_else(|| panic!("gone"));
    assert_eq!(row.version.to_string(), "2.1");
    text(
        write(
            &farm,
            json!({"reference": "Sandbox.Lines", "content": "a\r\nb\rc\n  "}),
            "alice",
        )
        .await,
    );
    let row = stored(&farm, "Sandbox.Lines", None).unwrap_or_else(|| panic!("not saved"));
    assert_eq!(row.content, "a\nb\nc\n  ");
}

#[backend_test]
async fn content_over_a_million_characters_is_refused() {
    let farm = writable_farm();
    let huge = json!({"reference": "Sandbox.Huge", "content": "é".repeat(1_000_001)});
    let too_large = StartsWith("Error: 'content' is too large (1000001 characters");
    farm.refuses(TOOL, "alice", huge, &[too_large]).await;
}

#[backend_test]
async fn translations_are_their_own_rows() {
    let farm = writable_farm();
    let created = text(
        write(
            &farm,
            json!({"reference": "Help.Guide", "locale": "de", "content": "# Anleitung\n"}),
            "alice",
        )
        .await,
    );
    assert_eq!(
        created,
        "Created translation \"de\" of main:Help.Guide.\nVersion: 1.1\nSyntax: markdown/1.0"
    );
    let german = stored(&farm, "Help.Guide", Some(&locale("de")));
    assert_eq!(
        german.map(|row| row.syntax),
        Some("markdown/1.0".to_owned())
    );
    // The French row has its own version: the default row's is a conflict for it.
    for (arguments, expected) in [
        (
            json!({"reference": "Help.Guide", "locale": "fr", "content": "x", "base_version": "1.2"}),
            StartsWith("Version conflict: the \"fr\" translation is now at version 1.1"),
        ),
        (
            json!({"reference": "Help.Guide", "locale": "fr", "content": "x"}),
            Contains("get_document locale=\"fr\""),
        ),
        (
            json!({"reference": "Sandbox.Nowhere", "locale": "fr", "content": "x"}),
            Contains("Create the default language first"),
        ),
    ] {
        farm.refuses(TOOL, "alice", arguments, &[expected]).await;
    }
}

#[backend_test]
async fn a_new_translation_takes_the_default_rows_syntax() {
    let farm = writable_farm();
    let mut plain = DocumentSave::new(reference("Sandbox.Plain"), "plain text\n", "alice");
    plain.syntax = Some("plain/1.0".to_owned());
    ok(farm.store.save_document(&plain));
    let created = text(
        write(
            &farm,
            json!({"reference": "Sandbox.Plain", "locale": "de", "content": "Klartext\n"}),
            "alice",
        )
        .await,
    );
    assert!(created.ends_with("\nSyntax: plain/1.0"), "{created}");
    let german = stored(&farm, "Sandbox.Plain", Some(&locale("de")));
    assert_eq!(german.map(|row| row.syntax), Some("plain/1.0".to_owned()));
}

#[backend_test]
async fn cross_wiki_writes_need_reach() {
    let farm = writable_farm();
    // main has reach by default: alice may not edit sub, the admin may.
    let arguments = json!({"reference": "sub:Team.Notes", "content": "x"});
    let denied = Exactly("You do not have permission to edit \"sub:Team.Notes\".");
    farm.refuses(TOOL, "alice", arguments, &[denied]).await;
    text(
        write(
            &farm,
            json!({"reference": "Team.Notes", "wiki": "sub", "content": "x"}),
            "admin",
        )
        .await,
    );
    assert!(stored(&farm, "sub:Team.Notes", None).is_some());
    // From sub, which has no reach, main is out of bounds even for the admin.
    farm.refused_and_unchanged(
        "Sandbox.FromSub",
        farm.call(
            "write_document",
            json!({"reference": "main:Sandbox.FromSub", "content": "x"}),
            "admin",
            "sub",
        ),
        &[Contains("cross-wiki reach is not enabled")],
    )
    .await;
}

#[backend_test]
async fn the_configuration_document_is_never_written() {
    let farm = writable_farm();
    for target in ["MCP.ServerConfig", "MCP.ServerConfigClass"] {
        let arguments = json!({"reference": target, "content": "enabled: false"});
        farm.refuses(TOOL, "admin", arguments, &[Contains("MCP configuration")])
            .await;
    }
    // The endpoint still serves its tools: the configuration is untouched.
    let still = farm
        .call(
            "get_document",
            json!({"reference": "Sandbox.Notes"}),
            "alice",
            "main",
        )
        .await;
    assert!(still.is_ok());
}

#[backend_test]
async fn the_guest_and_readers_cannot_write() {
    let farm = writable_farm();
    let arguments = json!({"reference": "Sandbox.Guest", "content": "x"});
    farm.refuses_the_guest_and_a_reader(TOOL, arguments).await;
}

#[backend_test]
async fn write_tools_are_off_by_default() {
    let farm = Farm::new();
    let arguments = json!({"reference": "Sandbox.Off", "content": "x"});
    let off = StartsWith("Unknown tool 'write_document'");
    farm.refuses(TOOL, "admin", arguments, &[off]).await;
}

#[backend_test]
async fn results_link_the_new_page_or_the_change() {
    let farm = writable_farm_with(
        ServerSettings::default()
            .with_public_url(BaseUrl::parse("https://wiki.example.org/").expect("a URL")),
    );
    let alice = farm.caller("alice", "main").with_links();
    let created = alice
        .call(
            "write_document",
            json!({"reference": "Sandbox.Linked", "content": "one\n"}),
        )
        .await
        .expect_text();
    assert!(
        unsigned(&created)
            .ends_with("\nView: https://wiki.example.org/wikis/main/view/Sandbox/Linked"),
        "{created}"
    );
    let overwritten = alice
        .call(
            "write_document",
            json!({"reference": "Sandbox.Linked", "content": "two\n", "base_version": "1.1"}),
        )
        .await
        .expect_text();
    let last = overwritten.lines().last().unwrap_or_default();
    assert!(
        last.starts_with("Compare: https://wiki.example.org/wikis/main/compare/Sandbox/Linked?")
            && last.contains("1.1")
            && last.contains("1.2"),
        "{overwritten}"
    );
    // Without asking, a write answers without links.
    let quiet = text(
        write(
            &farm,
            json!({"reference": "Sandbox.Linked", "content": "three\n", "base_version": "1.2"}),
            "alice",
        )
        .await,
    );
    assert!(
        !quiet.contains("Compare:") && !quiet.contains("https://"),
        "{quiet}"
    );
}
