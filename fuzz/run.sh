#!/usr/bin/env bash
# Usage: fuzz/run.sh [--dev] [SECONDS] [TARGET...]
#
# Builds the fuzz targets (fuzz_targets/, listed by `cargo fuzz list`) and runs each for SECONDS
# (default 20) with libFuzzer, one target per core at a time (FUZZ_JOBS sets another count),
# starting from the committed corpus (corpus/TARGET/, read only) with its dictionary
# (dict/TARGET.dict). The test command runs it for 20 s a target; run it for
# longer by hand, e.g. `fuzz/run.sh 600 search_text`. `--dev` builds without optimizations, as the
# test command does: less than half the CPU time to build, and in 20 s a target still replays its
# whole corpus and tries new inputs, several times fewer of them; a search for new failures is
# worth the optimized build and minutes a target. Inputs found to reach new code are kept under
# the target directory (target/fuzz/corpus/TARGET); to fold them into the committed corpus,
# minimized: `cd fuzz && cargo fuzz cmin -s none TARGET corpus/TARGET ../target/fuzz/corpus/TARGET`
# (fold the scratch directory into corpus/TARGET first).
#
# How it runs on the stable toolchain: cargo-fuzz 0.13 (installed here if missing) builds with
# `-s none`. Its default, AddressSanitizer, needs the nightly-only `-Zsanitizer`; every other flag
# it passes (SanitizerCoverage through `-Cpasses=sancov-module` and `-Cllvm-args`, `--cfg
# fuzzing`, debug assertions and overflow checks) is stable. The code under test forbids
# `unsafe`, so what ASan adds (memory errors in unsafe code) is not what these targets look for:
# they check properties, which fail as panics that libFuzzer reports as crashes.
#
# A crash stops the run, leaves the input under target/fuzz/artifacts/TARGET/ and fails the
# script. Reproduce it with `cd fuzz && cargo fuzz run -s none TARGET <that file>`, then add the
# input as a regression #[test] in the crate that owns the code, beside the fix.
set -euo pipefail

cd "$(dirname "$0")"
# 16 codegen units for the optimized build: cargo-fuzz defaults to 1 for every crate, which made
# this build the longest step of the test command; the targets run a little slower, well within
# 20 s a target. The unoptimized build keeps the dev profile's many units.
profile=(--codegen-units 16)
if [ "${1:-}" = --dev ]; then
    profile=(--dev)
    shift
fi
seconds=${1:-20}
shift || true
if ! [[ "$seconds" =~ ^[1-9][0-9]*$ ]]; then
    echo "usage: fuzz/run.sh [--dev] [SECONDS] [TARGET...] (SECONDS a positive whole number)" >&2
    exit 2
fi

cargo_fuzz_version=0.13.2
if [ "$(cargo fuzz --version 2>/dev/null)" != "cargo-fuzz $cargo_fuzz_version" ]; then
    echo "== installing cargo-fuzz $cargo_fuzz_version"
    cargo install --locked --quiet cargo-fuzz --version "$cargo_fuzz_version"
fi

target_dir="$(mkdir -p "${CARGO_TARGET_DIR:-../target}" && cd "${CARGO_TARGET_DIR:-../target}" && pwd)/fuzz"
build_flags=(-s none "${profile[@]}" --target-dir "$target_dir")
fuzz=(cargo fuzz run "${build_flags[@]}")
if [ "$#" -gt 0 ]; then
    targets=("$@")
else
    mapfile -t targets < <(cargo fuzz list)
fi

echo "== building the fuzz targets"
cargo fuzz build "${build_flags[@]}"

# One target per core at a time: a libFuzzer run is single-threaded, so the runs share the
# machine rather than queue (FUZZ_JOBS overrides the count). Each writes its own log.
jobs=${FUZZ_JOBS:-$(nproc 2>/dev/null || echo 1)}
if ! [[ "$jobs" =~ ^[1-9][0-9]*$ ]]; then
    echo "FUZZ_JOBS must be a positive whole number, not '$jobs'" >&2
    exit 2
fi

# Runs one target for $seconds and writes libFuzzer's exit status beside its log.
run_target() {
    local target=$1
    local scratch="$target_dir/corpus/$target"
    local artifacts="$target_dir/artifacts/$target"
    local status
    mkdir -p "$scratch" "$artifacts"
    # New inputs go to the first corpus directory (scratch); the committed one is only read.
    # -timeout: one input taking longer is a hang, reported like a crash.
    "${fuzz[@]}" "$target" "$scratch" "corpus/$target" -- \
        -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
        -dict="dict/$target.dict" -artifact_prefix="$artifacts/" -print_final_stats=1 \
        >"$target_dir/$target.log" 2>&1 && status=0 || status=$?
    echo "$status" >"$target_dir/$target.status"
}

for target in "${targets[@]}"; do
    while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do
        wait -n || true
    done
    rm -f "$target_dir/$target.status"
    run_target "$target" &
done
wait

# Reported in the targets' order, whatever order they finished in.
passed=0
failed=0
for target in "${targets[@]}"; do
    log="$target_dir/$target.log"
    status=$(cat "$target_dir/$target.status" 2>/dev/null || echo "unknown")
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
    coverage=$(grep -o 'cov: [0-9]*' "$log" | tail -n 1 || true)
    if [ "$status" != 0 ]; then
        echo "FAIL: $target (exit status $status): libFuzzer output follows" >&2
        grep -v -E '^#[0-9]+\s+(NEW|REDUCE|pulse)' "$log" | tail -n 60 >&2
        failed=$((failed + 1))
        continue
    fi
    echo "ok: $target: ${runs:-?} inputs in ${seconds} s, ${coverage:-cov: ?}, no failure"
    passed=$((passed + 1))
done
echo "fuzz targets: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
