//! A line window's numbers as the structured outputs carry them (get_document, get_history's
//! snapshots, get_attachment's text): which lines the text shows and where reading goes on.

use wiki_tool_sdk::prelude::*;

use super::counted::count;
use super::window::LineWindow;

/// The lines a window shows.
#[mcp_output]
pub(crate) struct WindowOutput {
    /// The first line shown (1-based).
    pub(crate) first_line: u64,
    /// The last line shown (1-based, inclusive).
    pub(crate) last_line: u64,
    /// Lines in the whole text.
    pub(crate) total_lines: u64,
    /// The `offset` that reads on; null when the window reaches the end.
    pub(crate) next_offset: Option<u64>,
    /// The `column` to pass with `next_offset`, when the last line was cut inside; else null.
    pub(crate) next_column: Option<u64>,
}

impl WindowOutput {
    /// `window`'s numbers.
    pub(crate) fn new(window: &LineWindow) -> Self {
        let next = window.continuation();
        Self {
            first_line: count(window.first),
            last_line: count(window.last),
            total_lines: count(window.total),
            next_offset: next.map(|(offset, _)| count(offset)),
            next_column: next.and_then(|(_, column)| column).map(count),
        }
    }

    /// All `total` lines of a text shown whole.
    pub(crate) fn whole(total: usize) -> Self {
        let count = u64::try_from(total).unwrap_or(u64::MAX);
        Self {
            first_line: u64::from(total > 0),
            last_line: count,
            total_lines: count,
            next_offset: None,
            next_column: None,
        }
    }
}
