# Sourced by .ci/run and .ci/test: `stage NAME` prints a stage's header with the minutes and
# seconds since the run began, so a log shows what each stage cost (the per-test durations are
# in target/nextest/ci/junit.xml).
: "${CI_STARTED:=$(date +%s)}"
export CI_STARTED
stage() {
    local spent=$(($(date +%s) - CI_STARTED))
    printf '== %s (at %d:%02d)\n' "$*" $((spent / 60)) $((spent % 60))
}
