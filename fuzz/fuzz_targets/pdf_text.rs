//! The PDF budget reader (`pdf-budget`): any bytes, as a file an attacker uploads.
//!
//! Input: the bytes of a file (the corpus starts from bombs, truncated and malformed PDFs).
//!
//! Properties: no input panics past the reader (pdf-extract's own panics are caught per page);
//! the walk's planned work stays within the work budget and the output calls pdf-extract makes
//! within what the walk planned for them; decoded bytes and objects stay within their budgets;
//! the text kept stays within its cap. Time: the time budget is a second, so libFuzzer's
//! timeout (10 s) only fires for a run the budgets failed to bound.
#![no_main]

use std::time::Duration;

use libfuzzer_sys::fuzz_target;
use pdf_budget::{Extracted, Limits, Outcome, extract_text};

/// Smaller than a server's, so one input runs in milliseconds and a bomb is a small one.
const LIMITS: Limits = Limits {
    max_decoded_bytes: 4 * 1024 * 1024,
    max_objects: 20_000,
    max_work: 2_000_000,
    max_time: Duration::from_secs(1),
    max_chars: 10_000,
};

fuzz_target!(
    // The reader catches pdf-extract's panics per page, as the server does; libFuzzer's hook
    // would abort on them before they are caught. A panic that escapes the reader still fails
    // the run: libfuzzer-sys aborts on any panic leaving this closure.
    init: std::panic::set_hook(Box::new(|_| {})),
    |file: &[u8]| {
    let extraction = extract_text(file, &LIMITS, None, &mut ());
    let cost = extraction.cost;
    assert!(cost.planned_work <= LIMITS.max_work, "{cost:?}");
    assert!(cost.planned_output_work <= cost.planned_work, "{cost:?}");
    assert!(cost.metered_work <= cost.planned_output_work, "{cost:?}");
    assert!(cost.decoded_bytes <= LIMITS.max_decoded_bytes, "{cost:?}");
    assert!(cost.objects <= LIMITS.max_objects, "{cost:?}");
    match extraction.outcome {
        Outcome::Done(Extracted::Text { text, .. }) => {
            assert!(text.chars().count() <= LIMITS.max_chars);
        }
        Outcome::Done(_) => {}
        Outcome::Stopped(_) => panic!("an extraction nobody stopped returned as stopped"),
    }
    }
);
