//! Extraction through the public API: text, caps, notes, stops and resumes.

use std::cell::Cell;
use std::time::Duration;

use pdf_budget::testing::{font_switching, one_page_with, pages_sharing};
use pdf_budget::{Extracted, Limits, Outcome, Refusal, Signals, extract_text};

/// What `file` extracts to within `limits`, never stopped.
fn done(file: &[u8], limits: &Limits) -> Extracted {
    match extract_text(file, limits, None, &mut ()).outcome {
        Outcome::Done(extracted) => extracted,
        Outcome::Stopped(progress) => panic!("an unstopped extraction stopped: {progress:?}"),
    }
}

fn text_of(extracted: Extracted) -> (String, bool, Option<String>) {
    match extracted {
        Extracted::Text { text, capped, note } => (text, capped, note),
        other => panic!("no text: {other:?}"),
    }
}

#[test]
fn text_is_extracted_and_capped() {
    let limits = Limits::default();
    assert_eq!(
        text_of(done(&one_page_with("Hello PDF"), &limits)),
        ("Hello PDF".to_owned(), false, None)
    );
    let long = "x".repeat(limits.max_chars + 500);
    let (text, capped, note) = text_of(done(&one_page_with(&long), &limits));
    assert!(capped);
    assert_eq!(note, None);
    assert_eq!(text.chars().count(), limits.max_chars);
}

#[test]
fn garbage_is_no_text_not_a_panic() {
    let limits = Limits::default();
    assert_eq!(
        done(b"%PDF-1.4\nnot really a pdf", &limits),
        Extracted::NoText
    );
    assert_eq!(done(b"", &limits), Extracted::NoText);
}

/// A page of `switches` font selections, each showing one letter: what the work of a page
/// is made of when a file switches fonts thousands of times per page.
fn switching_pages(pages: usize, switches: usize) -> Vec<u8> {
    pages_sharing(&font_switching(switches, 2, "a"), pages, 2)
}

#[test]
fn font_switches_are_charged_per_operation_so_a_small_file_cannot_take_minutes() {
    // 2,000 pages sharing one content stream of 6,000 font switches: a few hundred kilobytes,
    // inside every budget that charged content bytes, and fonts once per page.
    let file = switching_pages(2_000, 6_000);
    assert!(file.len() < 400 * 1024, "{} bytes", file.len());
    let limits = Limits {
        max_chars: usize::MAX,
        max_time: Duration::from_secs(3_600),
        // A tenth of the default, so the test reads a few pages, not a few dozen.
        max_work: Limits::default().max_work / 10,
        ..Limits::default()
    };
    let extraction = extract_text(&file, &limits, None, &mut ());
    let Outcome::Done(extracted) = extraction.outcome else {
        panic!("an unstopped extraction stopped");
    };
    let (_, capped, note) = text_of(extracted);
    assert!(!capped);
    let note = note.unwrap_or_default();
    assert!(
        note.starts_with("Pages ")
            && note.ends_with(
                " to 2000 were not read: the file passes the extraction budget. Download the \
                 file for them."
            ),
        "{note}"
    );
    // Each page's 18,000 operations are charged, so the budget stops the file after a few
    // pages.
    assert!(
        (1..10).contains(&extraction.cost.pages_read),
        "{:?}",
        extraction.cost
    );
    assert!(extraction.cost.planned_work <= limits.max_work);
    assert!(extraction.cost.metered_work <= extraction.cost.planned_output_work);
}

#[test]
fn a_file_whose_first_page_passes_the_budget_is_refused() {
    let limits = Limits {
        max_work: 10_000,
        ..Limits::default()
    };
    assert_eq!(
        done(&switching_pages(3, 6_000), &limits),
        Extracted::Refused(Refusal::Work)
    );
}

/// Signals that say stop on page `page` (1-based, among those read) once it asked `after`
/// times, and count pages.
struct StopInside {
    page: usize,
    after: usize,
    pages: usize,
    asked: Cell<usize>,
}

impl StopInside {
    fn new(page: usize, after: usize) -> Self {
        Self {
            page,
            after,
            pages: 0,
            asked: Cell::new(0),
        }
    }
}

impl Signals for StopInside {
    fn page_read(&mut self) -> bool {
        self.pages += 1;
        self.asked.set(0);
        true
    }

    fn stopped(&self) -> bool {
        if self.pages + 1 != self.page {
            return false;
        }
        self.asked.set(self.asked.get() + 1);
        self.asked.get() > self.after
    }
}

/// Five pages of 2,000 shown strings: each page asks whether to stop about 125 times.
fn five_pages() -> Vec<u8> {
    pages_sharing(&font_switching(2_000, 1, "ab"), 5, 1)
}

#[test]
fn a_stop_takes_effect_inside_a_page_and_the_progress_resumes_there() {
    let file = five_pages();
    let limits = Limits {
        max_chars: usize::MAX,
        max_time: Duration::from_secs(3_600),
        ..Limits::default()
    };
    let whole = text_of(done(&file, &limits)).0;
    let mut signals = StopInside::new(2, 30);
    let first = extract_text(&file, &limits, None, &mut signals);
    let Outcome::Stopped(progress) = first.outcome else {
        panic!("not stopped: {:?}", first.outcome);
    };
    assert_eq!(signals.pages, 1, "the second page was stopped inside");
    assert_eq!(progress.pages_read(), 1);
    assert_eq!(signals.asked.get(), 31);
    // Resumed without a stop, it reads pages 2 to 5 only and gives the whole text.
    let resumed = extract_text(&file, &limits, Some(progress), &mut ());
    assert_eq!(resumed.cost.pages_read, 4);
    let Outcome::Done(extracted) = resumed.outcome else {
        panic!("the resumed run stopped");
    };
    assert_eq!(text_of(extracted).0, whole);
}

#[test]
fn out_of_time_keeps_the_pages_read_and_says_where_it_stopped() {
    let file = five_pages();
    let limits = Limits {
        max_chars: usize::MAX,
        max_time: Duration::from_secs(3_600),
        ..Limits::default()
    };
    // A run stopped inside its second page, resumed when the time budget is already spent.
    let Outcome::Stopped(progress) =
        extract_text(&file, &limits, None, &mut StopInside::new(2, 30)).outcome
    else {
        panic!("not stopped");
    };
    let spent = Limits {
        max_time: progress.spent(),
        ..limits
    };
    let Outcome::Done(extracted) = extract_text(&file, &spent, Some(progress), &mut ()).outcome
    else {
        panic!("stopped");
    };
    let (text, capped, note) = text_of(extracted);
    assert!(!capped);
    assert!(text.starts_with("ab") && text.len() < 5_000, "{text}");
    let note = note.unwrap_or_default();
    assert!(
        note.starts_with(
            "Extraction stopped at page 2 of 5: reading the rest would take longer than the \
             extraction budget of "
        ) && note.ends_with(" seconds. Download the file for them."),
        "{note}"
    );
    // Nothing read within the time budget at all: refused, saying so.
    let none = Limits {
        max_time: Duration::ZERO,
        ..limits
    };
    assert_eq!(
        done(&file, &none),
        Extracted::Refused(Refusal::Time {
            budget: Duration::ZERO
        })
    );
    assert_eq!(
        Refusal::Time {
            budget: Duration::from_secs(10)
        }
        .to_string(),
        "reading its first page took longer than the extraction budget of 10 seconds"
    );
}
