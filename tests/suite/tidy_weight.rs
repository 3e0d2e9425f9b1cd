//! What each audience compiles, from the build `cargo tree` resolves for one package alone
//! (features as a build of that package chooses them, not the whole workspace's union):
//!
//! - a tool crate (the SDK itself, the bundled tools) compiles no HTTP server, TLS or token
//!   library, and no rmcp feature beyond the framework's own: transports are the server's;
//! - a custom server (`examples/custom-server`: its tools and the command line) compiles no
//!   embedding model and no stock tool: those are the stock binary's.
//!
//! The arrows in `tidy.rs` say which of our crates may depend on which; these say what the
//! arrows buy, so a new dependency that drags a server stack into a tool crate fails here.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::process::Command;

/// Crates a tool author's build must not compile (the HTTP server, TLS, JWT).
const SERVER_STACK: &[&str] = &["axum", "hyper", "rustls", "jsonwebtoken"];

/// Crates a custom server's build must not compile (semantic search's model, the stock tools).
const STOCK_ONLY: &[&str] = &[
    "candle-core",
    "candle-nn",
    "candle-transformers",
    "tokenizers",
    "bundled-tools",
    "semantic-search",
];

/// Tool crates whose builds carry nothing of a server. (semantic-search is a tool crate too,
/// but its model installer downloads over TLS.)
const LIGHT_TOOL_CRATES: &[&str] = &["wiki-tool-sdk", "bundled-tools"];

/// The packages `package`'s normal build compiles, by name, with the features enabled on each
/// (`cargo tree`, offline and from the lock file: the build already fetched everything).
fn normal_build(package: &str) -> BTreeMap<String, BTreeSet<String>> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")));
    let output = Command::new(cargo)
        .args(["tree", "--frozen", "--edges", "normal", "--prefix", "none"])
        .args(["--format", "{p}|{f}", "--package", package])
        .current_dir(root)
        .output()
        .unwrap_or_else(|error| panic!("run cargo tree: {error}"));
    assert!(
        output.status.success(),
        "cargo tree -p {package} failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let mut packages: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for line in String::from_utf8_lossy(&output.stdout).lines() {
        // `name v1.2.3 (path)|feature,feature`, and ` (*)` after a package already shown.
        let line = line.trim_end_matches(" (*)");
        let (package, features) = line.split_once('|').unwrap_or((line, ""));
        let Some(name) = package.split_whitespace().next() else {
            continue;
        };
        packages.entry(name.to_owned()).or_default().extend(
            features
                .split(',')
                .filter(|f| !f.is_empty())
                .map(str::to_owned),
        );
    }
    assert!(
        packages.contains_key(package),
        "cargo tree -p {package} did not list {package}: the check reads the tree wrong"
    );
    packages
}

/// The rmcp features `build` enables.
fn rmcp_features(build: &BTreeMap<String, BTreeSet<String>>) -> BTreeSet<String> {
    build.get("rmcp").cloned().unwrap_or_default()
}

#[test]
fn tool_crates_compile_no_server_stack() {
    let framework = rmcp_features(&normal_build("mcp-runtime"));
    let mut violations = Vec::new();
    for crate_name in LIGHT_TOOL_CRATES {
        let build = normal_build(crate_name);
        for heavy in SERVER_STACK {
            if build.contains_key(*heavy) {
                violations.push(format!(
                    "{crate_name} compiles {heavy}: a tool crate's build holds no server stack; \
                     find what pulls it in with `cargo tree -p {crate_name} -i {heavy}`"
                ));
            }
        }
        let extra: Vec<_> = rmcp_features(&build)
            .difference(&framework)
            .cloned()
            .collect();
        if !extra.is_empty() {
            violations.push(format!(
                "{crate_name} enables rmcp features {extra:?} beyond the framework's own \
                 {framework:?}: transports belong to the server"
            ));
        }
    }
    assert!(violations.is_empty(), "{}", violations.join("\n"));
    // The check can fail: the server does compile them.
    let server = normal_build("wiki-server");
    assert!(server.contains_key("axum"));
    assert!(!rmcp_features(&server).is_subset(&framework));
}

#[test]
fn a_custom_server_compiles_no_stock_tools_or_model() {
    let build = normal_build("custom-server");
    let violations: Vec<_> = STOCK_ONLY
        .iter()
        .filter(|heavy| build.contains_key(**heavy))
        .map(|heavy| {
            format!(
                "examples/custom-server compiles {heavy}: only the stock binary links the \
                 bundled tools and semantic search; find what pulls it in with `cargo tree -p \
                 custom-server -i {heavy}`"
            )
        })
        .collect();
    assert!(violations.is_empty(), "{}", violations.join("\n"));
    // The check can fail: the stock binary does compile them.
    let stock = normal_build("wiki-mcp");
    assert!(STOCK_ONLY.iter().all(|heavy| stock.contains_key(*heavy)));
}
