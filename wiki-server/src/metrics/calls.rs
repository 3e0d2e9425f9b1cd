//! One wiki's call metrics, resolved once per tool: what a call records costs a map lookup by
//! the tool's name and atomic adds, never a label string.
//!
//! A wiki's server ([`WikiServer`](crate::server::WikiServer)) holds its [`ToolMeters`], one
//! entry per tool it serves; the series of a (tool, outcome) is registered the first time it
//! happens, so a tool nobody calls adds no series.

use std::collections::HashMap;
use std::sync::OnceLock;
use std::time::Duration;

use mcp_runtime::audit::Outcome;
use prometheus::{Histogram, HistogramVec, IntCounter, IntCounterVec};

use super::Metrics;

/// Every outcome a call can have, in the order of [`ToolMeter::outcomes`].
const OUTCOMES: [Outcome; 8] = [
    Outcome::Ok,
    Outcome::Error,
    Outcome::Failed,
    Outcome::Cancelled,
    Outcome::Timeout,
    Outcome::Declined,
    Outcome::Unconfirmed,
    Outcome::InputRequired,
];

/// The call metrics of one wiki's tools.
#[derive(Debug)]
pub(crate) struct ToolMeters {
    wiki: String,
    calls: IntCounterVec,
    seconds: HistogramVec,
    tools: HashMap<&'static str, ToolMeter>,
}

/// One tool's handles, each registered on first use.
#[derive(Debug, Default)]
struct ToolMeter {
    outcomes: [OnceLock<IntCounter>; OUTCOMES.len()],
    seconds: OnceLock<Histogram>,
}

impl ToolMeters {
    /// The meters of `wiki`'s `tools` on `metrics`.
    pub(crate) fn new(
        metrics: &Metrics,
        wiki: &str,
        tools: impl IntoIterator<Item = &'static str>,
    ) -> Self {
        ToolMeters {
            wiki: wiki.to_owned(),
            calls: metrics.calls.clone(),
            seconds: metrics.call_seconds.clone(),
            tools: tools
                .into_iter()
                .map(|tool| (tool, ToolMeter::default()))
                .collect(),
        }
    }

    /// Records one call of `tool` that ended with `outcome` after `duration`. A tool this wiki
    /// does not serve (a name the call path refused before running anything) is not recorded:
    /// names come from clients, and a series per invented name would grow without bound.
    pub(crate) fn record(&self, tool: &str, outcome: Outcome, duration: Duration) {
        let Some((name, meter)) = self.tools.get_key_value(tool) else {
            return;
        };
        let resolve = || {
            self.calls
                .with_label_values(&[self.wiki.as_str(), name, outcome.as_str()])
        };
        match OUTCOMES.iter().position(|known| *known == outcome) {
            Some(index) => meter.outcomes[index].get_or_init(resolve).inc(),
            // An outcome the framework added since: counted, by the slower path.
            None => resolve().inc(),
        }
        meter
            .seconds
            .get_or_init(|| self.seconds.with_label_values(&[self.wiki.as_str(), name]))
            .observe(duration.as_secs_f64());
    }
}
