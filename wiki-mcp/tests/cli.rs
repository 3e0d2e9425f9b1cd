//! The binary as users run it: each test runs the built `wiki-mcp` on its own data directory.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Output, Stdio};

use tempfile::TempDir;
use wiki_store::model::document::Expected;
use wiki_store::model::trash::DocumentDelete;
use wiki_store::model::wiki::WikiId;
use wiki_store::reference::DocumentReference;
use wiki_store::{SqliteStore, TrashStore};

const BINARY: &str = env!("CARGO_BIN_EXE_wiki-mcp");

fn wiki_mcp(data: &Path, args: &[&str]) -> Output {
    Command::new(BINARY)
        .arg("--data")
        .arg(data)
        .args(args)
        .env_remove("WIKI_MCP_DATA")
        .output()
        .expect("the binary runs")
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// Runs a command that must succeed and returns its stdout.
fn ok(data: &Path, args: &[&str]) -> String {
    let output = wiki_mcp(data, args);
    assert!(
        output.status.success(),
        "wiki-mcp {args:?} failed:\n{}",
        stderr(&output)
    );
    stdout(&output)
}

/// Runs a command that must fail and returns its stderr.
fn fails(data: &Path, args: &[&str]) -> String {
    let output = wiki_mcp(data, args);
    assert!(
        !output.status.success(),
        "wiki-mcp {args:?} succeeded:\n{}",
        stdout(&output)
    );
    assert_eq!(
        stdout(&output),
        "",
        "a failing command prints nothing on stdout"
    );
    stderr(&output)
}

/// A temp dir holding the demo farm, made by `wiki-mcp init` as a user would.
fn demo_farm() -> TempDir {
    let dir = TempDir::new().expect("a temp dir");
    ok(dir.path(), &["init"]);
    dir
}

#[test]
fn an_admin_command_without_a_farm_says_where_it_looked_and_creates_nothing() {
    let dir = TempDir::new().expect("a temp dir");
    let typo = dir.path().join("dta");
    let error = fails(&typo, &["token", "create", "--user", "alice"]);
    assert!(
        error.contains(&format!("no farm in {}", typo.display()))
            && error.contains("wiki-mcp init"),
        "{error}"
    );
    assert!(!typo.exists(), "nothing was created");
    let error = fails(dir.path(), &["wikis", "list"]);
    assert!(error.contains("no farm in"), "{error}");
    assert_eq!(
        std::fs::read_dir(dir.path()).map(Iterator::count).ok(),
        Some(0)
    );
}

#[test]
fn init_creates_the_demo_farm_and_token_create_prints_only_the_token() {
    let dir = demo_farm();
    let output = wiki_mcp(dir.path(), &["token", "create", "--user", "alice"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let printed = stdout(&output);
    let token = printed.trim_end();
    assert!(token.starts_with("wmcp_"), "{printed:?}");
    assert_eq!(printed, format!("{token}\n"), "the token alone on stdout");

    let wikis = ok(dir.path(), &["wikis", "list"]);
    assert!(wikis.contains("main") && wikis.contains("dev"), "{wikis}");
    let listed = ok(dir.path(), &["token", "list", "--user", "alice"]);
    assert_eq!(
        listed.lines().count(),
        2,
        "a header and alice's token:\n{listed}"
    );
    assert!(
        listed
            .lines()
            .next()
            .is_some_and(|header| header.contains("LAST USED") && header.ends_with("SCOPE"))
            && listed
                .lines()
                .nth(1)
                .is_some_and(|line| line.contains(" never ") && line.ends_with(" full")),
        "a fresh token was never used, and is a full token:\n{listed}"
    );
}

#[test]
fn a_scoped_token_is_listed_with_its_scope_and_a_misspelt_scope_refused() {
    let dir = demo_farm();
    let token = ok(
        dir.path(),
        &[
            "token",
            "create",
            "--user",
            "alice",
            "--label",
            "ci",
            "--read-only",
            "--tools",
            "get_document,get_tree",
            "--wiki",
            "main",
            "--expires",
            "30d",
        ],
    );
    assert!(token.trim().starts_with("wmcp_"), "{token}");
    let listed = ok(dir.path(), &["token", "list", "--user", "alice"]);
    let line = listed.lines().nth(1).unwrap_or_default();
    assert!(
        line.contains("read-only; tools: get_document, get_tree; wikis: main; expires 20"),
        "{listed}"
    );
    let error = fails(
        dir.path(),
        &[
            "token",
            "create",
            "--user",
            "alice",
            "--tools",
            "get_documnet",
        ],
    );
    assert!(
        error.contains("`get_documnet`") && error.contains("get_document"),
        "{error}"
    );
    let error = fails(
        dir.path(),
        &["token", "create", "--user", "alice", "--expires", "soon"],
    );
    assert!(error.contains("30d"), "{error}");
    let error = fails(
        dir.path(),
        &["token", "create", "--user", "alice", "--wiki", "nowhere"],
    );
    assert!(error.contains("not a wiki of this farm"), "{error}");
}

#[test]
fn an_unknown_user_gets_no_token_and_a_non_zero_exit() {
    let dir = demo_farm();
    let error = fails(dir.path(), &["token", "create", "--user", "bob"]);
    assert!(error.contains("unknown user `bob`"), "{error}");
}

#[test]
fn the_data_directory_may_follow_the_subcommand_or_come_from_the_environment() {
    let dir = demo_farm();
    let after = Command::new(BINARY)
        .args(["wikis", "list", "--data"])
        .arg(dir.path())
        .env_remove("WIKI_MCP_DATA")
        .output()
        .expect("the binary runs");
    assert!(after.status.success(), "{}", stderr(&after));
    assert!(dir.path().join("wiki.db").exists());
    let from_env = Command::new(BINARY)
        .args(["wikis", "list"])
        .env("WIKI_MCP_DATA", dir.path())
        .output()
        .expect("the binary runs");
    assert_eq!(stdout(&from_env), stdout(&after));
}

#[test]
fn init_empty_creates_a_bare_farm_once() {
    let dir = TempDir::new().expect("a temp dir");
    let farm = dir.path().join("farm");
    let farm_arg = farm.to_str().expect("a UTF-8 path");
    let created = ok(dir.path(), &["init", "--empty", farm_arg]);
    assert!(created.contains("Token of `admin`"), "{created}");
    assert_eq!(
        ok(&farm, &["wikis", "list"]).lines().count(),
        1,
        "only main"
    );
    let again = fails(dir.path(), &["init", "--empty", farm_arg]);
    assert!(again.contains("already holds a farm"), "{again}");
}

#[test]
fn config_set_checks_keys_and_tool_ids_and_show_reports_them() {
    let dir = demo_farm();
    let data = dir.path();
    let unknown_tool = fails(data, &["config", "set", "--wiki", "main", "tools=man,nope"]);
    assert!(
        unknown_tool.contains("unknown tool id(s): nope (known tools: ")
            && unknown_tool.contains("man"),
        "{unknown_tool}"
    );
    let bad_switch = fails(data, &["config", "set", "--wiki", "main", "links=maybe"]);
    assert!(
        bad_switch.contains("links must be on or off, not `maybe`"),
        "{bad_switch}"
    );
    let unknown_key = fails(data, &["config", "set", "--wiki", "main", "colour=blue"]);
    assert!(
        unknown_key.contains("unknown key `colour`"),
        "{unknown_key}"
    );
    let bad_mode = fails(
        data,
        &["config", "set", "--wiki", "main", "space_filter_mode=some"],
    );
    assert!(
        bad_mode.contains("none, whitelist or blacklist"),
        "{bad_mode}"
    );
    let unknown_wiki = fails(data, &["config", "show", "--wiki", "nowhere"]);
    assert!(
        unknown_wiki.contains("unknown wiki `nowhere`"),
        "{unknown_wiki}"
    );

    ok(
        data,
        &[
            "config",
            "set",
            "--wiki",
            "dev",
            "enabled=false",
            "guest=false",
            "tools=man",
            "description=The developers' wiki",
            "space_filter_mode=whitelist",
            "space_filter=Docs, Main",
            "links=on",
        ],
    );
    let shown = ok(data, &["config", "show", "--wiki", "dev"]);
    for line in [
        "links = on",
        "enabled = false",
        "guest = false",
        "tools = man",
        "description = The developers' wiki",
        "space_filter_mode = whitelist",
        "space_filter = Docs,Main",
    ] {
        assert!(
            shown.lines().any(|l| l == line),
            "missing `{line}` in:\n{shown}"
        );
    }
    ok(data, &["config", "set", "--wiki", "dev", "tools=default"]);
    let shown = ok(data, &["config", "show", "--wiki", "dev"]);
    assert!(shown.lines().any(|l| l == "tools = default"), "{shown}");
}

/// The `key = value` line of `config show`'s output.
fn shown_value(shown: &str, key: &str) -> String {
    let prefix = format!("{key} = ");
    shown
        .lines()
        .find_map(|line| line.strip_prefix(&prefix))
        .unwrap_or_else(|| panic!("no `{key}` in:\n{shown}"))
        .to_owned()
}

#[test]
fn config_set_tools_replaces_edits_or_restores_the_default_set() {
    let dir = TempDir::new().expect("a temp dir");
    let data = dir.path();
    ok(data, &["init"]);
    let set = |value: &str| {
        ok(
            data,
            &["config", "set", "--wiki", "main", &format!("tools={value}")],
        )
    };
    let stored = || shown_value(&ok(data, &["config", "show", "--wiki", "main"]), "tools");
    let served = || {
        shown_value(
            &ok(data, &["config", "show", "--wiki", "main"]),
            "served_tools",
        )
        .split(',')
        .map(str::to_owned)
        .collect::<Vec<_>>()
    };
    let defaults = served();
    assert!(
        defaults.contains(&"get_links".to_owned())
            && !defaults.contains(&"write_document".to_owned()),
        "the default policy serves the read tools: {defaults:?}"
    );

    // default with edits: the policy's tools as of now, plus and minus.
    let saved = set("default,+write_document,-get_links");
    let mut expected: Vec<String> = defaults
        .iter()
        .filter(|id| *id != "get_links")
        .cloned()
        .chain(["write_document".to_owned()])
        .collect();
    expected.sort();
    assert_eq!(served(), expected);
    assert_eq!(
        saved,
        format!(
            "Saved the MCP configuration of main\ntools = {}\n",
            stored()
        ),
        "set prints the list it saved"
    );
    let catalog = ok(data, &["tools", "--wiki", "main"]);
    // The wiki's column starts where its header does (categories have spaces).
    let column = catalog
        .lines()
        .next()
        .and_then(|header| header.find(" main"))
        .unwrap_or_else(|| panic!("no main column in:\n{catalog}"));
    let state = |tool: &str| {
        catalog
            .lines()
            .find(|line| line.starts_with(&format!("{tool} ")))
            .and_then(|line| line.get(column..))
            .unwrap_or_else(|| panic!("no {tool} in:\n{catalog}"))
            .trim()
            .to_owned()
    };
    assert_eq!(state("write_document"), "on (users)");
    assert_eq!(state("get_links"), "off");

    // A signed first entry edits the current set.
    set("+edit_document,-write_document");
    let now = served();
    assert!(
        now.contains(&"edit_document".to_owned())
            && !now.contains(&"write_document".to_owned())
            && !now.contains(&"get_links".to_owned()),
        "{now:?}"
    );

    // A plain list replaces it (man is always served).
    set("get_tree,get_document");
    assert_eq!(stored(), "get_tree,get_document");
    assert_eq!(served(), ["get_document", "get_tree", "list_wikis", "man"]);

    // An unknown id is refused with the known ones, and nothing is saved.
    let refused = fails(
        data,
        &["config", "set", "--wiki", "main", "tools=+get_links,-nope"],
    );
    assert!(
        refused.contains("unknown tool id(s): nope (known tools: ")
            && refused.contains("write_document"),
        "{refused}"
    );
    assert_eq!(stored(), "get_tree,get_document");
    let refused = fails(data, &["config", "set", "--wiki", "main", "tools=-man"]);
    assert!(refused.contains("cannot be removed"), "{refused}");

    // default alone restores the policy, stored as no list.
    set("default");
    assert_eq!(stored(), "default");
    assert_eq!(served(), defaults);
}

#[test]
fn reach_is_granted_from_the_farm_and_shows_in_the_tool_catalog() {
    let dir = demo_farm();
    let data = dir.path();
    let before = ok(data, &["tools", "--wiki", "dev"]);
    let list_wikis = |catalog: &str| {
        catalog
            .lines()
            .find(|line| line.starts_with("list_wikis"))
            .map(str::to_owned)
            .unwrap_or_default()
    };
    assert!(list_wikis(&before).ends_with("off"), "{before}");
    ok(data, &["farm", "reach", "grant", "dev"]);
    let after = ok(data, &["tools", "--wiki", "dev"]);
    assert!(list_wikis(&after).ends_with("on"), "{after}");
    let shown = ok(data, &["config", "show", "--wiki", "dev"]);
    assert!(shown.contains("cross_wiki_reach = true"), "{shown}");
    ok(data, &["farm", "reach", "revoke", "dev"]);
    assert!(list_wikis(&ok(data, &["tools", "--wiki", "dev"])).ends_with("off"));
}

#[test]
fn users_groups_and_rights_decide_effective_rights() {
    let dir = demo_farm();
    let data = dir.path();
    let effective = |user: &str| {
        ok(
            data,
            &[
                "rights",
                "effective",
                "--user",
                user,
                "--wiki",
                "main",
                "--space",
                "Internal",
            ],
        )
    };
    let view = |text: &str| {
        text.lines()
            .find(|line| line.trim_start().starts_with("view"))
            .map(str::to_owned)
            .unwrap_or_default()
    };
    assert!(view(&effective("alice")).contains("allowed"));
    assert!(view(&effective("guest")).contains("denied"));

    ok(data, &["user", "create", "bob"]);
    ok(data, &["group", "create", "outsiders"]);
    ok(data, &["group", "add", "outsiders", "--user", "bob"]);
    assert!(ok(data, &["group", "list"]).contains("outsiders: bob"));
    ok(
        data,
        &[
            "rights",
            "deny",
            "view",
            "--wiki",
            "main",
            "--space",
            "Internal",
            "--group",
            "outsiders",
        ],
    );
    let bob = effective("bob");
    assert!(
        view(&bob).contains("denied") && view(&bob).contains("deny view to group outsiders"),
        "{bob}"
    );
    let rules = ok(data, &["rights", "list", "--wiki", "main"]);
    assert!(
        rules.contains("deny view to group outsiders on space main:Internal"),
        "{rules}"
    );
    let bad_right = fails(
        data,
        &["rights", "allow", "fly", "--wiki", "main", "--user", "bob"],
    );
    assert!(bad_right.contains("not a right"), "{bad_right}");
}

#[test]
fn trash_lists_and_restores_a_deleted_document() {
    let dir = demo_farm();
    let data = dir.path();
    ok(data, &["wikis", "list"]);
    {
        let store = SqliteStore::open(data).expect("the farm");
        let reference =
            DocumentReference::parse("Sandbox.WebHome", &WikiId::main()).expect("a reference");
        store
            .delete_document(&DocumentDelete {
                reference,
                author: "admin".into(),
                comment: "test".into(),
                expected: Expected::Any,
            })
            .expect("delete");
    }
    let listed = ok(data, &["trash", "list", "--wiki", "main"]);
    let id = listed
        .lines()
        .find(|line| line.contains("Sandbox.WebHome"))
        .and_then(|line| line.split_whitespace().next())
        .unwrap_or_else(|| panic!("no entry in:\n{listed}"))
        .to_owned();
    let restored = ok(data, &["trash", "restore", &id]);
    assert!(
        restored.contains("Restored main:Sandbox.WebHome"),
        "{restored}"
    );
    assert!(!ok(data, &["trash", "list", "--wiki", "main"]).contains("Sandbox.WebHome"));
}

#[test]
fn import_reports_what_it_did_and_is_idempotent() {
    let dir = TempDir::new().expect("a temp dir");
    let source = dir.path().join("docs");
    std::fs::create_dir_all(source.join("guide")).expect("mkdir");
    std::fs::write(
        source.join("guide").join("index.md"),
        "---\ntitle: Guide\n---\nHello\n",
    )
    .expect("write");
    std::fs::write(source.join("guide").join("setup.md"), "Set up\n").expect("write");
    let data = dir.path().join("data");
    ok(&data, &["init"]);
    let source_arg = source.to_str().expect("a UTF-8 path");
    let first = ok(&data, &["import", source_arg, "--wiki", "dev"]);
    assert!(
        first.contains("2 created, 0 updated, 0 unchanged, 0 skipped"),
        "{first}"
    );
    let second = ok(&data, &["import", source_arg, "--wiki", "dev"]);
    assert!(
        second.contains("0 created, 0 updated, 2 unchanged"),
        "{second}"
    );
    // stderr is a pipe here, not a terminal: no progress bar, one final count line instead.
    let piped = wiki_mcp(&data, &["import", source_arg, "--wiki", "dev"]);
    let log = stderr(&piped);
    let counts: Vec<&str> = log
        .lines()
        .filter(|line| line.starts_with("import: "))
        .collect();
    assert_eq!(counts.len(), 1, "{log}");
    assert!(
        counts[0].starts_with("import: 2 of 2 files processed in "),
        "{log}"
    );
    assert!(!log.contains('\u{1b}'), "no terminal drawing: {log:?}");
}

/// A running `serve` process, killed on drop.
struct Served {
    child: Child,
    address: String,
    banner: String,
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn serve(data: &Path) -> Served {
    serve_with(data, &[])
}

/// [`serve`] with more arguments after `serve --listen 127.0.0.1:0`.
fn serve_with(data: &Path, more: &[&str]) -> Served {
    let first_run = !data.join(wiki_store::sqlite::DATABASE_FILE).exists();
    let mut child = Command::new(BINARY)
        .arg("--data")
        .arg(data)
        .args(["serve", "--listen", "127.0.0.1:0"])
        .args(more)
        .env_remove("WIKI_MCP_DATA")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("serve starts");
    let mut lines = BufReader::new(child.stdout.take().expect("stdout"));
    let mut banner = String::new();
    // On a first run the banner ends with the new admin token, else with the client
    // configuration's closing brace.
    loop {
        let mut line = String::new();
        if lines.read_line(&mut line).expect("read the banner") == 0 {
            break;
        }
        banner.push_str(&line);
        if line.starts_with("New farm:") || (!first_run && line == "}\n") {
            break;
        }
    }
    let address = banner
        .lines()
        .next()
        .and_then(|line| line.strip_prefix("wiki-mcp listening on "))
        .unwrap_or_else(|| panic!("no address in:\n{banner}"))
        .to_owned();
    Served {
        child,
        address,
        banner,
    }
}

/// POSTs `tools/list` to a wiki's endpoint over a plain socket; returns the status code.
fn status_of_tools_list(address: &str, wiki: &str, token: Option<&str>) -> u16 {
    status_of_post(
        address,
        wiki,
        token,
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#,
    )
}

/// POSTs `body` to a wiki's endpoint over a plain socket; returns the status code.
fn status_of_post(address: &str, wiki: &str, token: Option<&str>, body: &str) -> u16 {
    let authorization = token
        .map(|token| format!("Authorization: Bearer {token}\r\n"))
        .unwrap_or_default();
    let request = format!(
        "POST /rest/wikis/{wiki}/aiLLM/mcp HTTP/1.1\r\nHost: {address}\r\n\
         Accept: application/json, text/event-stream\r\nContent-Type: application/json\r\n\
         {authorization}Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    let mut stream = TcpStream::connect(address).expect("connect");
    stream.write_all(request.as_bytes()).expect("send");
    let mut response = String::new();
    stream.read_to_string(&mut response).expect("receive");
    response
        .split_whitespace()
        .nth(1)
        .and_then(|code| code.parse().ok())
        .unwrap_or_else(|| panic!("no status in {response:?}"))
}

#[test]
fn serve_prints_how_to_connect_and_applies_admin_commands_without_a_restart() {
    let dir = TempDir::new().expect("a temp dir");
    let data = dir.path();
    let served = serve(data);
    let banner = &served.banner;
    let address = &served.address;
    assert!(
        banner.contains(&format!("http://{address}/rest/wikis/main/aiLLM/mcp")),
        "{banner}"
    );
    assert!(
        banner.contains(&format!("http://{address}/rest/wikis/dev/aiLLM/mcp")),
        "{banner}"
    );
    assert!(banner.contains("\"mcpServers\""), "{banner}");
    let token = banner
        .lines()
        .find_map(|line| line.strip_prefix("New farm: token of `admin` (shown once): "))
        .unwrap_or_else(|| panic!("no first-run token in:\n{banner}"))
        .to_owned();

    assert_eq!(status_of_tools_list(address, "main", Some(&token)), 200);
    assert_eq!(status_of_tools_list(address, "dev", None), 200);

    // Admin commands in other processes, while the server runs: each applies to the server's
    // requests from one commit-marker window after it (`wiki_store::sqlite::MARKER_WINDOW`).
    let admin = |args: &[&str]| {
        ok(data, args);
        std::thread::sleep(wiki_store::sqlite::MARKER_WINDOW);
    };
    admin(&["config", "set", "--wiki", "dev", "enabled=false"]);
    assert_eq!(status_of_tools_list(address, "dev", None), 404);
    admin(&["config", "set", "--wiki", "dev", "enabled=true"]);
    assert_eq!(status_of_tools_list(address, "dev", None), 200);
    let prefix = ok(data, &["token", "list", "--user", "admin"])
        .lines()
        .nth(1)
        .and_then(|line| line.split_whitespace().next())
        .map(str::to_owned)
        .unwrap_or_else(|| panic!("no admin token listed"));
    admin(&["token", "revoke", &prefix]);
    assert_eq!(status_of_tools_list(address, "main", Some(&token)), 401);
}

#[test]
fn a_call_s_audit_line_reaches_the_log_file_while_the_server_runs() {
    let dir = TempDir::new().expect("a temp dir");
    let data = dir.path().join("data");
    let log = dir.path().join("wiki-mcp.log");
    let log_arg = log.to_string_lossy().into_owned();
    let served = serve_with(&data, &["--log-file", &log_arg]);
    let call =
        r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"man","arguments":{}}}"#;
    assert_eq!(status_of_post(&served.address, "dev", None, call), 200);
    // The log writer buffers its writes, and must flush once its queue is empty: the line is
    // in the file while the server still runs, not when it exits.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    loop {
        let written = std::fs::read_to_string(&log).unwrap_or_default();
        if written
            .lines()
            .any(|line| line.contains("MCP tool call") && line.contains("tool=man"))
        {
            break;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "no audit line for the call in the log after 10 s:\n{written}"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    drop(served);
}

/// The admin token's `CREATED` and `LAST USED` columns in `token list`.
fn admin_token_times(data: &Path) -> (String, String) {
    let listed = ok(data, &["token", "list", "--user", "admin"]);
    let header = listed.lines().next().unwrap_or_default();
    let (Some(created), Some(last_used), Some(scope)) = (
        header.find("CREATED"),
        header.find("LAST USED"),
        header.find("SCOPE"),
    ) else {
        panic!("no CREATED, LAST USED and SCOPE columns in:\n{listed}");
    };
    let line = listed
        .lines()
        .nth(1)
        .unwrap_or_else(|| panic!("no admin token listed:\n{listed}"));
    let column =
        |range: std::ops::Range<usize>| line.get(range).unwrap_or_default().trim().to_owned();
    (column(created..last_used), column(last_used..scope))
}

#[test]
fn a_served_request_shows_as_the_token_last_use_once_the_server_stops() {
    let dir = TempDir::new().expect("a temp dir");
    let data = dir.path();
    let mut served = serve(data);
    let token = served
        .banner
        .lines()
        .find_map(|line| line.strip_prefix("New farm: token of `admin` (shown once): "))
        .unwrap_or_else(|| panic!("no first-run token in:\n{}", served.banner))
        .to_owned();
    let (created, never) = admin_token_times(data);
    assert_eq!(never, "never");

    assert_eq!(
        status_of_tools_list(&served.address, "main", Some(&token)),
        200
    );
    assert_eq!(
        admin_token_times(data).1,
        "never",
        "a request writes nothing itself: uses are flushed about once a minute"
    );

    let pid = served.child.id().to_string();
    let signalled = Command::new("kill")
        .args(["-TERM", &pid])
        .status()
        .expect("kill runs");
    assert!(signalled.success());
    let exit = served.child.wait().expect("the server exits");
    assert!(exit.success(), "graceful shutdown: {exit:?}");
    let (_, last_used) = admin_token_times(data);
    // Both print as `YYYY-MM-DD HH:MM:SS…` in UTC: to the second, they compare as text.
    let second = "YYYY-MM-DD HH:MM:SS".len();
    assert!(
        last_used != "never" && last_used.get(..second) >= created.get(..second),
        "the use pending at shutdown is on record, after the creation: {last_used:?} vs {created:?}"
    );
}

#[test]
fn stdio_speaks_mcp_on_stdout_and_nothing_else() {
    let dir = demo_farm();
    let mut child = Command::new(BINARY)
        .arg("--data")
        .arg(dir.path())
        .args(["stdio", "--wiki", "main", "--user", "alice"])
        .env_remove("WIKI_MCP_DATA")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("stdio starts");
    let messages = [
        r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"test","version":"1"}}}"#,
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
        r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"man","arguments":{}}}"#,
    ];
    {
        let mut stdin = child.stdin.take().expect("stdin");
        for message in messages {
            writeln!(stdin, "{message}").expect("write");
        }
    }
    let output = child
        .wait_with_output()
        .expect("stdio ends when stdin closes");
    let out = String::from_utf8_lossy(&output.stdout);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "two responses and nothing else:\n{out}");
    for line in &lines {
        let parsed: Result<serde_json::Value, _> = serde_json::from_str(line);
        assert!(parsed.is_ok(), "not JSON-RPC: {line}");
    }
    assert!(lines[0].contains("\"serverInfo\""), "{}", lines[0]);
    assert!(lines[1].contains("Available tools"), "{}", lines[1]);
}

#[test]
fn stdio_refuses_an_unknown_user() {
    let dir = TempDir::new().expect("a temp dir");
    let error = fails(
        dir.path(),
        &["stdio", "--wiki", "main", "--user", "mallory"],
    );
    assert!(error.contains("unknown user `mallory`"), "{error}");
}

#[test]
fn serve_refuses_incomplete_or_unusable_oidc_settings_before_listening() {
    let dir = TempDir::new().expect("a temp dir");
    let listen = ["serve", "--listen", "127.0.0.1:0"];
    let without_issuer = fails(
        dir.path(),
        &[&listen[..], &["--oidc-audience", "wiki"]].concat(),
    );
    assert!(without_issuer.contains("--oidc-issuer"), "{without_issuer}");
    let without_audience = fails(
        dir.path(),
        &[&listen[..], &["--oidc-issuer", "https://idp.example.com"]].concat(),
    );
    assert!(
        without_audience.contains("--oidc-audience"),
        "{without_audience}"
    );
    let plain_http = fails(
        dir.path(),
        &[
            &listen[..],
            &[
                "--oidc-issuer",
                "http://idp.example.com",
                "--oidc-audience",
                "wiki",
            ],
        ]
        .concat(),
    );
    assert!(
        plain_http.contains("http://idp.example.com"),
        "the refusal names the issuer: {plain_http}"
    );
}

#[test]
fn user_link_binds_an_identity_at_an_issuer_and_unlink_removes_it() {
    let dir = demo_farm();
    let data = dir.path();
    let issuer = "https://id.example.com";
    let link = |user: &'static str, subject: &'static str| {
        [
            "user",
            "link",
            "--user",
            user,
            "--issuer",
            issuer,
            "--subject",
            subject,
        ]
    };
    assert_eq!(
        ok(data, &link("alice", "248289761001")),
        format!("Linked 248289761001 at {issuer} to user alice\n")
    );
    assert!(ok(data, &link("alice", "248289761001")).contains("already"));
    let taken = fails(data, &link("admin", "248289761001"));
    assert!(taken.contains("identity link already exists"), "{taken}");
    let unknown = fails(data, &link("nobody", "x"));
    assert!(unknown.contains("user not found: nobody"), "{unknown}");
    let bad_issuer = fails(
        data,
        &[
            "user",
            "link",
            "--user",
            "alice",
            "--issuer",
            "idp",
            "--subject",
            "x",
        ],
    );
    assert!(
        bad_issuer.contains("`idp` is not an issuer URL"),
        "{bad_issuer}"
    );
    assert_eq!(
        ok(data, &["user", "links"]),
        format!("alice\t{issuer}\t248289761001\n")
    );
    assert_eq!(ok(data, &["user", "links", "--user", "admin"]), "");
    ok(
        data,
        &[
            "user",
            "unlink",
            "--issuer",
            issuer,
            "--subject",
            "248289761001",
        ],
    );
    assert_eq!(ok(data, &["user", "links"]), "");
    let gone = fails(
        data,
        &[
            "user",
            "unlink",
            "--issuer",
            issuer,
            "--subject",
            "248289761001",
        ],
    );
    assert!(gone.contains("is linked to no user"), "{gone}");
}

/// Marks `data`'s farm as one whose users signed in with OIDC tokens by name before identity
/// links existed: what the schema's migration records for a farm that had users.
fn as_an_upgraded_farm(data: &Path) {
    let conn = rusqlite::Connection::open(data.join(wiki_store::sqlite::DATABASE_FILE))
        .expect("the farm's database opens");
    conn.execute(
        "INSERT INTO identity_upgrade (pending, since_ms) VALUES (1, 0)",
        [],
    )
    .expect("the upgrade is pending");
}

#[test]
fn an_upgraded_farm_serves_oidc_only_after_oidc_adopt_and_adopts_no_administrator() {
    let dir = demo_farm();
    let data = dir.path();
    as_an_upgraded_farm(data);
    let issuer = "https://id.example.com";
    let oidc = ["--oidc-issuer", issuer, "--oidc-audience", "wiki"];
    let listen = ["serve", "--listen", "127.0.0.1:0"];
    let refused = fails(data, &[&listen[..], &oidc[..]].concat());
    assert!(
        refused.contains(&format!("wiki-mcp oidc adopt --issuer {issuer}")),
        "the refusal names the command: {refused}"
    );
    // Without an issuer the farm serves as before.
    drop(serve(data));

    let plan = ok(data, &["oidc", "adopt", "--issuer", issuer]);
    assert!(plan.contains("  alice\n"), "{plan}");
    assert!(
        !plan.contains("  admin\n"),
        "administrators are left out: {plan}"
    );
    assert!(plan.contains("Nothing was changed"), "{plan}");
    assert!(fails(data, &[&listen[..], &oidc[..]].concat()).contains("oidc adopt"));

    let done = ok(data, &["oidc", "adopt", "--issuer", issuer, "--yes"]);
    assert!(done.contains("may be claimed by a token of"), "{done}");
    let links = ok(data, &["user", "links"]);
    assert!(
        links.contains(&format!("alice\t{issuer}\t(awaiting adoption until ")),
        "{links}"
    );
    assert!(!links.contains("admin\t"), "{links}");
    let served = serve_with(data, &oidc);
    assert!(
        served.banner.contains("wiki-mcp listening on"),
        "{}",
        served.banner
    );
}

#[test]
fn account_changes_keep_an_administrator_and_are_audited_as_the_command_line() {
    use wiki_store::model::admin::AuditFilter;
    use wiki_store::{AdminStore, UserStore};

    let dir = demo_farm();
    let data = dir.path();
    let refused = fails(data, &["user", "delete", "admin"]);
    assert!(
        refused.contains("cannot delete the user `admin`")
            && refused.contains("would leave the farm without an administrator"),
        "{refused}"
    );
    let removed = fails(
        data,
        &[
            "rights", "remove", "admin", "--wiki", "main", "--user", "admin",
        ],
    );
    assert!(removed.contains("without an administrator"), "{removed}");
    assert_eq!(
        ok(data, &["user", "create", "carol"]),
        "Created user carol\n"
    );

    let store = SqliteStore::open(data).expect("the farm");
    let rows = |command: &str| {
        let filter = AuditFilter {
            tool: Some(command),
            ..AuditFilter::default()
        };
        store.recent_audit(&filter, 10).expect("the audit record")
    };
    let created = rows("user create");
    assert_eq!(created.len(), 1);
    assert_eq!(
        (created[0].user.as_str(), created[0].outcome.as_str()),
        ("command line", "ok")
    );
    let deleted = rows("user delete");
    assert_eq!(deleted.len(), 1);
    assert_eq!(deleted[0].reason.as_deref(), Some("forbidden"));
    assert!(
        store
            .list_users()
            .expect("the users")
            .iter()
            .any(|u| u.name == "admin")
    );
}
