//! A test's peak memory, measured alone: peak resident memory is per process and other tests
//! run beside the one that measures, so the test binary runs that test again in a process of its
//! own (only it, one thread of tests), and the measurement is taken there.
//!
//! ```no_run
//! use wiki_server::testing::PeakMemory;
//!
//! // The body of `#[test] fn a_large_input_is_refused_within_64_mb` in `my_module`.
//! if !PeakMemory::in_own_process("my_module::a_large_input_is_refused_within_64_mb") {
//!     return; // the test binary's own process: the child ran the test and passed
//! }
//! let input = vec![0_u8; 1 << 20]; // prepared before the reset: not measured
//! let Some(peak) = PeakMemory::reset() else {
//!     return; // not Linux: said so on stderr
//! };
//! let copy = input.clone(); // the work measured
//! assert!(peak.grown_kb() <= 64 * 1024, "{} bytes", copy.len());
//! ```

use std::io::Write as _;

/// Set in the process [`PeakMemory::in_own_process`] starts, naming the test it runs.
const MEASURING: &str = "WIKI_MCP_TEST_MEASURING_PEAK";

/// The peak resident memory of this process at a reset, to compare with later.
#[derive(Debug, Clone, Copy)]
pub struct PeakMemory {
    before_kb: u64,
}

impl PeakMemory {
    /// Whether the caller is the process that measures. In the test binary's own process
    /// (`test` is the test's full name, as `--exact` takes it) it runs the test again alone in a
    /// child process, panics with the child's output if it failed, and answers `false`; in that
    /// child it answers `true`.
    pub fn in_own_process(test: &str) -> bool {
        if std::env::var_os(MEASURING).is_some_and(|running| running == test) {
            return true;
        }
        let current = std::env::current_exe().unwrap_or_default();
        let run = std::process::Command::new(current)
            .args(["--exact", test, "--test-threads=1", "--nocapture"])
            .env(MEASURING, test)
            .output()
            .unwrap_or_else(|error| panic!("cannot run the test binary: {error}"));
        assert!(
            run.status.success(),
            "{}{}",
            String::from_utf8_lossy(&run.stdout),
            String::from_utf8_lossy(&run.stderr)
        );
        false
    }

    /// Resets the process's peak to what it holds now and returns it, or `None` (saying on
    /// stderr that nothing is measured) where /proc cannot reset it (not Linux).
    pub fn reset() -> Option<Self> {
        let reset = std::fs::write("/proc/self/clear_refs", "5");
        let measured = peak_kb().filter(|_| reset.is_ok());
        if measured.is_none() {
            let _ = writeln!(
                std::io::stderr(),
                "skipped: peak memory not measured (/proc/self/status and clear_refs are \
                 Linux-only)"
            );
        }
        measured.map(|before_kb| Self { before_kb })
    }

    /// How much the peak grew since the reset, in kB (everything, if it can no longer be read).
    pub fn grown_kb(&self) -> u64 {
        let grew = peak_kb().unwrap_or(u64::MAX).saturating_sub(self.before_kb);
        let _ = writeln!(std::io::stderr(), "peak memory grew by {grew} kB");
        grew
    }
}

/// The process's peak resident memory (kB) since the last reset, read from /proc (Linux).
fn peak_kb() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|line| line.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}
