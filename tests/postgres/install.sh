#!/usr/bin/env bash
# Makes sure PostgreSQL's server binaries are installed and prints their directory.
#
# Uses Debian's `postgresql` package (the supported major version of the release, 15 on bookworm)
# when no server is installed; installing needs root, as in CI. A developer without root installs
# the package once by hand (`sudo apt-get install postgresql`) or points WIKI_MCP_TEST_DATABASE at
# a server of their own.
set -euo pipefail

find_bindir() {
    local dir
    # The newest installed major version first.
    for dir in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -t/ -k4 -n -r); do
        if [ -x "$dir/initdb" ] && [ -x "$dir/pg_ctl" ]; then
            echo "$dir"
            return 0
        fi
    done
    if command -v pg_ctl >/dev/null 2>&1 && command -v initdb >/dev/null 2>&1; then
        dirname "$(command -v pg_ctl)"
        return 0
    fi
    return 1
}

if bindir=$(find_bindir); then
    echo "$bindir"
    exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
    echo "PostgreSQL is not installed and installing it needs root: run" \
         "'sudo apt-get install postgresql', or set WIKI_MCP_TEST_DATABASE to a server's URL" >&2
    exit 1
fi
echo "installing PostgreSQL (Debian's postgresql package)" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >&2
apt-get install -y -qq --no-install-recommends postgresql >&2
# The package starts its own cluster on the default port; the tests use a throwaway one.
if command -v pg_ctlcluster >/dev/null 2>&1; then
    for cluster in $(ls -d /etc/postgresql/*/main 2>/dev/null); do
        version=$(basename "$(dirname "$cluster")")
        pg_ctlcluster "$version" main stop >&2 2>/dev/null || true
    done
fi
find_bindir
