#!/usr/bin/env bash
# The admin page in a real browser: Debian's Chromium (tests/browser/install.sh) driven by
# playwright-core (pinned by package.json and package-lock.json here) against a real
# `wiki-mcp serve` on a fresh demo farm. check.mjs signs in, turns a write tool on and finds it
# in tools/list over MCP, creates and revokes a token and sees it refused, is refused at
# sign-in with a non-admin token, has a forged form post refused, creates a user, a group and a
# rule and undoes them (the last administrator's deletion refused, the changes in the audit
# view), pages the audit view and
# filters it by time, checks that every page fits a phone-sized screen, and signs in at an OIDC
# issuer (a non-admin refused, the admin let in); screenshots of every
# page land in target/admin-screenshots/. Prints "skipped" and succeeds when Chromium cannot
# be installed. Run from the workspace root.
set -euo pipefail

here=$(dirname "$0")
if ! chromium=$("$here/install.sh"); then
    echo "browser check skipped: Chromium is not available (see above)"
    exit 0
fi
# The identity provider: oidc-verifier's test issuer, whose sign-in page asks for a user name.
# It accepts the admin page's callback on any loopback port (RFC 8252 §7.3), so it starts first
# and the server is told where it is.
# The workspace's test build makes it too (WIKI_MCP_SKIP_BUILD: see tests/serve-demo.sh).
[ -n "${WIKI_MCP_SKIP_BUILD:-}" ] ||
    cargo build --locked -p oidc-verifier --features testing --example test_issuer
issuer_out=$(mktemp)
"${CARGO_TARGET_DIR:-target}/debug/examples/test_issuer" wiki-mcp-admin \
    http://127.0.0.1/admin/oidc/callback >"$issuer_out" &
issuer_pid=$!
trap 'kill "$issuer_pid" 2>/dev/null || true; rm -f "$issuer_out"' EXIT
for _ in $(seq 1 100); do
    grep -q '^issuer ' "$issuer_out" && break
    sleep 0.1
done
issuer=$(sed -n 's/^issuer //p' "$issuer_out")
if [ -z "$issuer" ]; then
    echo "the test issuer did not start" >&2
    exit 1
fi
serve_args=(--rate-limit 0 --oidc-issuer "$issuer" --oidc-audience wiki-mcp
    --oidc-client-id wiki-mcp-admin)
# shellcheck source=tests/serve-demo.sh
source "$here/../serve-demo.sh"
# serve-demo.sh's trap replaced ours: stop both.
# shellcheck disable=SC2154 # server and data are serve-demo.sh's
trap 'kill "$server" "$issuer_pid" 2>/dev/null || true; rm -rf "$data" "$issuer_out"' EXIT
# shellcheck source=tests/node/install.sh
source "$here/../node/install.sh"

install_locked "$here" "$target_dir/browser-check"
alice=$("$wiki_mcp" --data "$data/farm" token create --user alice --label browser)
# The test issuer's subjects are the names it signs in: link alice's and admin's identities
# there to the wiki users, as an administrator would (an unlinked identity signs in as nobody).
for user in alice admin; do
    "$wiki_mcp" --data "$data/farm" user link --user "$user" --issuer "$issuer" --subject "$user" >/dev/null
done
shots="$target_dir/admin-screenshots"
mkdir -p "$shots"

BASE="http://$address" ADMIN_TOKEN="$token" USER_TOKEN="$alice" CHROMIUM="$chromium" \
    SCREENSHOTS="$(cd "$shots" && pwd)" \
    MODULES="$(cd "$target_dir/browser-check" && pwd)/node_modules" \
    "$node" "$here/check.mjs"
