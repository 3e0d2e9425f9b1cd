//! Skills from the wiki: the pages of the skills space listed, got and read through rmcp's
//! client (and one raw JSON-RPC request over HTTP), with digests of the stored revision, each
//! caller seeing only the skills whose page it may view.

use std::sync::Arc;

use base64::Engine as _;
use base64::prelude::BASE64_STANDARD;
use rmcp::model::{
    GetSkillRequestParams, ReadResourceRequestParams, ResourceContents, Skill, SkillResources,
};
use serde_json::json;
use wiki_server::{Caller, ServerSettings};
use wiki_store::model::attachment::AttachmentWrite;
use wiki_store::model::document::{DocumentSave, Expected};
use wiki_store::reference::SpacePath;
use wiki_store::rights::{Effect, Right, RightRule, RightScope, Subject};
use wiki_store::testing::backend_test;

use crate::harness::{Client, Farm, alice, client, guest, reference, wiki};
use crate::served::{Connection, Framing, Served};

const EDIT: &str = "skill://edit-large-page/SKILL.md";
const CHECKLIST: &str = "skill://edit-large-page/checklist.md";
const LOGO: &str = "skill://edit-large-page/logo.png";

fn save(farm: &Farm, page: &str, title: &str, content: &str) {
    let save = DocumentSave::new(reference(page), content, "alice").title(title);
    farm.store
        .save_document(&save)
        .unwrap_or_else(|e| panic!("save {page}: {e}"));
}

fn attach(farm: &Farm, page: &str, name: &str, content: &[u8]) {
    farm.store
        .write_attachment(&AttachmentWrite {
            reference: reference(page),
            name: name.to_owned(),
            content: content.to_vec(),
            author: "alice".to_owned(),
            comment: String::new(),
            expected: Expected::Any,
        })
        .unwrap_or_else(|e| panic!("attach {name}: {e}"));
}

/// The harness farm with a skills space: one skill with a text and a binary file, the space's
/// home page and a page whose name is no skill name (neither served).
fn skills_farm() -> Farm {
    let farm = Farm::new();
    save(&farm, "Skills.WebHome", "Skills", "# Skills\n");
    save(
        &farm,
        "Skills.edit-large-page",
        "Edit a large page: windows, then base_version",
        "# Editing\n\nRead the outline first.\n",
    );
    attach(
        &farm,
        "Skills.edit-large-page",
        "checklist.md",
        b"- outline\n- window\n",
    );
    attach(
        &farm,
        "Skills.edit-large-page",
        "logo.png",
        b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR",
    );
    save(&farm, "Skills.Not_A_Skill", "Bad name", "x\n");
    farm
}

async fn skills(client: &Client) -> Vec<Skill> {
    client
        .list_all_skills()
        .await
        .unwrap_or_else(|e| panic!("skills/list: {e}"))
}

fn names(skills: &[Skill]) -> Vec<&str> {
    skills.iter().map(Skill::name).collect()
}

/// The bytes `resources/read` returns for `uri` (text or base64).
async fn read(client: &Client, uri: &str) -> Result<Vec<u8>, String> {
    let result = client
        .read_resource(ReadResourceRequestParams::new(uri))
        .await
        .map_err(|e| e.to_string())?;
    match result.contents.as_slice() {
        [ResourceContents::TextResourceContents { text, .. }] => Ok(text.clone().into_bytes()),
        [ResourceContents::BlobResourceContents { blob, .. }] => BASE64_STANDARD
            .decode(blob)
            .map_err(|e| format!("bad base64: {e}")),
        other => panic!("expected one content, got {other:?}"),
    }
}

/// Reads every file of `skill` and checks it against the manifest's size and digest.
async fn verify_files(client: &Client, skill: &Skill) {
    let SkillResources::Files(files) = &skill.resources else {
        panic!("a wiki skill lists its files: {skill:?}");
    };
    for file in files {
        let bytes = read(client, &file.uri)
            .await
            .unwrap_or_else(|e| panic!("read {}: {e}", file.uri));
        file.verify(&bytes)
            .unwrap_or_else(|e| panic!("{}: {e}", file.uri));
    }
}

#[backend_test]
async fn a_page_of_the_skills_space_is_listed_got_and_read_with_its_files() {
    let farm = skills_farm();
    let alice = client(farm.manager(), alice("main")).await;
    let listed = skills(&alice).await;
    assert_eq!(names(&listed), ["edit-large-page"], "{listed:?}");
    let skill = &listed[0];
    assert_eq!(skill.uri, EDIT);
    assert_eq!(
        skill.frontmatter.description,
        "Edit a large page: windows, then base_version"
    );
    let SkillResources::Files(files) = &skill.resources else {
        panic!("{skill:?}");
    };
    let uris: Vec<&str> = files.iter().map(|file| file.uri.as_str()).collect();
    assert_eq!(uris, [EDIT, CHECKLIST, LOGO]);
    verify_files(&alice, skill).await;

    let got = alice
        .get_skill(GetSkillRequestParams::new(EDIT))
        .await
        .unwrap_or_else(|e| panic!("skills/get: {e}"));
    assert_eq!(&got.skill, skill);

    let manifest =
        String::from_utf8(read(&alice, EDIT).await.unwrap_or_default()).unwrap_or_default();
    assert_eq!(
        manifest,
        "---\nname: edit-large-page\ndescription: \"Edit a large page: windows, then \
         base_version\"\n---\n\n# Editing\n\nRead the outline first.\n"
    );
    assert_eq!(
        read(&alice, LOGO).await,
        Ok(b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR".to_vec())
    );

    let resources = alice
        .list_all_resources()
        .await
        .unwrap_or_else(|e| panic!("resources/list: {e}"));
    let listed: Vec<&str> = resources.iter().map(|r| r.uri.as_str()).collect();
    assert_eq!(listed, [EDIT]);

    let unknown = alice
        .get_skill(GetSkillRequestParams::new("skill://no-such-skill/SKILL.md"))
        .await;
    assert!(
        unknown.is_err_and(|e| e.to_string().contains("skills/list")),
        "an unknown skill is refused, naming skills/list"
    );
    assert!(
        read(&alice, "skill://edit-large-page/missing.md")
            .await
            .is_err()
    );
}

#[backend_test]
async fn an_edit_of_the_page_or_an_attachment_changes_the_digests() {
    let farm = skills_farm();
    let manager = farm.manager();
    let alice = client(Arc::clone(&manager), alice("main")).await;
    let digests = |skill: &Skill| match &skill.resources {
        SkillResources::Files(files) => files
            .iter()
            .map(|file| (file.uri.clone(), file.digest.clone()))
            .collect::<Vec<_>>(),
        _ => panic!("{skill:?}"),
    };
    let before = digests(&skills(&alice).await[0]);
    save(
        &farm,
        "Skills.edit-large-page",
        "Edit a large page: windows, then base_version",
        "# Editing\n\nRead the outline first, then one window.\n",
    );
    let after_edit = skills(&alice).await;
    let edited = digests(&after_edit[0]);
    assert_ne!(edited[0], before[0], "the SKILL.md digest follows the page");
    assert_eq!(edited[1..], before[1..], "the files did not change");
    verify_files(&alice, &after_edit[0]).await;

    attach(
        &farm,
        "Skills.edit-large-page",
        "checklist.md",
        b"- outline\n",
    );
    let after_upload = skills(&alice).await;
    let uploaded = digests(&after_upload[0]);
    assert_eq!(uploaded[0], edited[0]);
    assert_ne!(
        uploaded[1], edited[1],
        "the file's digest follows its new version"
    );
    verify_files(&alice, &after_upload[0]).await;
}

#[backend_test]
async fn a_caller_sees_only_the_skills_whose_page_it_may_view() {
    let farm = skills_farm();
    save(&farm, "Skills.team-only", "For the team", "# Team\n");
    farm.store
        .set_right(&RightRule {
            scope: RightScope::Page(reference("Skills.team-only")),
            subject: Subject::User(wiki_store::model::user::GUEST_USER.to_owned()),
            right: Right::View,
            effect: Effect::Deny,
        })
        .unwrap_or_else(|e| panic!("deny: {e}"));
    let manager = farm.manager();

    let alice = client(Arc::clone(&manager), alice("main")).await;
    assert_eq!(
        names(&skills(&alice).await),
        ["edit-large-page", "team-only"]
    );

    let guest = client(Arc::clone(&manager), guest("main")).await;
    assert_eq!(names(&skills(&guest).await), ["edit-large-page"]);
    let hidden = "skill://team-only/SKILL.md";
    assert!(
        guest
            .get_skill(GetSkillRequestParams::new(hidden))
            .await
            .is_err()
    );
    assert!(read(&guest, hidden).await.is_err());

    // bob may view only the space Private: no skill at all.
    let bob = client(manager, Caller::user(wiki("main"), "bob")).await;
    assert!(skills(&bob).await.is_empty());
    assert!(read(&bob, EDIT).await.is_err());
}

#[backend_test]
async fn the_skills_space_is_a_setting() {
    let farm = skills_farm();
    save(&farm, "Team.Skills.cite-a-page", "Cite a page", "# Cite\n");
    let space = SpacePath::parse("Team.Skills").unwrap_or_else(|e| panic!("{e}"));
    let moved = farm.manager_with(ServerSettings::default().with_skills_space(Some(space)));
    let alice_moved = client(moved, alice("main")).await;
    assert_eq!(names(&skills(&alice_moved).await), ["cite-a-page"]);
    assert!(read(&alice_moved, EDIT).await.is_err());

    let none = farm.manager_with(ServerSettings::default().with_skills_space(None));
    let alice_none = client(none, alice("main")).await;
    assert!(skills(&alice_none).await.is_empty());
}

#[backend_test]
async fn skills_are_served_over_http_past_the_direct_answer() {
    let farm = skills_farm();
    farm.configure("main", |config| config.guest_access = true);
    let served = Served::start(farm.manager(), true).await;
    let request = json!({"jsonrpc": "2.0", "id": 1, "method": "skills/list"});
    let mut connection =
        Connection::post(&served, "main", &[], &request, Framing::ContentLength).await;
    let received = connection.read_until(CHECKLIST).await;
    assert!(received.starts_with("HTTP/1.1 200"), "{received}");
    assert!(
        received.contains("\"name\":\"edit-large-page\""),
        "{received}"
    );
}
