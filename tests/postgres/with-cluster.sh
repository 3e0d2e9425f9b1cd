#!/usr/bin/env bash
# Runs a command with WIKI_MCP_TEST_DATABASE pointing at a PostgreSQL server, then returns its
# exit status:
#
#   tests/postgres/with-cluster.sh cargo test --workspace --locked
#
# When WIKI_MCP_TEST_DATABASE is already set (a server of your own), the command just runs.
# Otherwise this installs PostgreSQL if it is missing (tests/postgres/install.sh), creates a
# throwaway cluster in a temporary directory, starts it on a free loopback port as an
# unprivileged user (the `postgres` system user when run as root, as in CI; yourself otherwise),
# runs the command with the variable set, and stops and deletes the cluster however the command
# ends. The cluster trusts local connections and skips fsync: it exists for one test run.
# WIKI_MCP_PG_SHARED_BUFFERS sets its shared_buffers (default 128MB, PostgreSQL's own default).
set -euo pipefail

if [ "$#" -eq 0 ]; then
    echo "usage: $0 <command> [args...]" >&2
    exit 2
fi

if [ -n "${WIKI_MCP_TEST_DATABASE:-}" ]; then
    exec "$@"
fi

here=$(cd "$(dirname "$0")" && pwd)
bindir=$("$here/install.sh")

as_owner=()
owner=$(id -un)
if [ "$(id -u)" -eq 0 ]; then
    # PostgreSQL refuses to run as root.
    owner=postgres
    if ! id "$owner" >/dev/null 2>&1; then
        useradd --system --no-create-home --shell /usr/sbin/nologin "$owner"
    fi
    as_owner=(runuser -u "$owner" --)
fi

cluster=$(mktemp -d "${TMPDIR:-/tmp}/wiki-mcp-pg.XXXXXX")
chmod 0755 "$cluster"
mkdir "$cluster/data" "$cluster/socket"
if [ "$(id -u)" -eq 0 ]; then
    chown -R "$owner" "$cluster"
fi

stop_cluster() {
    "${as_owner[@]}" "$bindir/pg_ctl" -D "$cluster/data" -m immediate -w stop >/dev/null 2>&1 || true
    rm -rf "$cluster"
}
trap stop_cluster EXIT

"${as_owner[@]}" "$bindir/initdb" -D "$cluster/data" --username=wiki_test --auth=trust \
    --encoding=UTF8 --locale=C.UTF-8 >"$cluster/initdb.log" 2>&1 || {
    cat "$cluster/initdb.log" >&2
    exit 1
}

# The tests need little memory; a bench of the 100k-page corpus (463 MB with its indexes) wants
# it cached by the server, as a tuned production server would, not re-read through the kernel.
shared_buffers=${WIKI_MCP_PG_SHARED_BUFFERS:-128MB}

# A free loopback port: try a few, since another run may take one between the check and start.
started=""
for attempt in 1 2 3 4 5 6 7 8 9 10; do
    port=$(( 20000 + (RANDOM * 32768 + RANDOM) % 40000 ))
    if "${as_owner[@]}" "$bindir/pg_ctl" -D "$cluster/data" -l "$cluster/server.log" -w -t 30 \
        -o "-c listen_addresses=127.0.0.1 -c port=$port -c unix_socket_directories=$cluster/socket \
            -c fsync=off -c synchronous_commit=off -c full_page_writes=off \
            -c max_connections=300 -c shared_buffers=$shared_buffers" \
        start >/dev/null 2>&1; then
        started=yes
        break
    fi
done
if [ -z "$started" ]; then
    echo "could not start a PostgreSQL cluster; its log:" >&2
    cat "$cluster/server.log" >&2 || true
    exit 1
fi

export WIKI_MCP_TEST_DATABASE="postgres://wiki_test@127.0.0.1:$port/postgres"
echo "PostgreSQL $("$bindir/postgres" --version | awk '{print $3}') test cluster on 127.0.0.1:$port" >&2
status=0
"$@" || status=$?
exit "$status"
