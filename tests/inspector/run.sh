#!/usr/bin/env bash
# Starts `wiki-mcp serve` on a fresh demo farm and drives it over streamable HTTP with the MCP
# Inspector CLI (`mcp-inspector --cli`), as the admin (bearer token) and as the guest (no header).
# Every tools/list runs in the CLI's strict schema mode (`--strict`): each advertised input schema
# is linted for portability across clients, and any finding, error or warning, fails the check.
# The Inspector is pinned by package.json and package-lock.json here and runs on the Node.js
# pinned by tests/node (it needs Node 22 or newer). Needs npm. Run from the workspace root.
set -euo pipefail

here=$(dirname "$0")
# shellcheck source=tests/serve-demo.sh
source "$here/../serve-demo.sh"
# shellcheck source=tests/node/install.sh
source "$here/../node/install.sh"

install_locked "$here" "$target_dir/mcp-inspector"
inspector="$(cd "$target_dir/mcp-inspector" && pwd)/node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js"
endpoint="http://$address/rest/wikis/main/aiLLM/mcp"
# The CLI keeps a catalog of servers (default ~/.mcp-inspector/mcp.json): keep it in the run's
# own directory, not in the home of whoever runs the check.
export MCP_CATALOG_PATH="$data/inspector-catalog.json"

# inspect WHO ARGS...: runs the Inspector CLI as WHO (admin or guest) with the method ARGS; its
# stdout goes to "$data/out", its stderr to "$data/err", its status to $status.
inspect() {
    local who=$1
    shift
    last=("$node" "$inspector" --cli "$endpoint" --transport http --method "$@")
    if [ "$1" = tools/list ]; then
        last+=(--strict)
    fi
    if [ "$who" = admin ]; then
        last+=(--header "Authorization: Bearer $token")
    fi
    status=0
    "${last[@]}" >"$data/out" 2>"$data/err" || status=$?
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

# expect WHAT EXPRESSION: the last call printed JSON for which the JavaScript EXPRESSION is true;
# it sees `r` (the parsed result), `names` (tools/list: the tool names) and `text` (tools/call:
# the text content, joined). The CLI must have exited 0, or 5 for a tool error result
# (`isError: true`), and a tools/list must have drawn no schema finding from --strict (which
# prints them on stderr, ending with a count "N errors, M warnings across K tools.").
expect() {
    local what=$1 expression=$2
    local wanted=0
    if "$node" -e 'process.exit(JSON.parse(require("fs").readFileSync(0, "utf8")).isError === true ? 0 : 1)' \
        <"$data/out" 2>/dev/null; then
        wanted=5
    fi
    [ "$status" -eq "$wanted" ] || fail "$what (the CLI exited $status, expected $wanted)"
    if grep -q ' across [0-9]* tools\?\.$' "$data/err"; then
        fail "$what (--strict reported schema portability findings)"
    fi
    "$node" -e '
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

# Enable every tool of the catalog on the running farm: the strict lint then covers every
# schema the server can advertise, and the guest has write tools to be denied.
catalog=$("$wiki_mcp" --data "$data/farm" tools | awk 'NR > 1 { print $1 }' | paste -sd, -)
"$wiki_mcp" --data "$data/farm" config set --wiki main "tools=$catalog" >/dev/null
inspect admin tools/list
expect "admin tools/list has all $(tr , '\n' <<<"$catalog" | wc -l) catalog tools once enabled" \
    "names.slice().sort().join() === \"$catalog\".split(\",\").sort().join()"
expect "admin tools/list has write_document, not read-only" \
    'r.tools.some((t) => t.name === "write_document" && t.annotations.readOnlyHint === false)'
inspect guest tools/list
expect "guest tools/list has man and no write tool" \
    'names.includes("man") && !names.includes("write_document")
     && r.tools.every((t) => t.annotations && t.annotations.readOnlyHint === true)'
# The CLI looks a tool up in the caller's listing before calling it, so the guest's call of a
# write tool stops there: the listing hides it. (The server's own refusal of a guest who calls
# one anyway is pinned by mcp-runtime/tests/server/calls.rs.)
inspect guest tools/call --tool-name write_document --tool-arg reference=Sandbox.Guest content=hi
if [ "$status" -eq 0 ] || ! grep -q '"code":"tool_not_found"' "$data/err"; then
    fail "guest write_document is not found in the guest's listing"
fi
echo "ok: guest write_document is not found in the guest's listing"
