//! The work budgets an operator may change (`serve`/`stdio` flags): how large and deep a page is
//! rendered, how many heavy jobs run at once and how long a call waits for a slot, how many
//! replacements one edit makes, and how much one PDF extraction may inflate.
//!
//! They bound the PROCESS (its memory and its cores), like the heavy slots they include, so there
//! is one set per process: [`install`] it once at start-up, before the first call or page, and
//! every reader ([`budgets`]) sees it; without one the defaults apply. Per-server settings
//! (`ServerSettings`) would let two servers in one process disagree about a shared pool.

use std::fmt;
use std::sync::OnceLock;
use std::time::Duration;

use crate::markdown::limits;

/// The budgets. [`Budgets::default`] holds the values chosen for a small server; [`validate`]
/// says what an operator may set instead.
///
/// [`validate`]: Budgets::validate
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct Budgets {
    /// The largest page source rendered, in characters (past it the source is shown).
    pub render_max_chars: usize,
    /// The deepest nesting of lists and block quotes rendered.
    pub render_max_block_nesting: usize,
    /// The deepest nesting of HTML elements sanitized.
    pub render_max_html_nesting: usize,
    /// Heavy jobs (rendering, PDF extraction, embedding) running at once, process-wide.
    pub heavy_slots: usize,
    /// How long a call waits for a heavy slot before it is told the server is busy.
    pub heavy_wait: Duration,
    /// Replacements one `edit_document` call makes, all edits together.
    pub max_replacements: usize,
    /// Bytes the streams of one PDF may inflate to, all together.
    pub pdf_max_inflated_bytes: usize,
    /// Objects one PDF may hold.
    pub pdf_max_objects: usize,
}

impl Default for Budgets {
    fn default() -> Self {
        Budgets {
            render_max_chars: limits::MAX_RENDER_CHARS,
            render_max_block_nesting: limits::MAX_BLOCK_NESTING,
            render_max_html_nesting: limits::MAX_HTML_NESTING,
            heavy_slots: default_heavy_slots(),
            heavy_wait: Duration::from_secs(5),
            max_replacements: 10_000,
            pdf_max_inflated_bytes: 64 * 1024 * 1024,
            pdf_max_objects: 200_000,
        }
    }
}

/// Half the cores (at least one), so the other half keeps answering the calls that do not wait
/// for heavy work.
pub fn default_heavy_slots() -> usize {
    std::thread::available_parallelism()
        .map_or(1, |cores| cores.get() / 2)
        .max(1)
}

/// One budget outside what the server accepts: its name (the `serve` flag's, without `--`), the
/// value given and the accepted range.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutOfRange {
    /// The budget's name.
    pub name: &'static str,
    /// The value given.
    pub value: u64,
    /// The least accepted value.
    pub min: u64,
    /// The greatest accepted value.
    pub max: u64,
}

impl fmt::Display for OutOfRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} = {} is outside {}..={}: give a value in that range (or leave it out for the default)",
            self.name, self.value, self.min, self.max
        )
    }
}

impl std::error::Error for OutOfRange {}

/// Each budget's accepted range. Zero would refuse all work (or, for the slots, hang it); the
/// upper bounds keep one call within what a server can survive (a 10 GB render was seen).
pub const RANGES: &[(&str, u64, u64)] = &[
    ("render-max-chars", 1_000, 1_000_000),
    ("render-max-nesting", 4, 256),
    ("render-max-html-nesting", 16, 1_024),
    ("heavy-slots", 1, 256),
    ("heavy-wait", 1, 300),
    ("max-replacements", 1, 1_000_000),
    ("pdf-max-inflated-mb", 1, 1_024),
    ("pdf-max-objects", 100, 10_000_000),
];

impl Budgets {
    /// `Err` names the first budget outside [`RANGES`].
    pub fn validate(&self) -> Result<(), OutOfRange> {
        let mib = 1024 * 1024;
        let values = [
            self.render_max_chars as u64,
            self.render_max_block_nesting as u64,
            self.render_max_html_nesting as u64,
            self.heavy_slots as u64,
            self.heavy_wait.as_secs(),
            self.max_replacements as u64,
            (self.pdf_max_inflated_bytes / mib) as u64,
            self.pdf_max_objects as u64,
        ];
        for (&(name, min, max), value) in RANGES.iter().zip(values) {
            if !(min..=max).contains(&value) {
                return Err(OutOfRange {
                    name,
                    value,
                    min,
                    max,
                });
            }
        }
        Ok(())
    }
}

static INSTALLED: OnceLock<Budgets> = OnceLock::new();

/// Why [`install`] refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum InstallError {
    /// A budget is out of range.
    OutOfRange(OutOfRange),
    /// Other budgets were installed (or read, fixing the defaults) before.
    AlreadySet,
}

impl fmt::Display for InstallError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::OutOfRange(range) => range.fmt(f),
            Self::AlreadySet => f.write_str(
                "the work budgets were already set or used in this process; set them once, \
                 before serving",
            ),
        }
    }
}

impl std::error::Error for InstallError {}

/// Makes `budgets` the process's, once, before anything reads them. Installing the same values
/// again is accepted (a process that starts two servers with one configuration).
pub fn install(budgets: Budgets) -> Result<(), InstallError> {
    budgets.validate().map_err(InstallError::OutOfRange)?;
    let installed = INSTALLED.get_or_init(|| budgets);
    if *installed == budgets {
        Ok(())
    } else {
        Err(InstallError::AlreadySet)
    }
}

/// The process's budgets: the installed ones, else (from then on) the defaults.
pub fn budgets() -> &'static Budgets {
    INSTALLED.get_or_init(Budgets::default)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_defaults_are_in_range_and_zero_or_absurd_values_are_named() {
        assert_eq!(Budgets::default().validate(), Ok(()));
        let zero_slots = Budgets {
            heavy_slots: 0,
            ..Budgets::default()
        };
        let refused = zero_slots.validate().map_err(|range| range.to_string());
        assert_eq!(
            refused,
            Err(
                "heavy-slots = 0 is outside 1..=256: give a value in that range (or leave it \
                 out for the default)"
                    .to_owned()
            )
        );
        let huge = Budgets {
            pdf_max_inflated_bytes: 4096 * 1024 * 1024,
            ..Budgets::default()
        };
        assert_eq!(
            huge.validate().map_err(|range| range.name),
            Err("pdf-max-inflated-mb")
        );
    }

    #[test]
    fn half_the_cores_at_least_one() {
        let cores = std::thread::available_parallelism().map_or(1, |c| c.get());
        assert_eq!(default_heavy_slots(), (cores / 2).max(1));
    }
}
