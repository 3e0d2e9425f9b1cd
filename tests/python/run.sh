#!/usr/bin/env bash
# Starts `wiki-mcp serve` on a fresh demo farm and drives it with the official MCP Python SDK
# (check_clients.py: legacy and auto modes, user and guest). Run from the workspace root.
set -euo pipefail

target_dir=${CARGO_TARGET_DIR:-target}
cargo build --locked -p wiki-mcp
venv="$target_dir/python-mcp"
if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv"
fi
"$venv/bin/pip" install --quiet 'mcp>=2,<3'

data=$(mktemp -d)
"$target_dir/debug/wiki-mcp" --data "$data/farm" serve --listen 127.0.0.1:0 \
    >"$data/serve.out" 2>"$data/serve.err" &
server=$!
trap 'kill "$server" 2>/dev/null || true; rm -rf "$data"' EXIT

for _ in $(seq 1 100); do
    grep -q '^New farm:' "$data/serve.out" && break
    sleep 0.1
done
address=$(sed -n 's/^wiki-mcp listening on //p' "$data/serve.out")
token=$(sed -n 's/^New farm: token of `admin` (shown once): //p' "$data/serve.out")
if [ -z "$address" ] || [ -z "$token" ]; then
    echo "the server did not start:" >&2
    cat "$data/serve.out" "$data/serve.err" >&2
    exit 1
fi
"$venv/bin/python" "$(dirname "$0")/check_clients.py" \
    "http://$address/rest/wikis/main/aiLLM/mcp" "$token"
