//! The property the crate exists for: whatever the file, an extraction stays within its
//! limits. Files are generated from pages of text operations, font switches, forms drawing
//! forms (cycles included), shared and compressed streams; limits from tiny to generous.

use std::time::Duration;

use pdf_budget::testing::{pdf, stream, zlib};
use pdf_budget::{Extracted, Limits, Outcome, extract_text};
use proptest::prelude::*;

/// One content operation.
#[derive(Debug, Clone)]
enum Op {
    SaveRestore,
    Transform,
    Font(u8),
    Show(String),
    ShowArray(Vec<String>),
    Draw(u8),
    Text,
}

impl Op {
    fn bytes(&self) -> String {
        match self {
            Op::SaveRestore => "q Q ".to_owned(),
            Op::Transform => "1 0 0 1 5 5 cm ".to_owned(),
            Op::Font(font) => format!("/F{font} 9 Tf "),
            Op::Show(text) => format!("({text}) Tj "),
            Op::ShowArray(parts) => {
                let parts: Vec<String> = parts.iter().map(|part| format!("({part}) -20")).collect();
                format!("[{}] TJ ", parts.join(" "))
            }
            Op::Draw(form) => format!("/X{form} Do "),
            Op::Text => "BT 10 100 Td ".to_owned(),
        }
    }
}

fn op() -> impl Strategy<Value = Op> {
    let word = "[a-z ]{0,40}";
    prop_oneof![
        Just(Op::SaveRestore),
        Just(Op::Transform),
        (0u8..3).prop_map(Op::Font),
        word.prop_map(Op::Show),
        prop::collection::vec(word, 0..6).prop_map(Op::ShowArray),
        (0u8..3).prop_map(Op::Draw),
        Just(Op::Text),
    ]
}

/// A content stream: a run of operations, repeated (a page of thousands of operations from a
/// few generated ones), then `ET`.
fn content() -> impl Strategy<Value = String> {
    (prop::collection::vec(op(), 0..12), 1usize..400).prop_map(|(ops, repeat)| {
        let run: String = ops.iter().map(Op::bytes).collect();
        format!("BT /F0 9 Tf {}ET", run.repeat(repeat))
    })
}

/// A generated file: page contents (pages may share one), three forms, whether streams are
/// compressed.
#[derive(Debug, Clone)]
struct File {
    pages: Vec<usize>,
    contents: Vec<String>,
    forms: Vec<String>,
    compressed: bool,
}

fn file() -> impl Strategy<Value = File> {
    (
        prop::collection::vec(content(), 1..4),
        prop::collection::vec(0usize..4, 1..40),
        prop::collection::vec(content(), 3),
        any::<bool>(),
    )
        .prop_map(|(contents, pages, forms, compressed)| File {
            pages: pages.into_iter().map(|i| i % contents.len()).collect(),
            contents,
            forms,
            compressed,
        })
}

impl File {
    /// The PDF: 1 catalog, 2 pages, 3-5 fonts, 6-8 forms (each may draw any form, itself
    /// included), then the contents, then the pages.
    fn bytes(&self) -> Vec<u8> {
        let body = |text: &str| {
            if self.compressed {
                stream("/Filter /FlateDecode", &zlib(text.as_bytes()))
            } else {
                stream("", text.as_bytes())
            }
        };
        let resources = "/Font << /F0 3 0 R /F1 4 0 R /F2 5 0 R >> \
                         /XObject << /X0 6 0 R /X1 7 0 R /X2 8 0 R >>";
        let first_content = 9;
        let first_page = first_content + self.contents.len();
        let kids: String = (0..self.pages.len())
            .map(|i| format!("{} 0 R ", first_page + i))
            .collect();
        let mut objects = vec![
            b"<< /Type /Catalog /Pages 2 0 R >>".to_vec(),
            format!(
                "<< /Type /Pages /Kids [{kids}] /Count {} >>",
                self.pages.len()
            )
            .into_bytes(),
        ];
        for _ in 0..3 {
            objects.push(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>".to_vec());
        }
        for form in &self.forms {
            let mut object = body(form);
            let dictionary = format!(
                "/Type /XObject /Subtype /Form /BBox [0 0 10 10] /Resources << {resources} >>"
            );
            object.splice(2..2, format!(" {dictionary}").into_bytes());
            objects.push(object);
        }
        for content in &self.contents {
            objects.push(body(content));
        }
        for &content in &self.pages {
            objects.push(
                format!(
                    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 144] /Contents {} 0 R \
                     /Resources << {resources} >> >>",
                    first_content + content
                )
                .into_bytes(),
            );
        }
        pdf(&objects)
    }
}

fn limits() -> impl Strategy<Value = Limits> {
    (
        1_000usize..4_000_000,
        200usize..2_000_000,
        5usize..200,
        0usize..20_000,
    )
        .prop_map(
            |(max_work, max_decoded_bytes, max_objects, max_chars)| Limits {
                max_work,
                max_decoded_bytes,
                max_objects,
                max_chars,
                // Time is the only budget a slow test machine could trip; the others are exact.
                max_time: Duration::from_secs(3_600),
            },
        )
}

/// Every filtered stream of `file` decoded by lopdf alone, unbounded: what the budget must not
/// let through. A stream without a filter is not decoded (its bytes are the file's, already in
/// memory), so it is not counted, as the budget does not count it.
fn decoded_by_lopdf(file: &[u8]) -> usize {
    let Ok(document) = lopdf::Document::load_mem(file) else {
        return 0;
    };
    document
        .objects
        .values()
        .filter_map(|object| object.as_stream().ok())
        .filter(|stream| stream.dict.has(b"Filter"))
        .map(|stream| {
            stream
                .decompressed_content()
                .map_or(stream.content.len(), |content| content.len())
        })
        .sum()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn no_file_passes_its_budgets(file in file(), limits in limits()) {
        let bytes = file.bytes();
        let extraction = extract_text(&bytes, &limits, None, &mut ());
        let cost = extraction.cost;
        prop_assert!(cost.planned_work <= limits.max_work, "{cost:?}");
        prop_assert!(cost.metered_work <= cost.planned_output_work, "{cost:?}");
        prop_assert!(cost.planned_output_work <= cost.planned_work, "{cost:?}");
        prop_assert!(cost.decoded_bytes <= limits.max_decoded_bytes, "{cost:?}");
        prop_assert!(cost.objects <= limits.max_objects, "{cost:?}");
        let Outcome::Done(extracted) = extraction.outcome else {
            return Err(TestCaseError::fail("an unstopped extraction stopped"));
        };
        if let Extracted::Text { text, .. } = &extracted {
            prop_assert!(text.chars().count() <= limits.max_chars);
            // Text came out, so the whole file was loaded: lopdf's own decoding of every
            // stream is within the decoded budget.
            prop_assert!(decoded_by_lopdf(&bytes) <= limits.max_decoded_bytes);
        }
    }
}
