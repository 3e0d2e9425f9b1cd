//! `write_attachment` through the real middleware: creation of the document and of attachments,
//! new versions, base_version rules, argument and name refusals, size caps, and who may write.
//! Every refusal is checked against the store: nothing was written.

use serde_json::{Value, json};
use wiki_server::ServerSettings;
use wiki_server::http::BaseUrl;
use wiki_store::testing::backend_test;
use wiki_tool_sdk::store::model::version::Version;

use crate::harness::unchanged::Says::{Contains, EndsWith, Exactly, StartsWith};
use crate::harness::{Farm, ok, reference, unsigned};

const TOOLS: [&str; 2] = ["write_attachment", "delete_attachment"];

/// The seeded farm with the attachment write tools enabled on `main`.
pub(crate) fn farm() -> Farm {
    farm_with(ServerSettings::default())
}

/// [`farm`] served with `settings`, the tools enabled on `sub` too.
fn farm_with(settings: ServerSettings) -> Farm {
    let farm = Farm::with_settings(settings);
    for wiki in ["main", "sub"] {
        farm.configure(wiki, |config| {
            config.enabled_tools = TOOLS.iter().map(|id| (*id).to_owned()).collect();
        });
    }
    farm
}

/// The version of a document's default row, or `None` when it does not exist.
pub(crate) fn version(farm: &Farm, text: &str) -> Option<Version> {
    ok(farm.store.document(&reference(text), None)).map(|document| document.version)
}

const TOOL: &str = "write_attachment";

async fn write(farm: &Farm, arguments: Value, user: &str) -> Result<String, String> {
    farm.call(TOOL, arguments, user, "main").await
}

fn bytes(farm: &Farm, document: &str, name: &str) -> Option<Vec<u8>> {
    ok(farm
        .store
        .attachment_content(&reference(document), name, None))
    .map(|(_, bytes)| bytes)
}

#[backend_test]
async fn a_new_document_is_created_with_its_first_attachment() {
    let farm = farm();
    let text = ok(write(
        &farm,
        json!({"reference": "Sandbox.Files", "filename": "a.txt", "content": "  one\r\ntwo "}),
        "alice",
    )
    .await);
    assert_eq!(
        text,
        "Created document main:Sandbox.Files with attachment a.txt.\nAttachment version: 1.1\n\
         Size: 11 bytes\nVersion: 1.1"
    );
    // Raw: untrimmed, line endings as sent.
    assert_eq!(
        bytes(&farm, "Sandbox.Files", "a.txt"),
        Some(b"  one\r\ntwo ".to_vec())
    );
    let info = ok(farm.store.attachment(&reference("Sandbox.Files"), "a.txt"));
    let info = info.unwrap_or_else(|| panic!("no attachment"));
    assert_eq!(info.author, "alice");
    assert_eq!(info.comment, "[AI] Uploaded attachment a.txt");
}

#[backend_test]
async fn an_existing_document_needs_its_version_even_for_a_new_attachment() {
    let farm = farm();
    let before = version(&farm, "Sandbox.WebHome").unwrap_or_else(|| panic!("seeded"));
    let unversioned =
        json!({"reference": "Sandbox.WebHome", "filename": "new.txt", "content": "x"});
    let required = format!(
        "Error: the document \"main:Sandbox.WebHome\" already exists (version {before}); \
         'base_version' is required to change it. Read it with get_document and pass the \
         version it shows as base_version. Nothing was saved."
    );
    farm.refuses(TOOL, "alice", unversioned, &[Exactly(&required)])
        .await;

    let text = ok(write(
        &farm,
        json!({"reference": "Sandbox.WebHome", "filename": "new.txt", "content": "",
               "base_version": before.to_string(), "comment": "empty file"}),
        "alice",
    )
    .await);
    let after = before.next(false);
    assert_eq!(
        text,
        format!(
            "Added attachment new.txt to document main:Sandbox.WebHome.\nAttachment version: \
             1.1\nSize: 0 bytes\nVersion: {before} -> {after}"
        )
    );
    assert_eq!(bytes(&farm, "Sandbox.WebHome", "new.txt"), Some(Vec::new()));
    let info = ok(farm
        .store
        .attachment(&reference("Sandbox.WebHome"), "new.txt"));
    assert_eq!(
        info.map(|info| info.comment),
        Some("[AI] empty file".to_owned())
    );
}

#[backend_test]
async fn an_upload_over_an_attachment_adds_a_version_from_base64() {
    let farm = farm();
    let before = version(&farm, "Sandbox.WebHome").unwrap_or_else(|| panic!("seeded"));
    let text = ok(write(
        &farm,
        json!({"reference": "Sandbox.WebHome", "filename": "notes.txt",
               "content_base64": "bGluZSB0aHJlZQo=", "base_version": before.to_string()}),
        "alice",
    )
    .await);
    assert!(
        text.starts_with(
            "Updated attachment notes.txt on document main:Sandbox.WebHome.\nAttachment \
             version: 1.2\nSize: 11 bytes\n"
        ),
        "{text}"
    );
    assert_eq!(
        bytes(&farm, "Sandbox.WebHome", "notes.txt"),
        Some(b"line three\n".to_vec())
    );
}

#[backend_test]
async fn a_stale_base_version_is_a_conflict_and_saves_nothing() {
    let farm = farm();
    let now = version(&farm, "Sandbox.WebHome").unwrap_or_else(|| panic!("seeded"));
    let stale = json!({"reference": "Sandbox.WebHome", "filename": "notes.txt", "content": "new",
                       "base_version": "1.1"});
    let conflict = format!(
        "Version conflict: the document is now at version {now} but base_version is 1.1. \
         Re-read it with get_document and resend the attachment with the document's version \
         as base_version. get_history from=1.1 shows what changed since. Nothing was saved."
    );
    farm.refuses(TOOL, "alice", stale, &[Exactly(&conflict)])
        .await;
}

#[backend_test]
async fn an_identical_upload_saves_nothing_and_says_so() {
    let farm = farm();
    let now = version(&farm, "Sandbox.WebHome").unwrap_or_else(|| panic!("seeded"));
    let history = |farm: &Farm| {
        ok(farm
            .store
            .attachment_history(&reference("Sandbox.WebHome"), "notes.txt"))
        .len()
    };
    let versions = history(&farm);
    let current = ok(farm
        .store
        .attachment(&reference("Sandbox.WebHome"), "notes.txt"))
    .unwrap_or_else(|| panic!("seeded"))
    .version;
    let expected = format!(
        "No changes: attachment notes.txt already holds these 18 bytes (attachment version \
         {current}). Nothing was saved; the document \"main:Sandbox.WebHome\" stays at version \
         {now}."
    );
    // The same bytes as text or as base64.
    for content in [
        json!({"content": "line one\nline two\n"}),
        json!({"content_base64": "bGluZSBvbmUKbGluZSB0d28K"}),
    ] {
        let mut arguments = json!({"reference": "Sandbox.WebHome", "filename": "notes.txt",
                                   "base_version": now.to_string()});
        if let (Some(arguments), Some(content)) = (arguments.as_object_mut(), content.as_object()) {
            arguments.extend(content.clone());
        }
        assert_eq!(ok(write(&farm, arguments, "alice").await), expected);
    }
    assert_eq!(version(&farm, "Sandbox.WebHome"), Some(now));
    assert_eq!(history(&farm), versions);
    // An identical upload on a stale version is still a conflict.
    let stale = json!({"reference": "Sandbox.WebHome", "filename": "notes.txt",
                       "content": "line one\nline two\n", "base_version": "1.1"});
    let conflict = StartsWith("Version conflict: ");
    farm.refuses(TOOL, "alice", stale, &[conflict]).await;
}

#[backend_test]
async fn a_base_version_for_a_missing_document_is_refused() {
    let farm = farm();
    let based = json!({"reference": "Sandbox.Missing", "filename": "a.txt", "content": "x",
                       "base_version": "1.1"});
    let missing = Exactly(
        "Error: the document \"main:Sandbox.Missing\" does not exist; omit base_version to \
         create it. Nothing was saved.",
    );
    farm.refuses(TOOL, "alice", based, &[missing]).await;
}

#[backend_test]
async fn argument_refusals_end_with_nothing_saved_and_write_nothing() {
    let farm = farm();
    let cases = [
        (
            json!({"reference": "Sandbox.New", "filename": "a.txt", "content": "x",
                   "content_base64": "eA=="}),
            "not both",
        ),
        (
            json!({"reference": "Sandbox.New", "filename": "a.txt"}),
            "send the file as 'content'",
        ),
        (
            json!({"reference": "Sandbox.New", "filename": "a.txt", "content_base64": ""}),
            "'content_base64' is empty",
        ),
        (
            json!({"reference": "Sandbox.New", "filename": "a.txt", "content_base64": "%%%"}),
            "not valid base64",
        ),
        (
            json!({"reference": "Sandbox.New", "filename": "a.txt",
                   "content": "x".repeat(1_000_001)}),
            "'content' is too large (1000001 characters; the limit is 1,000,000)",
        ),
        (
            json!({"reference": "Sandbox.New", "filename": "a.txt",
                   "content_base64": "A".repeat(1_000_004)}),
            "'content_base64' is too large",
        ),
        (
            json!({"reference": "Sandbox.New", "filename": "../a.txt", "content": "x"}),
            "invalid 'filename': the character U+002F is not allowed",
        ),
        (
            json!({"reference": "Sandbox.New", "filename": "a\\b", "content": "x"}),
            "U+005C",
        ),
        (
            json!({"reference": "Sandbox.New", "filename": "a;b", "content": "x"}),
            "U+003B",
        ),
        (
            json!({"reference": "Sandbox.New", "filename": "a\u{7}b", "content": "x"}),
            "U+0007",
        ),
        (
            json!({"reference": "Sandbox.New", "filename": "gpj.\u{202E}exe", "content": "x"}),
            "U+202E",
        ),
    ];
    for (arguments, expected) in cases {
        let says = [Contains(expected), EndsWith("Nothing was saved.")];
        farm.refuses(TOOL, "alice", arguments, &says).await;
    }
    // The configuration: an administrator is told why; anyone else may not even view it.
    let config = json!({"reference": "MCP.ServerConfig", "filename": "a.txt", "content": "x"});
    let says = [
        Contains("MCP configuration"),
        EndsWith("Nothing was saved."),
    ];
    farm.refuses(TOOL, "admin", config.clone(), &says).await;
    let hidden = Exactly("You do not have permission to view \"main:MCP.ServerConfig\".");
    farm.refuses(TOOL, "alice", config, &[hidden]).await;
    // ZWJ is allowed (scripts and emoji need it).
    ok(write(
        &farm,
        json!({"reference": "Sandbox.New", "filename": "a\u{200D}b.txt", "content": "x"}),
        "alice",
    )
    .await);
}

#[backend_test]
async fn the_guest_and_a_user_without_edit_right_are_refused() {
    let farm = farm();
    let arguments = json!({"reference": "Sandbox.New", "filename": "a.txt", "content": "x"});
    farm.refuses_the_guest_and_a_reader(TOOL, arguments).await;
}

#[backend_test]
async fn write_tools_are_off_until_enabled() {
    let farm = Farm::new();
    let arguments = json!({"reference": "Sandbox.New", "filename": "a.txt", "content": "x"});
    let off = StartsWith("Unknown tool 'write_attachment'");
    farm.refuses(TOOL, "alice", arguments, &[off]).await;
}

#[backend_test]
async fn results_link_the_change_and_the_file() {
    let farm = farm_with(
        ServerSettings::default()
            .with_public_url(BaseUrl::parse("https://wiki.example.org/").expect("a URL")),
    );
    farm.configure("main", |config| config.links = true);
    let before = version(&farm, "Sandbox.WebHome").unwrap_or_else(|| panic!("seeded"));
    let text = ok(write(
        &farm,
        json!({"reference": "Sandbox.WebHome", "filename": "b.txt", "content": "b",
               "base_version": before.to_string()}),
        "alice",
    )
    .await);
    let lines: Vec<String> = unsigned(&text).lines().map(str::to_owned).collect();
    let compare = lines.get(4).map_or("", String::as_str);
    assert!(
        compare.starts_with("Compare: https://wiki.example.org/wikis/main/"),
        "{text}"
    );
    assert_eq!(
        lines.get(5).map(String::as_str),
        Some("Download: https://wiki.example.org/wikis/main/download/Sandbox/WebHome/b.txt"),
        "{text}"
    );
}

#[backend_test]
async fn cross_wiki_writes_need_reach_and_the_right_there() {
    let farm = farm();
    let document = "sub:Team.WebHome";
    let before = version(&farm, document).unwrap_or_else(|| panic!("seeded"));
    let arguments = json!({"reference": "Team.WebHome", "wiki": "sub", "filename": "x.txt",
                           "content": "x", "base_version": before.to_string()});
    // alice may edit main, not sub.
    farm.refuses(TOOL, "alice", arguments.clone(), &[]).await;
    // The admin reaches sub from main.
    let admin = ok(write(&farm, arguments, "admin").await);
    assert!(
        admin.starts_with("Added attachment x.txt to document sub:Team.WebHome."),
        "{admin}"
    );
    // sub has no reach: its endpoint cannot write into main.
    let main_before = version(&farm, "Sandbox.WebHome");
    farm.refused_and_unchanged(
        "Sandbox.WebHome",
        farm.call(
            "write_attachment",
            json!({"reference": "Sandbox.WebHome", "wiki": "main", "filename": "y.txt",
                   "content": "y", "base_version": main_before.map(|v| v.to_string())}),
            "admin",
            "sub",
        ),
        &[],
    )
    .await;
}

#[backend_test(flavor = "multi_thread", worker_threads = 4)]
async fn sixteen_uploads_on_one_version_one_wins() {
    let farm = std::sync::Arc::new(farm());
    let base = version(&farm, "Sandbox.WebHome").unwrap_or_else(|| panic!("seeded"));
    let mut uploads = tokio::task::JoinSet::new();
    for agent in 0..16 {
        let farm = std::sync::Arc::clone(&farm);
        uploads.spawn(async move {
            write(
                &farm,
                json!({"reference": "Sandbox.WebHome", "filename": format!("agent{agent}.txt"),
                       "content": "x", "base_version": base.to_string()}),
                "alice",
            )
            .await
        });
    }
    let mut won = 0;
    let mut conflicts = 0;
    while let Some(result) = uploads.join_next().await {
        match ok(result) {
            Ok(_) => won += 1,
            Err(text) if text.starts_with("Version conflict: the document is now at version") => {
                conflicts += 1;
            }
            Err(text) => panic!("unexpected refusal: {text}"),
        }
    }
    assert_eq!((won, conflicts), (1, 15));
    assert_eq!(version(&farm, "Sandbox.WebHome"), Some(base.next(false)));
    let attachments = ok(farm.store.attachments(&reference("Sandbox.WebHome")));
    assert_eq!(
        attachments
            .iter()
            .filter(|info| info.name.starts_with("agent"))
            .count(),
        1
    );
}
