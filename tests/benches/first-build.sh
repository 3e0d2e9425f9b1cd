#!/usr/bin/env bash
# What a first build costs each audience, before and after a change, measured in one run:
# for each commit, a clean debug build (own target dir, dependencies already downloaded) of
#   - what a tool crate compiles besides its own code (the crate tools are written against), and
#   - examples/custom-server (a server of one's own tools and the command line),
# reporting the crates compiled, wall seconds and CPU seconds (user + system). Wall time depends
# on the machine's other load; CPU seconds much less, so compare those when the machine is busy.
#
# Usage: tests/benches/first-build.sh [BEFORE [AFTER]]
#   BEFORE defaults to the last commit before the tool SDK was split out of the server, where a
#   tool crate depended on wiki-server; AFTER defaults to HEAD, where it depends on wiki-tool-sdk.
set -euo pipefail

root=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
before=${1:-36466f0^}
after=${2:-HEAD}
scratch=$(mktemp -d)
trap 'git -C "$root" worktree prune; rm -rf "$scratch"' EXIT

# The crate a tool crate depends on at a commit: the SDK once it exists, else the server.
tool_facing() {
    if [ -f "$1/wiki-tool-sdk/Cargo.toml" ]; then echo wiki-tool-sdk; else echo wiki-server; fi
}

# Builds one package from clean in its own target dir; prints "crates wall cpu".
measure() {
    local checkout=$1 package=$2 target=$scratch/target-$RANDOM
    local log=$scratch/build.log times=$scratch/times
    (cd "$checkout" && CARGO_TARGET_DIR=$target CARGO_INCREMENTAL=0 \
        /usr/bin/time -f "%e %U %S" -o "$times" \
        cargo build --locked -p "$package" >"$log" 2>&1) || { tail -20 "$log" >&2; exit 1; }
    local crates
    crates=$(grep -c '^ *Compiling ' "$log" || true)
    read -r wall user sys <"$times"
    rm -rf "$target"
    awk -v c="$crates" -v w="$wall" -v u="$user" -v s="$sys" \
        'BEGIN { printf "%d %.0f %.0f\n", c, w, u + s }'
}

printf '%-10s %-14s %-16s %7s %7s %7s\n' commit audience package crates wall_s cpu_s
for rev in "$before" "$after"; do
    checkout=$scratch/$(git -C "$root" rev-parse --short "$rev")
    git -C "$root" worktree add --quiet --detach "$checkout" "$rev"
    short=$(git -C "$root" rev-parse --short "$rev")
    tool=$(tool_facing "$checkout")
    read -r crates wall cpu < <(measure "$checkout" "$tool")
    printf '%-10s %-14s %-16s %7s %7s %7s\n' "$short" "tool crate" "$tool" "$crates" "$wall" "$cpu"
    read -r crates wall cpu < <(measure "$checkout" custom-server)
    printf '%-10s %-14s %-16s %7s %7s %7s\n' "$short" "custom server" custom-server "$crates" "$wall" "$cpu"
    git -C "$root" worktree remove --force "$checkout"
done
