#!/usr/bin/env bash
# Starts `wiki-mcp serve` on a fresh demo farm and drives it over streamable HTTP with the MCP
# Inspector CLI (`mcp-inspector --cli`), as the admin (bearer token) and as the guest (no header).
# The Inspector is pinned by package.json and package-lock.json here and installed with `npm ci`
# under the target directory, once per lock file. Needs node and npm. Run from the workspace root.
set -euo pipefail

here=$(dirname "$0")
for tool in node npm; do
    if ! command -v "$tool" >/dev/null; then
        echo "tests/inspector/run.sh needs Node.js with npm on PATH ($tool not found):" \
            "the MCP Inspector CLI runs on node" >&2
        exit 1
    fi
done

# shellcheck source=tests/serve-demo.sh
source "$here/../serve-demo.sh"

# The Inspector, installed exactly as locked; `installed.lock` records a finished install.
install="$target_dir/mcp-inspector"
if ! cmp -s "$here/package-lock.json" "$install/installed.lock" 2>/dev/null; then
    rm -rf "$install"
    mkdir -p "$install"
    cp "$here/package.json" "$here/package-lock.json" "$install/"
    # The package declares node >=22.7.5 but its CLI runs on node 20: do not let an
    # engine-strict npmrc turn that warning into a failure.
    (cd "$install" && npm ci --no-audit --no-fund --engine-strict=false --loglevel=error)
    cp "$here/package-lock.json" "$install/installed.lock"
fi
inspector="$(cd "$install" && pwd)/node_modules/.bin/mcp-inspector"
endpoint="http://$address/rest/wikis/main/aiLLM/mcp"
# The CLI (0.17.5) reads its own package.json as "../package.json" if that exists relative to the
# working directory, else "../../package.json" relative to itself: run it where "../package.json"
# does not exist, or it fails with "Cannot find module .../inspector/cli/package.json".
mkdir "$data/cwd"

# inspect WHO ARGS...: runs the Inspector CLI as WHO (admin or guest) with the method ARGS; its
# stdout goes to "$data/out", its stderr to "$data/err", its status to $status.
inspect() {
    local who=$1
    shift
    last=("$inspector" --cli "$endpoint" --transport http --method "$@")
    if [ "$who" = admin ]; then
        last+=(--header "Authorization: Bearer $token")
    fi
    status=0
    (cd "$data/cwd" && "${last[@]}") >"$data/out" 2>"$data/err" || status=$?
}

fail() {
    echo "FAIL: $1" >&2
    local shown
    shown=$(printf ' %q' "${last[@]}")
    echo "command:${shown//$token/<token>}" >&2
    echo "exit status: $status" >&2
    echo "--- stdout" >&2
    cat "$data/out" >&2
    echo "--- stderr" >&2
    cat "$data/err" >&2
    echo "--- server stderr (tail)" >&2
    tail -n 20 "$data/serve.err" >&2
    exit 1
}

# expect WHAT EXPRESSION: the last call exited 0 and printed JSON for which the JavaScript
# EXPRESSION is true; it sees `r` (the parsed result), `names` (tools/list: the tool names) and
# `text` (tools/call: the text content, joined).
expect() {
    local what=$1 expression=$2
    [ "$status" -eq 0 ] || fail "$what (the CLI failed)"
    node -e '
        const r = JSON.parse(require("fs").readFileSync(0, "utf8"));
        const names = (r.tools || []).map((tool) => tool.name);
        const text = (r.content || []).filter((c) => c.type === "text").map((c) => c.text).join("\n");
        process.exit(new Function("r", "names", "text", "return (" + process.argv[1] + ");")(r, names, text) ? 0 : 1);
    ' "$expression" <"$data/out" || fail "$what"
    echo "ok: $what"
}

# Write tools are off by default: the lists hold only read-only tools.
inspect admin tools/list
expect "admin tools/list has man, get_document, query_documents" \
    '["man", "get_document", "query_documents"].every((n) => names.includes(n))'
expect "admin tools/list: every tool is read-only by default" \
    'r.tools.every((t) => t.annotations && t.annotations.readOnlyHint === true)'

inspect admin tools/call --tool-name man
expect "admin man (no arguments) returns the catalog" \
    '!r.isError && text.startsWith("Available tools")
     && ["get_document - Read a document", "query_documents - Search", "markdown-syntax"]
        .every((w) => text.includes(w))'

inspect admin tools/call --tool-name get_document --tool-arg reference=Guides.Install
# shellcheck disable=SC2016 # the backticks are the page's Markdown
expect "admin get_document Guides.Install returns the page" \
    '!r.isError && text.includes("Title: Installing")
     && text.includes("Build with `cargo build --release`, then run `wiki-mcp serve`.")'

inspect admin tools/call --tool-name man --tool-arg nonsense=1
expect "admin man with an unknown argument is a tool error naming it" \
    'r.isError === true && text.includes("nonsense")'

inspect admin tools/call --tool-name get_document --tool-arg reference=Guides.Missing
expect "admin get_document on a missing page is a tool error" 'r.isError === true'

# The header is what makes the admin: the guest cannot read the Internal space.
inspect admin tools/call --tool-name get_document --tool-arg reference=Internal.Roadmap
expect "admin reads Internal.Roadmap" '!r.isError && text.includes("# Roadmap")'
inspect guest tools/call --tool-name get_document --tool-arg reference=Internal.Roadmap
expect "guest is refused Internal.Roadmap" 'r.isError === true && text.includes("permission")'
inspect guest tools/call --tool-name query_documents --tool-arg query=Roadmap
expect "guest query_documents does not find Internal.Roadmap" \
    '!r.isError && !text.includes("Internal.Roadmap")'
inspect admin tools/call --tool-name query_documents --tool-arg query=Roadmap
expect "admin query_documents finds Internal.Roadmap" \
    '!r.isError && text.includes("Internal.Roadmap")'

# Enable a write tool on the running farm, so the guest has one to be denied.
served=$("$wiki_mcp" --data "$data/farm" config show --wiki main | sed -n 's/^served_tools = //p')
"$wiki_mcp" --data "$data/farm" config set --wiki main "tools=$served,write_document" >/dev/null
inspect admin tools/list
expect "admin tools/list has write_document once enabled, not read-only" \
    'r.tools.some((t) => t.name === "write_document" && t.annotations.readOnlyHint === false)'
inspect guest tools/list
expect "guest tools/list has man and no write tool" \
    'names.includes("man") && !names.includes("write_document")
     && r.tools.every((t) => t.annotations && t.annotations.readOnlyHint === true)'
inspect guest tools/call --tool-name write_document --tool-arg reference=Sandbox.Guest content=hi
if [ "$status" -eq 0 ] || ! grep -q "guests cannot" "$data/err"; then
    fail "guest write_document is refused"
fi
echo "ok: guest write_document is refused ($(grep -o 'MCP error -\?[0-9]*' "$data/err" | head -n 1))"
