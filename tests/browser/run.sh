#!/usr/bin/env bash
# The admin page in a real browser: Debian's Chromium (tests/browser/install.sh) driven by
# playwright-core (pinned by package.json and package-lock.json here) against a real
# `wiki-mcp serve` on a fresh demo farm. check.mjs signs in, turns a write tool on and finds it
# in tools/list over MCP, creates and revokes a token and sees it refused, is refused at
# sign-in with a non-admin token, and has a forged form post refused; screenshots of every
# page land in target/admin-screenshots/. Prints "skipped" and succeeds when Chromium cannot
# be installed. Run from the workspace root.
set -euo pipefail

here=$(dirname "$0")
if ! chromium=$("$here/install.sh"); then
    echo "browser check skipped: Chromium is not available (see above)"
    exit 0
fi
serve_args=(--rate-limit 0)
# shellcheck source=tests/serve-demo.sh
source "$here/../serve-demo.sh"
# shellcheck source=tests/node/install.sh
source "$here/../node/install.sh"

install_locked "$here" "$target_dir/browser-check"
alice=$("$wiki_mcp" --data "$data/farm" token create --user alice --label browser)
shots="$target_dir/admin-screenshots"
mkdir -p "$shots"

BASE="http://$address" ADMIN_TOKEN="$token" USER_TOKEN="$alice" CHROMIUM="$chromium" \
    SCREENSHOTS="$(cd "$shots" && pwd)" \
    MODULES="$(cd "$target_dir/browser-check" && pwd)/node_modules" \
    "$node" "$here/check.mjs"
