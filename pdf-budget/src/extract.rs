//! The extraction itself: the budgets checked in order (structure, load, walk), then the planned
//! pages read one at a time through the metered output, resuming where a stopped run left off.

use std::fmt::Write as _;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::time::{Duration, Instant};

use pdf_extract::output_doc_page;

use crate::decode::Budget;
use crate::load::{check_structure, load};
use crate::output::{Capped, Halt, Metered};
use crate::walk::{Plan, plan};
use crate::{Limits, Refusal};

/// What the caller tells an extraction while it runs.
pub trait Signals {
    /// One more page was read (report progress here); false stops the extraction.
    fn page_read(&mut self) -> bool;

    /// Whether the caller asked to stop. Asked every few glyphs inside a page: keep it cheap
    /// (an atomic load).
    fn stopped(&self) -> bool;
}

/// Signals that never stop an extraction (a command-line tool, a test).
impl Signals for () {
    fn page_read(&mut self) -> bool {
        true
    }

    fn stopped(&self) -> bool {
        false
    }
}

/// What extraction made of a PDF.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Extracted {
    /// Its text.
    Text {
        /// The text, at most [`Limits::max_chars`] characters.
        text: String,
        /// Whether the character cap cut it.
        capped: bool,
        /// Which pages were left out and why, when some were (a sentence ending in a period).
        note: Option<String>,
    },
    /// No text: scanned images only, or a damaged file.
    NoText,
    /// Not extracted, for this reason.
    Refused(Refusal),
}

impl Extracted {
    /// What keeping this costs, in bytes (for a cache's weight).
    pub fn weight(&self) -> usize {
        match self {
            Self::Text { text, note, .. } => text.len() + note.as_ref().map_or(0, String::len),
            Self::NoText | Self::Refused(_) => 0,
        }
    }
}

/// How far a stopped extraction got: the text of the pages it read, where to go on, and the
/// time it took. Hand it back to [`extract_text`] with the same file and limits to resume.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Progress {
    text: String,
    /// The index, among the planned pages, of the first page not read.
    next: usize,
    spent: Duration,
}

impl Progress {
    /// What keeping this costs, in bytes (for a cache's weight).
    pub fn weight(&self) -> usize {
        self.text.len()
    }

    /// Pages read so far.
    pub fn pages_read(&self) -> usize {
        self.next
    }

    /// The time the runs so far took.
    pub fn spent(&self) -> Duration {
        self.spent
    }
}

/// How an extraction ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// It ended: what the file gives, to keep and show.
    Done(Extracted),
    /// The caller stopped it: how far it got.
    Stopped(Progress),
}

/// What one run of an extraction cost, for logs, benchmarks and the budget's own tests.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Cost {
    /// Bytes the file's streams decode to, as charged before the load (0 when refused before).
    pub decoded_bytes: usize,
    /// Objects loaded.
    pub objects: usize,
    /// The work the walk charged for the planned pages (and its own parsing).
    pub planned_work: usize,
    /// The part of `planned_work` that is output calls (strings and glyphs shown).
    pub planned_output_work: usize,
    /// The output calls pdf-extract was seen making, in this run, charged as the walk charges
    /// them: never more than `planned_output_work`.
    pub metered_work: usize,
    /// Pages read in this run.
    pub pages_read: usize,
    /// The time this run took.
    pub time: Duration,
}

/// One run of [`extract_text`]: how it ended and what it cost.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Extraction {
    /// How it ended.
    pub outcome: Outcome,
    /// What it cost.
    pub cost: Cost,
}

/// Extracts the text of `file` within `limits`, from the start or from `resume` (what a
/// stopped run of the same file with the same limits returned). `signals` hears of every page
/// read and may stop the run, inside a page too; a stopped run returns its progress.
pub fn extract_text(
    file: &[u8],
    limits: &Limits,
    resume: Option<Progress>,
    signals: &mut dyn Signals,
) -> Extraction {
    let started = Instant::now();
    let mut cost = Cost::default();
    let outcome = run(file, limits, resume, signals, started, &mut cost);
    cost.time = started.elapsed();
    Extraction { outcome, cost }
}

fn run(
    file: &[u8],
    limits: &Limits,
    resume: Option<Progress>,
    signals: &mut dyn Signals,
    started: Instant,
    cost: &mut Cost,
) -> Outcome {
    let (text, start, spent_before) = match resume {
        Some(progress) => (progress.text, progress.next, progress.spent),
        None => (String::new(), 0, Duration::ZERO),
    };
    let deadline = started + limits.max_time.saturating_sub(spent_before);
    let stopped = |text: String, next: usize| {
        Outcome::Stopped(Progress {
            text,
            next,
            spent: spent_before + started.elapsed(),
        })
    };
    let mut decoded = Budget::new(limits.max_decoded_bytes);
    let loaded = check_structure(file, &mut decoded)
        .and_then(|()| load(file, &mut decoded, limits.max_objects));
    let document = match loaded {
        Ok(document) => document,
        Err(Refusal::Unreadable) => return Outcome::Done(Extracted::NoText),
        Err(refusal) => return Outcome::Done(Extracted::Refused(refusal)),
    };
    cost.decoded_bytes = decoded.spent();
    cost.objects = document.objects.len();
    // The walk is bounded by the work budget; only a stop ends it early, so a plan that is not
    // stopped is the same in every run of a file, and a resumed run's pages are the first's.
    let plan = match plan(&document, limits.max_work, &|| signals.stopped()) {
        Ok(plan) => plan,
        Err(refusal) => return Outcome::Done(Extracted::Refused(refusal)),
    };
    cost.planned_work = plan.work;
    cost.planned_output_work = plan.output_work;
    if plan.halted {
        return stopped(text, start);
    }
    let mut writer = Capped::new(text, limits.max_chars);
    let mut next = start;
    let mut out_of_time = false;
    while let Some(&page) = plan.pages.get(next).filter(|_| !out_of_time) {
        let mark = writer.mark();
        let is_stopped = || signals.stopped();
        let mut output = Metered::new(&mut writer, &is_stopped, deadline);
        output.check();
        if output.halt.is_none() {
            // A panic or an error ends this page; the text before it is kept.
            let _ = catch_unwind(AssertUnwindSafe(|| {
                output_doc_page(&document, &mut output, page)
            }));
        }
        cost.metered_work = cost.metered_work.saturating_add(output.work);
        match output.halt {
            Some(Halt::Stopped) => {
                // The page is read again, whole, on resume.
                writer.rewind(mark);
                return stopped(writer.text, next);
            }
            Some(Halt::OutOfTime) => out_of_time = true,
            None => {
                next += 1;
                cost.pages_read += 1;
                if writer.full {
                    break;
                }
                if !writer.text.is_empty() && !writer.text.ends_with('\n') {
                    let _ = writer.write_str("\n");
                }
                if !signals.page_read() {
                    return stopped(writer.text, next);
                }
            }
        }
    }
    let text = writer.text.trim();
    let stopped_at = out_of_time.then(|| plan.pages.get(next).copied()).flatten();
    if text.is_empty() {
        return Outcome::Done(match stopped_at {
            Some(_) => Extracted::Refused(Refusal::Time {
                budget: limits.max_time,
            }),
            None => Extracted::NoText,
        });
    }
    let note = if writer.full {
        None
    } else {
        pages_note(&plan, stopped_at.map(|page| (page, limits.max_time)))
    };
    Outcome::Done(Extracted::Text {
        text: text.to_owned(),
        capped: writer.full,
        note,
    })
}

/// Which pages were left out and why, for the reader: pages past a per-page bound, pages past
/// the work budget, and the page where the time budget ran out.
fn pages_note(plan: &Plan, out_of_time: Option<(u32, Duration)>) -> Option<String> {
    let mut parts = Vec::new();
    if !plan.skipped.is_empty() {
        let listed: Vec<String> = plan.skipped.iter().take(10).map(u32::to_string).collect();
        let more = plan.skipped.len().saturating_sub(10);
        parts.push(format!(
            "page{} {}{} could not be read within the extraction budget",
            if plan.skipped.len() == 1 { "" } else { "s" },
            listed.join(", "),
            if more > 0 {
                format!(" (+{more} more)")
            } else {
                String::new()
            }
        ));
    }
    match (out_of_time, plan.stopped_at) {
        (Some((page, budget)), _) => parts.push(format!(
            "extraction stopped at page {page} of {}: reading the rest would take longer than \
             the extraction budget of {}",
            plan.total,
            seconds(budget)
        )),
        (None, Some(page)) => parts.push(format!(
            "pages {page} to {} were not read: the file passes the extraction budget",
            plan.total
        )),
        (None, None) => {}
    }
    if parts.is_empty() {
        return None;
    }
    let mut note = parts.join("; ");
    if let Some(first) = note.get(..1) {
        let upper = first.to_uppercase();
        note.replace_range(..1, &upper);
    }
    note.push_str(". Download the file for them.");
    Some(note)
}

/// A time budget as a reader says it: "10 seconds", "1 second", "0.25 seconds".
pub(crate) fn seconds(budget: Duration) -> String {
    let value = budget.as_secs_f64();
    if budget.subsec_nanos() == 0 {
        format!(
            "{} second{}",
            budget.as_secs(),
            if budget.as_secs() == 1 { "" } else { "s" }
        )
    } else {
        format!("{value:.2} seconds")
    }
}
