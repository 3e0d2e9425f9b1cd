//! Properties of the chunker over generated pages (headings of every level, paragraphs with
//! lines longer than the bound, fenced code with `#` lines): every chunk's text is within the
//! bound, every non-blank line of the page lands in some chunk (a heading as a title in a
//! chunk's path, any other line in a chunk's text), ids are unique, and chunking is
//! deterministic.

use proptest::prelude::*;
use semantic_search::{Chunk, Chunker};

/// One block of a generated page, and the Markdown it renders to.
#[derive(Debug, Clone)]
enum Block {
    Heading { level: usize, title: String },
    Paragraph(Vec<String>),
    Code(Vec<String>),
}

fn word() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => "[a-z]{1,8}",
        1 => prop::sample::select(vec!["éléphant", "日本語", "straße", "naïve", "Ω", "🚀", "42"])
            .prop_map(str::to_owned),
    ]
}

fn words(range: std::ops::RangeInclusive<usize>) -> impl Strategy<Value = String> {
    prop::collection::vec(word(), range).prop_map(|w| w.join(" "))
}

fn block() -> impl Strategy<Value = Block> {
    prop_oneof![
        2 => (1usize..=6, words(1..=4)).prop_map(|(level, title)| Block::Heading { level, title }),
        4 => prop::collection::vec(words(1..=60), 1..=4).prop_map(Block::Paragraph),
        1 => prop::collection::vec(
            prop_oneof![words(1..=6), words(1..=3).prop_map(|w| format!("# {w}"))],
            0..=4,
        )
        .prop_map(Block::Code),
    ]
}

fn render(blocks: &[Block]) -> String {
    let mut page = String::new();
    for block in blocks {
        match block {
            Block::Heading { level, title } => {
                page.push_str(&format!("{} {title}\n", "#".repeat(*level)));
            }
            Block::Paragraph(lines) => {
                for line in lines {
                    page.push_str(line);
                    page.push('\n');
                }
            }
            Block::Code(lines) => {
                page.push_str("```\n");
                for line in lines {
                    page.push_str(line);
                    page.push('\n');
                }
                page.push_str("```\n");
            }
        }
        page.push('\n');
    }
    page
}

fn lands_as_text(line: &str, chunks: &[Chunk], max_chars: usize) -> bool {
    if line.chars().count() <= max_chars {
        chunks.iter().any(|c| c.text.contains(line))
    } else {
        // An overlong line is cut at spaces; each of its (short) words lands whole.
        line.split_whitespace()
            .all(|w| chunks.iter().any(|c| c.text.contains(w)))
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn chunks_are_bounded_cover_every_line_and_are_deterministic(
        title in words(1..=5),
        blocks in prop::collection::vec(block(), 0..=14),
        max_chars in 64usize..=600,
    ) {
        let page = render(&blocks);
        let chunker = Chunker::new(max_chars);
        let chunks = chunker.chunk(&title, &page);

        for chunk in &chunks {
            prop_assert!(chunk.text.chars().count() <= max_chars, "{chunk:?}");
            prop_assert_eq!(&chunk.title, &title);
            prop_assert!(chunk.lines.0 >= 1 && chunk.lines.0 <= chunk.lines.1);
            prop_assert!(chunk.lines.1 <= page.lines().count());
        }
        for pair in chunks.windows(2) {
            prop_assert!(pair[0].lines.0 <= pair[1].lines.0, "chunks are in page order");
        }

        for block in &blocks {
            match block {
                Block::Heading { title, .. } => prop_assert!(
                    chunks.iter().any(|c| c.heading_path.contains(title)),
                    "heading {title:?} is in no chunk's path"
                ),
                Block::Paragraph(lines) => {
                    for line in lines {
                        prop_assert!(lands_as_text(line, &chunks, max_chars), "line {line:?} lost");
                    }
                }
                Block::Code(lines) => {
                    prop_assert!(chunks.iter().any(|c| c.text.contains("```")));
                    for line in lines {
                        prop_assert!(lands_as_text(line, &chunks, max_chars), "code {line:?} lost");
                    }
                }
            }
        }

        let ids: std::collections::HashSet<&str> = chunks.iter().map(|c| c.id.as_str()).collect();
        prop_assert_eq!(ids.len(), chunks.len(), "ids are unique within a page");
        prop_assert_eq!(&chunker.chunk(&title, &page), &chunks);
    }
}

#[test]
fn the_bound_has_a_floor() {
    assert_eq!(Chunker::new(0).max_chars(), semantic_search::MIN_MAX_CHARS);
    assert_eq!(
        Chunker::default().max_chars(),
        semantic_search::DEFAULT_MAX_CHARS
    );
}
