//! The same load from another process: `wrk` (Debian's package), when it is installed.
//!
//! The in-process clients of the load bench take about a fifth of the CPU that every server
//! shares on a small machine, which pulls every ratio towards 1. `wrk` is an event-loop client
//! written in C: on the same machine it leaves far more of the CPU to the server measured, so
//! its figure says more about the servers and less about the client. Reported beside the
//! in-process figure, never instead of it.

use std::path::Path;
use std::process::Command;
use std::time::Duration;

/// The Lua script: POSTs `tools/call` of `echo`, each with its own JSON-RPC id, and prints the
/// figures on one line for [`parse`].
const SCRIPT: &str = r#"
local id = 0
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Accept"] = "application/json, text/event-stream"
local authorization = os.getenv("WRK_AUTHORIZATION")
if authorization and authorization ~= "" then
  wrk.headers["Authorization"] = authorization
end
request = function()
  id = id + 1
  return wrk.format(nil, nil, nil,
    '{"jsonrpc":"2.0","id":' .. id .. ',"method":"tools/call","params":{"name":"echo","arguments":{"text":"hello"}}}')
end
done = function(summary, latency, requests)
  local errors = summary.errors
  io.write(string.format("WRK requests=%d duration_us=%d failed=%d p50_us=%d p99_us=%d\n",
    summary.requests, summary.duration,
    errors.status + errors.connect + errors.read + errors.write + errors.timeout,
    latency:percentile(50), latency:percentile(99)))
end
"#;

/// What one `wrk` run measured.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct WrkRun {
    pub(crate) requests: u64,
    pub(crate) elapsed: Duration,
    pub(crate) p50: Duration,
    pub(crate) p99: Duration,
}

/// Whether `wrk` can be run here.
pub(crate) fn available() -> bool {
    Command::new("wrk")
        .arg("--version")
        .output()
        .is_ok_and(|output| !output.stdout.is_empty() || !output.stderr.is_empty())
}

/// Writes the script into `dir`, once per bench run.
pub(crate) fn write_script(dir: &Path) -> std::path::PathBuf {
    let path = dir.join("echo.lua");
    std::fs::write(&path, SCRIPT).expect("the wrk script");
    path
}

/// Runs `wrk` with `connections` keep-alive connections on one thread for `duration` against
/// `url`, as `authorization` when given. Panics when any request failed: a figure with errors
/// in it would measure the errors.
pub(crate) fn run(
    script: &Path,
    url: &str,
    authorization: Option<&str>,
    connections: usize,
    duration: Duration,
) -> WrkRun {
    let seconds = whole_seconds(duration);
    let output = Command::new("wrk")
        .args(["-t1", &format!("-c{connections}"), &format!("-d{seconds}s")])
        .arg("-s")
        .arg(script)
        .arg(url)
        .env("WRK_AUTHORIZATION", authorization.unwrap_or_default())
        .output()
        .expect("wrk runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "wrk failed: {stdout}");
    let (run, failed) =
        parse(&stdout).unwrap_or_else(|| panic!("wrk printed no figures: {stdout}"));
    assert_eq!(
        failed, 0,
        "{url}: {failed} requests failed under wrk:\n{stdout}"
    );
    run
}

/// How long `wrk` runs when asked for `duration`: it takes whole seconds, so rounded up.
pub(crate) fn whole_seconds(duration: Duration) -> f64 {
    duration.as_secs_f64().ceil().max(1.0)
}

/// The figures of the script's `WRK` line, and how many requests failed.
fn parse(stdout: &str) -> Option<(WrkRun, u64)> {
    let line = stdout.lines().find(|line| line.starts_with("WRK "))?;
    let field = |name: &str| -> Option<u64> {
        line.split_whitespace()
            .find_map(|pair| pair.strip_prefix(name)?.strip_prefix('='))?
            .parse()
            .ok()
    };
    Some((
        WrkRun {
            requests: field("requests")?,
            elapsed: Duration::from_micros(field("duration_us")?),
            p50: Duration::from_micros(field("p50_us")?),
            p99: Duration::from_micros(field("p99_us")?),
        },
        field("failed")?,
    ))
}

/// The runs of one server, summed.
#[derive(Debug, Default)]
pub(crate) struct WrkTotal {
    runs: Vec<WrkRun>,
}

impl WrkTotal {
    pub(crate) fn add(&mut self, run: WrkRun) {
        self.runs.push(run);
    }

    pub(crate) fn per_second(&self) -> f64 {
        let requests: u64 = self.runs.iter().map(|run| run.requests).sum();
        let elapsed: Duration = self.runs.iter().map(|run| run.elapsed).sum();
        requests as f64 / elapsed.as_secs_f64().max(f64::MIN_POSITIVE)
    }

    /// The worst of the runs' quantile (wrk reports quantiles per run, which do not add up).
    pub(crate) fn worst(&self, quantile: impl Fn(&WrkRun) -> Duration) -> Duration {
        self.runs.iter().map(quantile).max().unwrap_or_default()
    }
}
