//! What review would nag about, enforced as plain tests (rust-analyzer's `tidy.rs`).
//!
//! - Dependency arrows run one way: `wiki-mcp -> (bundled-tools, semantic-search, wiki-mcp-cli)`,
//!   `wiki-mcp-cli -> wiki-server -> wiki-tool-sdk`, tool crates `-> wiki-tool-sdk -> (mcp-runtime
//!   -> mcp-macros, wiki-store)`; `wiki-store` knows nothing of MCP, `mcp-macros` and
//!   `oidc-verifier` depend on nothing of ours.
//! - The framework stands alone: neither `mcp-runtime` nor the `hello-stdio` example reaches a
//!   wiki crate, even transitively (the resolved graph, from `cargo metadata`).
//! - Every dependency version is pinned once, in the root `[workspace.dependencies]`.
//! - Tool crates depend on the framework and the wiki tool SDK alone: the store, `time`,
//!   serde_json, schemars and inventory come through their re-exports.
//! - No ignored or should-panic tests, no `dbg!`, no printing outside the binary and benches.
//! - One `#[mcp_tool]` per shipped source file: a tool file is named by its id and holds one tool.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

/// The workspace root (this crate lives in `<root>/tests`).
fn workspace_root() -> PathBuf {
    let manifest_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    manifest_dir
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_else(|| manifest_dir.to_path_buf())
}

fn read_toml(path: &Path) -> toml::Table {
    let text = fs::read_to_string(path).unwrap_or_else(|e| panic!("read {}: {e}", path.display()));
    text.parse()
        .unwrap_or_else(|e| panic!("parse {}: {e}", path.display()))
}

/// Member directories as listed in the root manifest.
fn members() -> Vec<String> {
    let root = read_toml(&workspace_root().join("Cargo.toml"));
    root["workspace"]["members"]
        .as_array()
        .expect("workspace.members is an array")
        .iter()
        .map(|m| m.as_str().expect("member is a string").to_owned())
        .collect()
}

/// Our own crates, by package name: the only names the arrow rule is about.
const OUR_CRATES: &[&str] = &[
    "mcp-macros",
    "mcp-runtime",
    "wiki-store",
    "wiki-tool-sdk",
    "wiki-store-testing-macros",
    "wiki-server",
    "bundled-tools",
    "wiki-mcp-cli",
    "wiki-mcp",
    "oidc-verifier",
    "semantic-search",
    "pdf-budget",
    "hello-stdio",
    "custom-server",
];

/// The crates that make a server a wiki server: a crate that must stand without the wiki
/// reaches none of them.
const WIKI_CRATES: &[&str] = &[
    "wiki-store",
    "wiki-tool-sdk",
    "wiki-server",
    "bundled-tools",
    "wiki-mcp-cli",
    "wiki-mcp",
];

/// Crates of wiki tools (members, by directory). They depend, of ours, on `mcp-runtime` and
/// `wiki-tool-sdk` only, and reach what those re-export through them.
const TOOL_CRATES: &[&str] = &["bundled-tools", "examples/custom-server"];

/// What a tool crate reaches only through the framework's or the SDK's re-exports, so it
/// always uses the versions they were built with.
const REEXPORTED: &[&str] = &["wiki-store", "time", "serde_json", "schemars", "inventory"];

/// Which of our crates each member may depend on (normal dependencies). A member missing here is
/// a failure on purpose: a new crate states its place in the arrows when it joins.
fn allowed_arrows() -> BTreeMap<&'static str, &'static [&'static str]> {
    BTreeMap::from([
        ("mcp-macros", &[][..]),
        // `#[backend_test]`, re-exported by the `testing` feature.
        ("wiki-store", &["wiki-store-testing-macros"][..]),
        ("wiki-store-testing-macros", &[][..]),
        // A resource server's view of OIDC: no wiki type, no web framework of ours.
        ("oidc-verifier", &[][..]),
        ("mcp-runtime", &["mcp-macros"][..]),
        // The tool contract: the framework and the store; what it needs of a server is handed
        // in with each call.
        ("wiki-tool-sdk", &["mcp-runtime", "wiki-store"][..]),
        // OIDC bearer tokens are mapped to wiki users in its identity layer.
        (
            "wiki-server",
            &[
                "mcp-runtime",
                "wiki-store",
                "wiki-tool-sdk",
                "oidc-verifier",
            ][..],
        ),
        // pdf-budget: a library with no wiki type, used as any crates.io library is.
        (
            "bundled-tools",
            &["mcp-runtime", "wiki-tool-sdk", "pdf-budget"][..],
        ),
        // The PDF reader of untrusted files: lopdf and pdf-extract under budgets, nothing ours.
        ("pdf-budget", &[][..]),
        // The command line links no tools: a custom binary serves exactly the crates it names.
        // oidc-verifier: `serve --oidc-*` builds the verifier's configuration.
        (
            "wiki-mcp-cli",
            &[
                "wiki-server",
                "wiki-tool-sdk",
                "wiki-store",
                "oidc-verifier",
            ][..],
        ),
        // The stock binary: the command line, the bundled tools and semantic search.
        (
            "wiki-mcp",
            &[
                "wiki-mcp-cli",
                "bundled-tools",
                "semantic-search",
                "wiki-store",
            ][..],
        ),
        // The model, its installer, the chunker, the index, the collections and the two tools:
        // the public framework and SDK APIs and nothing else, as a third-party tool crate
        // would. (Not in TOOL_CRATES: its model and installer parse JSON files of their own
        // with serde_json, which the framework re-exports only for generated code.)
        ("semantic-search", &["mcp-runtime", "wiki-tool-sdk"][..]),
        ("examples/hello-stdio", &["mcp-runtime"][..]),
        // A tool crate as a contributor writes one, plus the command line its binary runs.
        (
            "examples/custom-server",
            &["mcp-runtime", "wiki-tool-sdk", "wiki-mcp-cli"][..],
        ),
        // Test crates may depend on anything.
        ("ui-tests", OUR_CRATES),
        ("tests", OUR_CRATES),
    ])
}

const DEPENDENCY_TABLES: &[&str] = &["dependencies", "dev-dependencies", "build-dependencies"];

#[test]
fn dependency_arrows_run_one_way() {
    let allowed = allowed_arrows();
    let mut violations = Vec::new();
    for member in members() {
        let manifest = read_toml(&workspace_root().join(&member).join("Cargo.toml"));
        let Some(may_use) = allowed.get(member.as_str()) else {
            violations.push(format!(
                "{member}: not in tidy's allowed_arrows(); add it with the crates it may use"
            ));
            continue;
        };
        let deps = manifest.get("dependencies").and_then(|d| d.as_table());
        for name in deps.into_iter().flat_map(|t| t.keys()) {
            if OUR_CRATES.contains(&name.as_str()) && !may_use.contains(&name.as_str()) {
                violations.push(format!("{member} depends on {name}: the arrows forbid it"));
            }
        }
    }
    assert!(violations.is_empty(), "{}", violations.join("\n"));
}

#[test]
fn every_dependency_version_is_pinned_once_in_the_workspace() {
    let mut violations = Vec::new();
    for member in members() {
        let manifest = read_toml(&workspace_root().join(&member).join("Cargo.toml"));
        for table in DEPENDENCY_TABLES {
            let Some(deps) = manifest.get(*table).and_then(|d| d.as_table()) else {
                continue;
            };
            for (name, spec) in deps {
                let inherits = spec
                    .as_table()
                    .and_then(|t| t.get("workspace"))
                    .and_then(|w| w.as_bool())
                    == Some(true);
                // A dev-dependency by path alone (a crate's own features for its tests, or a
                // workspace crate that depends on this one) names no version, so `cargo package`
                // drops it, and it pins nothing.
                let unversioned_path = *table == "dev-dependencies"
                    && spec.as_table().is_some_and(|t| {
                        t.get("path").is_some_and(|p| p.as_str().is_some())
                            && t.get("version").is_none()
                    });
                if !inherits && !unversioned_path {
                    violations.push(format!(
                        "{member} [{table}] {name}: write `{name} = {{ workspace = true }}` and pin \
                         the version in the root [workspace.dependencies]"
                    ));
                }
            }
        }
    }
    assert!(violations.is_empty(), "{}", violations.join("\n"));
}

#[test]
fn tool_crates_depend_on_the_framework_and_the_sdk_alone() {
    let mut violations = Vec::new();
    for member in TOOL_CRATES {
        let manifest = read_toml(&workspace_root().join(member).join("Cargo.toml"));
        let deps = manifest.get("dependencies").and_then(|d| d.as_table());
        for name in deps.into_iter().flat_map(|t| t.keys()) {
            if REEXPORTED.contains(&name.as_str()) {
                violations.push(format!(
                    "{member} depends directly on {name}: use wiki_tool_sdk's prelude and \
                     re-exports (wiki_tool_sdk::store, wiki_tool_sdk::time) or mcp_runtime's \
                     derives"
                ));
            }
        }
    }
    assert!(violations.is_empty(), "{}", violations.join("\n"));
}

/// The resolved dependency graph of the workspace (`cargo metadata`, from the lock file).
struct Graph {
    /// Package id -> name.
    names: BTreeMap<String, String>,
    /// Package id -> (dependency id, whether only as a dev-dependency).
    edges: BTreeMap<String, Vec<(String, bool)>>,
}

impl Graph {
    fn load() -> Self {
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
        let output = Command::new(cargo)
            .args(["metadata", "--format-version", "1", "--locked"])
            .current_dir(workspace_root())
            .output()
            .unwrap_or_else(|error| panic!("run cargo metadata: {error}"));
        assert!(
            output.status.success(),
            "cargo metadata failed: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        let metadata: Value = serde_json::from_slice(&output.stdout)
            .unwrap_or_else(|error| panic!("parse cargo metadata: {error}"));
        let text = |value: &Value| value.as_str().unwrap_or_default().to_owned();
        let names = metadata["packages"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|package| (text(&package["id"]), text(&package["name"])))
            .collect();
        let edges = metadata["resolve"]["nodes"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|node| {
                let deps = node["deps"].as_array().into_iter().flatten().map(|dep| {
                    let kinds = dep["dep_kinds"].as_array().cloned().unwrap_or_default();
                    let dev_only = !kinds.is_empty()
                        && kinds
                            .iter()
                            .all(|kind| kind["kind"].as_str() == Some("dev"));
                    (text(&dep["pkg"]), dev_only)
                });
                (text(&node["id"]), deps.collect())
            })
            .collect();
        Graph { names, edges }
    }

    /// Every package `name` reaches through normal and build dependencies (and, with
    /// `with_dev`, its own dev-dependencies: a test's graph), by name.
    fn reached(&self, name: &str, with_dev: bool) -> BTreeSet<String> {
        let Some(root) = self
            .names
            .iter()
            .find(|(_, n)| *n == name)
            .map(|(id, _)| id)
        else {
            panic!("no package `{name}` in the workspace graph");
        };
        let mut seen = BTreeSet::new();
        let mut stack: Vec<(String, bool)> = self.edges[root]
            .iter()
            .filter(|(_, dev_only)| with_dev || !dev_only)
            .cloned()
            .collect();
        while let Some((id, _)) = stack.pop() {
            if !seen.insert(id.clone()) {
                continue;
            }
            let deps = self.edges.get(&id).into_iter().flatten();
            // Beyond the root, dev-dependencies are not part of a build.
            stack.extend(deps.filter(|(_, dev_only)| !dev_only).cloned());
        }
        seen.into_iter().map(|id| self.names[&id].clone()).collect()
    }
}

#[test]
fn the_framework_and_its_example_reach_no_wiki_crate() {
    let graph = Graph::load();
    let mut violations = Vec::new();
    for (name, with_dev) in [("mcp-runtime", false), ("hello-stdio", true)] {
        let reached = graph.reached(name, with_dev);
        assert!(
            reached.contains("rmcp"),
            "{name}'s graph misses rmcp: the check reads the graph wrong"
        );
        for wiki in WIKI_CRATES {
            if reached.contains(*wiki) {
                violations.push(format!(
                    "{name} reaches {wiki} (directly or through a dependency): the framework must \
                     stand without the wiki"
                ));
            }
        }
    }
    assert!(violations.is_empty(), "{}", violations.join("\n"));
    // The check can fail: the wiki server does reach the store.
    assert!(graph.reached("wiki-server", false).contains("wiki-store"));
}

/// Every `.rs` file of the workspace's members, except build output.
fn rust_files() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let Ok(entries) = fs::read_dir(dir) else {
            return;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            let name = entry.file_name();
            if path.is_dir() {
                if name != "target" && !name.to_string_lossy().starts_with('.') {
                    walk(&path, out);
                }
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }
    let mut files = Vec::new();
    for member in members() {
        walk(&workspace_root().join(member), &mut files);
    }
    files.sort();
    files
}

fn relative(path: &Path) -> String {
    path.strip_prefix(workspace_root())
        .unwrap_or(path)
        .display()
        .to_string()
}

/// The forbidden patterns are assembled so that this file does not match itself.
fn pattern(parts: &[&str]) -> String {
    parts.concat()
}

#[test]
fn no_ignored_or_should_panic_tests_and_no_dbg() {
    let forbidden = [
        (
            pattern(&["#[", "ignore"]),
            "assert the behaviour or delete the test",
        ),
        (pattern(&["#[", "should_panic"]), "assert the Err instead"),
        (pattern(&["dbg", "!("]), "remove the debugging output"),
    ];
    let mut violations = Vec::new();
    for file in rust_files() {
        let Ok(text) = fs::read_to_string(&file) else {
            continue;
        };
        for (needle, fix) in &forbidden {
            if text.contains(needle.as_str()) {
                violations.push(format!("{}: contains `{needle}`: {fix}", relative(&file)));
            }
        }
    }
    assert!(violations.is_empty(), "{}", violations.join("\n"));
}

#[test]
fn only_the_binary_and_benches_print() {
    let print = pattern(&["println", "!("]);
    let mut violations = Vec::new();
    for file in rust_files() {
        let rel = relative(&file);
        let may_print = rel.starts_with("wiki-mcp/")
            || rel.starts_with("wiki-mcp-cli/")
            || rel.contains("/benches/")
            || rel.starts_with("ui-tests/")
            || rel.starts_with("examples/")
            || rel.contains("/examples/");
        if may_print {
            continue;
        }
        let Ok(text) = fs::read_to_string(&file) else {
            continue;
        };
        if text.contains(print.as_str()) {
            violations.push(format!(
                "{rel}: prints to stdout; stdout belongs to the binary and the stdio transport \
                 (use tracing, or return the text)"
            ));
        }
    }
    assert!(violations.is_empty(), "{}", violations.join("\n"));
}

#[test]
fn one_tool_per_file() {
    let attribute = pattern(&["#[", "mcp_tool("]);
    let mut violations = Vec::new();
    for file in rust_files() {
        let rel = relative(&file);
        // The rule is about shipped tools: test fixtures may declare several small tools side by
        // side, and compile-fail cases declare two on purpose (duplicate ids).
        let shipped = rel.contains("/src/") && !rel.starts_with("mcp-macros/");
        if !shipped || rel.starts_with("ui-tests/") {
            continue;
        }
        let Ok(text) = fs::read_to_string(&file) else {
            continue;
        };
        let count = text
            .lines()
            .filter(|line| line.trim_start().starts_with(attribute.as_str()))
            .count();
        if count > 1 {
            violations.push(format!(
                "{rel}: {count} #[mcp_tool] declarations; give each tool its own file named by its id"
            ));
        }
    }
    assert!(violations.is_empty(), "{}", violations.join("\n"));
}
