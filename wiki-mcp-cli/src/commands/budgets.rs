//! `serve`'s and `stdio`'s work-budget flags: how long a call may run, and the bounds of the
//! process's heavy work (`wiki_tool_sdk::budgets`: rendering, PDF extraction, replacements, the
//! heavy slots). Each has an environment variable, so a container sets them without a command
//! line. A zero or absurd value is refused before anything is served: it would refuse all work,
//! hang it, or let one call take the machine.

use std::time::Duration;

use anyhow::{Result, bail};
use wiki_tool_sdk::budgets::{Budgets, install};

/// The defaults shown by `--help` are [`Budgets::default`]'s.
#[derive(Debug, clap::Args)]
pub(crate) struct BudgetArgs {
    /// Seconds one tool call may run before it ends in an error result (1 to 3600).
    #[arg(
        long,
        env = "WIKI_MCP_CALL_TIMEOUT",
        default_value_t = 30,
        value_name = "SECONDS"
    )]
    call_timeout: u64,
    /// The longest page rendered, in characters; a longer page is shown as its source with a
    /// note (1000 to 1000000).
    #[arg(
        long,
        env = "WIKI_MCP_RENDER_MAX_CHARS",
        value_name = "CHARS",
        default_value_t = Budgets::default().render_max_chars
    )]
    render_max_chars: usize,
    /// The deepest nesting of lists and block quotes rendered (4 to 256).
    #[arg(
        long,
        env = "WIKI_MCP_RENDER_MAX_NESTING",
        value_name = "LEVELS",
        default_value_t = Budgets::default().render_max_block_nesting
    )]
    render_max_nesting: usize,
    /// The deepest nesting of HTML elements rendered (16 to 1024).
    #[arg(
        long,
        env = "WIKI_MCP_RENDER_MAX_HTML_NESTING",
        value_name = "LEVELS",
        default_value_t = Budgets::default().render_max_html_nesting
    )]
    render_max_html_nesting: usize,
    /// Heavy jobs (rendering, PDF extraction, semantic search) running at once, all callers
    /// together; the default is half the cores (1 to 256).
    #[arg(
        long,
        env = "WIKI_MCP_HEAVY_SLOTS",
        value_name = "N",
        default_value_t = Budgets::default().heavy_slots
    )]
    heavy_slots: usize,
    /// Seconds a call waits for a heavy slot before it is told the server is busy (1 to 300).
    #[arg(
        long,
        env = "WIKI_MCP_HEAVY_WAIT",
        value_name = "SECONDS",
        default_value_t = Budgets::default().heavy_wait.as_secs()
    )]
    heavy_wait: u64,
    /// Replacements one edit_document call makes, all its edits together (1 to 1000000).
    #[arg(
        long,
        env = "WIKI_MCP_MAX_REPLACEMENTS",
        value_name = "N",
        default_value_t = Budgets::default().max_replacements
    )]
    max_replacements: usize,
    /// Megabytes the compressed streams of one PDF may inflate to while its text is extracted
    /// (1 to 1024).
    #[arg(
        long,
        env = "WIKI_MCP_PDF_MAX_INFLATED_MB",
        value_name = "MB",
        default_value_t = Budgets::default().pdf_max_inflated_bytes / (1024 * 1024)
    )]
    pdf_max_inflated_mb: usize,
    /// Objects one PDF may hold for its text to be extracted (100 to 10000000).
    #[arg(
        long,
        env = "WIKI_MCP_PDF_MAX_OBJECTS",
        value_name = "N",
        default_value_t = Budgets::default().pdf_max_objects
    )]
    pdf_max_objects: usize,
}

/// The call timeout's accepted range, in seconds.
const CALL_TIMEOUT_SECONDS: std::ops::RangeInclusive<u64> = 1..=3600;

impl BudgetArgs {
    /// Checks every value, makes the heavy-work budgets the process's, and returns the call
    /// timeout. Called once, before the server is made.
    pub(crate) fn install(&self) -> Result<Duration> {
        if !CALL_TIMEOUT_SECONDS.contains(&self.call_timeout) {
            bail!(
                "--call-timeout {} is outside {}..={} seconds: give a value in that range (or \
                 leave it out for 30)",
                self.call_timeout,
                CALL_TIMEOUT_SECONDS.start(),
                CALL_TIMEOUT_SECONDS.end()
            );
        }
        let mut budgets = Budgets::default();
        budgets.render_max_chars = self.render_max_chars;
        budgets.render_max_block_nesting = self.render_max_nesting;
        budgets.render_max_html_nesting = self.render_max_html_nesting;
        budgets.heavy_slots = self.heavy_slots;
        budgets.heavy_wait = Duration::from_secs(self.heavy_wait);
        budgets.max_replacements = self.max_replacements;
        budgets.pdf_max_inflated_bytes = self.pdf_max_inflated_mb.saturating_mul(1024 * 1024);
        budgets.pdf_max_objects = self.pdf_max_objects;
        if let Err(error) = budgets.validate() {
            // Named as the flag is typed; the budgets' names are the flags'.
            bail!(
                "--{} {} is outside {}..={}: give a value in that range (or leave it out for the \
                 default)",
                error.name,
                error.value,
                error.min,
                error.max
            );
        }
        install(budgets)?;
        Ok(Duration::from_secs(self.call_timeout))
    }
}
