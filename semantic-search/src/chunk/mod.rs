//! Splitting a page into the chunks an index embeds: along its headings, each of bounded size,
//! each knowing its page title and heading path, each with a stable id and a content digest.
//!
//! Pure: no model, no store. The bound is in characters, not word pieces, on purpose. The
//! chunks (and so their ids and digests) must not change when the tokenizer or the model does,
//! and must be computable where no model is installed (the index can plan what to embed before
//! it has anything to embed with). The default, [`DEFAULT_MAX_CHARS`], is chosen against the
//! model's window of 254 word pieces (256 minus `[CLS]` and `[SEP]`): with this tokenizer English
//! prose runs at about 4.5 characters per piece and technical documentation full of identifiers
//! at about 3.5 (measured on this repository's Markdown), so 800 characters are 180 to 230
//! pieces and, with the title and heading path in front, still fit. Text that tokenizes more
//! densely (code, CJK) loses the tail of a full chunk to the model's truncation; the chunk's text
//! is still stored whole, so keyword search and display see all of it. A smaller bound would
//! embed more chunks for the same text and give each less context.
//!
//! An index keeps, per page, each chunk's [`Chunk::id`] and [`Chunk::digest`]; after an edit it
//! re-embeds only the chunks whose digest it has not seen, and drops the ids that are gone.

mod pack;

use std::collections::HashMap;

use mcp_runtime::output::lines::split_lines;
use wiki_tool_sdk::markdown::headings;

use crate::digest;

/// The default bound on a chunk's text, in characters (see the module documentation).
pub const DEFAULT_MAX_CHARS: usize = 800;

/// The smallest bound accepted: below it a heading path alone would not leave room for text.
pub const MIN_MAX_CHARS: usize = 64;

/// One piece of a page, ready to embed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Chunk {
    /// Stable within the page: derived from the heading path (with the occurrence number of a
    /// repeated path) and the chunk's position inside its section, not from the text. An edit
    /// inside one section changes no other section's ids. 32 hex characters.
    pub id: String,
    /// SHA-256 (hex) of [`Chunk::embedding_input`]: equal digests, equal embeddings. A retitle
    /// changes every digest, since the title is part of what is embedded.
    pub digest: String,
    /// The page's title.
    pub title: String,
    /// The titles of the headings the chunk sits under, outermost first; empty before the
    /// first heading.
    pub heading_path: Vec<String>,
    /// The chunk's Markdown: its lines as the page has them (indentation kept), paragraphs
    /// joined by one blank line, heading lines left out (they are in `heading_path`). At most
    /// the chunker's `max_chars` characters; empty for a heading with no text of its own.
    pub text: String,
    /// The first and last page lines (1-based) the chunk covers, heading line included, so a
    /// reader can open the page at the passage (`get_document` `offset=`).
    pub lines: (usize, usize),
}

impl Chunk {
    /// What is embedded: the title, the heading path, then the text, so that "Installation"
    /// under "Linux" on page "Server guide" is found by a query about installing the server
    /// on Linux even when the paragraph itself says neither.
    pub fn embedding_input(&self) -> String {
        embedding_input(&self.title, &self.heading_path, &self.text)
    }
}

fn embedding_input(title: &str, path: &[String], text: &str) -> String {
    let mut input = String::with_capacity(title.len() + text.len() + 64);
    input.push_str(title.trim());
    if !path.is_empty() {
        if !input.is_empty() {
            input.push('\n');
        }
        input.push_str(&path.join(" > "));
    }
    if !text.is_empty() {
        if !input.is_empty() {
            input.push_str("\n\n");
        }
        input.push_str(text);
    }
    input
}

/// Splits pages into chunks of at most `max_chars` characters of text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Chunker {
    max_chars: usize,
}

impl Default for Chunker {
    fn default() -> Self {
        Chunker {
            max_chars: DEFAULT_MAX_CHARS,
        }
    }
}

/// A section: the text under one heading up to the next heading of any level.
struct Section<'a> {
    path: Vec<String>,
    level: usize,
    /// The 0-based line of the heading (or 0 for the text before the first heading).
    start: usize,
    body: Vec<(usize, &'a str)>,
}

impl Chunker {
    /// A chunker with its own bound (raised to [`MIN_MAX_CHARS`] if lower).
    pub fn new(max_chars: usize) -> Chunker {
        Chunker {
            max_chars: max_chars.max(MIN_MAX_CHARS),
        }
    }

    /// The bound on a chunk's text, in characters.
    pub fn max_chars(&self) -> usize {
        self.max_chars
    }

    /// The chunks of a page, in page order. The same title and Markdown always give the same
    /// chunks. A section with no text of its own gives a chunk with empty text only when no
    /// subsection follows it (a subsection's chunks carry its heading in their path).
    pub fn chunk(&self, title: &str, markdown: &str) -> Vec<Chunk> {
        let source = markdown.replace("\r\n", "\n").replace('\r', "\n");
        // Lines as get_document's windows number them, so a chunk's lines are the page's.
        let lines: Vec<&str> = split_lines(&source)
            .into_iter()
            .map(|line| line.text)
            .collect();
        let sections = sections(&source, &lines);
        let mut seen_paths: HashMap<Vec<String>, usize> = HashMap::new();
        let mut chunks = Vec::new();
        for (index, section) in sections.iter().enumerate() {
            let occurrence = seen_paths.entry(section.path.clone()).or_insert(0);
            let section_key = section_key(&section.path, *occurrence);
            *occurrence += 1;
            let mut pieces = pack::pack(&section.body, self.max_chars);
            let has_subsection = sections
                .get(index + 1)
                .is_some_and(|next| next.level > section.level);
            if pieces.is_empty() && section.level > 0 && !has_subsection {
                pieces.push(pack::Piece {
                    text: String::new(),
                    first_line: section.start,
                    last_line: section.start,
                });
            }
            for (position, piece) in pieces.into_iter().enumerate() {
                let first_line = if position == 0 {
                    section.start.min(piece.first_line)
                } else {
                    piece.first_line
                };
                let input = embedding_input(title, &section.path, &piece.text);
                chunks.push(Chunk {
                    id: chunk_id(&section_key, position),
                    digest: digest::of_bytes(input.as_bytes()),
                    title: title.trim().to_owned(),
                    heading_path: section.path.clone(),
                    text: piece.text,
                    lines: (first_line + 1, piece.last_line + 1),
                });
            }
        }
        chunks
    }
}

/// The page cut at its headings; the text before the first heading is a section of level 0
/// with an empty path.
fn sections<'a>(source: &str, lines: &[&'a str]) -> Vec<Section<'a>> {
    // The headings' 1-based lines, as 0-based indexes into `lines`.
    let headings: Vec<_> = headings(source)
        .into_iter()
        .map(|heading| {
            let first = heading.lines.start().saturating_sub(1);
            let last = heading.lines.end().saturating_sub(1);
            (heading.level, first..=last, heading.title)
        })
        .collect();
    let mut sections = Vec::with_capacity(headings.len() + 1);
    let mut stack: Vec<(usize, String)> = Vec::new();
    let first_heading_line = headings
        .first()
        .map_or(lines.len(), |(_, lines, _)| *lines.start());
    sections.push(Section {
        path: Vec::new(),
        level: 0,
        start: 0,
        body: numbered(lines, 0, first_heading_line),
    });
    for (i, (level, heading_lines, title)) in headings.iter().enumerate() {
        while stack.last().is_some_and(|(open, _)| open >= level) {
            stack.pop();
        }
        if !title.is_empty() {
            stack.push((*level, title.clone()));
        }
        let body_end = headings
            .get(i + 1)
            .map_or(lines.len(), |(_, next, _)| *next.start());
        sections.push(Section {
            path: stack.iter().map(|(_, title)| title.clone()).collect(),
            level: *level,
            start: *heading_lines.start(),
            body: numbered(lines, heading_lines.end() + 1, body_end),
        });
    }
    sections
}

fn numbered<'a>(lines: &[&'a str], from: usize, to: usize) -> Vec<(usize, &'a str)> {
    (from..to.min(lines.len())).map(|i| (i, lines[i])).collect()
}

/// A key for a section: its path and which occurrence of that path it is, each title
/// length-prefixed so that no two different paths give the same key.
fn section_key(path: &[String], occurrence: usize) -> String {
    let mut key = String::new();
    for title in path {
        key.push_str(&format!("{}:{title}/", title.len()));
    }
    key.push_str(&format!("#{occurrence}"));
    key
}

fn chunk_id(section_key: &str, position: usize) -> String {
    let mut id = digest::of_bytes(format!("{section_key}@{position}").as_bytes());
    id.truncate(32);
    id
}

#[cfg(test)]
mod tests {
    use super::*;

    const PAGE: &str = "Intro line.\n\n# Install\n\nDownload it.\n\n## Linux\n\nRun the script.\n\n## Windows\n\nRun the installer.\n\n# FAQ\n";

    fn summary(chunks: &[Chunk]) -> Vec<(Vec<&str>, &str, (usize, usize))> {
        chunks
            .iter()
            .map(|c| {
                (
                    c.heading_path.iter().map(String::as_str).collect(),
                    c.text.as_str(),
                    c.lines,
                )
            })
            .collect()
    }

    #[test]
    fn sections_follow_the_headings_with_their_paths_and_lines() {
        let chunks = Chunker::default().chunk("Guide", PAGE);
        assert_eq!(
            summary(&chunks),
            [
                (vec![], "Intro line.", (1, 1)),
                (vec!["Install"], "Download it.", (3, 5)),
                (vec!["Install", "Linux"], "Run the script.", (7, 9)),
                (vec!["Install", "Windows"], "Run the installer.", (11, 13)),
                (vec!["FAQ"], "", (15, 15)),
            ]
        );
        assert!(chunks.iter().all(|c| c.title == "Guide"));
        assert_eq!(
            chunks[2].embedding_input(),
            "Guide\nInstall > Linux\n\nRun the script."
        );
    }

    #[test]
    fn a_heading_with_subsections_and_no_text_gives_no_chunk_of_its_own() {
        let chunks = Chunker::default().chunk("T", "# A\n## B\nbody\n");
        assert_eq!(summary(&chunks), [(vec!["A", "B"], "body", (2, 3))]);
    }

    #[test]
    fn an_edit_changes_only_its_own_sections_digest_and_no_id() {
        let before = Chunker::default().chunk("Guide", PAGE);
        let after = Chunker::default().chunk("Guide", &PAGE.replace("the script", "setup.sh"));
        assert_eq!(before.len(), after.len());
        for (b, a) in before.iter().zip(&after) {
            assert_eq!(b.id, a.id);
            assert_eq!(b.digest == a.digest, b.heading_path != ["Install", "Linux"]);
        }
        let retitled = Chunker::default().chunk("Handbook", PAGE);
        assert!(
            before
                .iter()
                .zip(&retitled)
                .all(|(b, r)| b.id == r.id && b.digest != r.digest)
        );
    }

    #[test]
    fn repeated_headings_get_distinct_ids() {
        let chunks = Chunker::default().chunk("T", "# Example\none\n# Example\ntwo\n");
        assert_eq!(chunks.len(), 2);
        assert_ne!(chunks[0].id, chunks[1].id);
        assert_eq!(chunks[0].id.len(), 32);
    }

    #[test]
    fn long_sections_split_and_keep_their_path_and_headings_in_code_are_text() {
        let body: String = (0..30)
            .map(|i| format!("Sentence number {i} of the part.\n\n"))
            .collect();
        let page = format!("# Part\n\n```\n# not a heading\n```\n\n{body}");
        let chunker = Chunker::new(200);
        let chunks = chunker.chunk("T", &page);
        assert!(chunks.len() > 3, "{}", chunks.len());
        assert!(chunks.iter().all(|c| c.heading_path == ["Part"]));
        assert!(chunks.iter().all(|c| c.text.chars().count() <= 200));
        assert!(chunks[0].text.starts_with("```\n# not a heading\n```"));
        let ids: std::collections::HashSet<&str> = chunks.iter().map(|c| c.id.as_str()).collect();
        assert_eq!(ids.len(), chunks.len());
    }

    #[test]
    fn crlf_pages_chunk_like_lf_pages_and_empty_pages_give_nothing() {
        let lf = Chunker::default().chunk("T", PAGE);
        let crlf = Chunker::default().chunk("T", &PAGE.replace('\n', "\r\n"));
        assert_eq!(lf, crlf);
        assert!(Chunker::default().chunk("T", "  \n\n").is_empty());
    }
}
