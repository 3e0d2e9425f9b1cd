# Sourced (not run) by the client checks (run.sh in tests/python, tests/inspector and
# tests/conformance) from the workspace root: builds `wiki-mcp`, starts `wiki-mcp serve` on a
# fresh demo farm on a free loopback port (with the options in the array `serve_args`, if the
# caller set one), and sets
#   target_dir  the cargo target directory ($CARGO_TARGET_DIR, else target)
#   wiki_mcp    the binary, for admin commands on the farm while it is served
#   data        a temporary directory holding the farm ("$data/farm"), removed on exit
#   address     the address the server bound (host:port)
#   token       the `admin` token the first run prints
# An EXIT trap stops the server and removes "$data".
# shellcheck shell=bash disable=SC2034

target_dir=${CARGO_TARGET_DIR:-target}
# With WIKI_MCP_SKIP_BUILD=1 the binary is taken as built: `.ci/test` sets it once its test build
# (`cargo test --workspace --no-run`, which makes target/debug/wiki-mcp for the Rust tests) is done,
# since `cargo build -p wiki-mcp` resolves the features of one package, not the workspace's, and
# would compile a dozen crates again to make the same program.
[ -n "${WIKI_MCP_SKIP_BUILD:-}" ] || cargo build --locked -p wiki-mcp
wiki_mcp="$target_dir/debug/wiki-mcp"

data=$(mktemp -d)
# shellcheck disable=SC2154 # serve_args is the caller's, if it set one
"$wiki_mcp" --data "$data/farm" serve --listen 127.0.0.1:0 ${serve_args[@]+"${serve_args[@]}"} \
    >"$data/serve.out" 2>"$data/serve.err" &
server=$!
# Stops the server and removes its farm; on failure, first prints the server's own log, which
# says what it saw of the failing call and would otherwise go with the farm.
stop_demo_server() {
    local status=$?
    kill "$server" 2>/dev/null || true
    if [ "$status" -ne 0 ] && [ -s "$data/serve.err" ]; then
        echo "== the server's log (last 100 lines)" >&2
        tail -n 100 "$data/serve.err" >&2
    fi
    rm -rf "$data"
}
trap stop_demo_server EXIT

for _ in $(seq 1 100); do
    grep -q '^New farm:' "$data/serve.out" && break
    sleep 0.1
done
address=$(sed -n 's/^wiki-mcp listening on //p' "$data/serve.out")
# shellcheck disable=SC2016 # the backticks are literal
token=$(sed -n 's/^New farm: token of `admin` (shown once): //p' "$data/serve.out")
if [ -z "$address" ] || [ -z "$token" ]; then
    echo "the server did not start:" >&2
    cat "$data/serve.out" "$data/serve.err" >&2
    exit 1
fi
