//! `get_documents`: several documents (or windows of them) read in one call, sharing one output
//! budget, so reading a page's neighbours or a search's hits is one call instead of one per page.
//!
//! Each document goes through the same steps as get_document's source view (the door, then
//! existence, the recycle bin, the locale) and fails on its own: the others are still read. The
//! budget is shared fairly: a document that needs less than an equal share leaves the rest to
//! the others, and one cut at its share says where to continue.

use mcp_runtime::output::budget::{MAX_OUTPUT_CHARS, budgeted};
use mcp_runtime::output::lines::normalize_line_endings;
use wiki_tool_sdk::access::{Doors, store_failure};
use wiki_tool_sdk::prelude::*;
use wiki_tool_sdk::untrusted::fragment;

use crate::seams::counted::counted;
use crate::seams::lookup::find_document;
use crate::seams::translation::{locale_argument, route};
use crate::seams::window::{LineWindow, line_window_within, split_lines, window_size};
use crate::seams::window_output::WindowOutput;

/// The most documents one call reads.
const MAX_DOCUMENTS: usize = 20;

/// Characters set aside per document for its footer (where to continue, unusual line ends).
const FOOTER_RESERVE: usize = 200;

/// Read several documents' sources (numbered lines, or windows) at once, in one output budget.
#[mcp_tool(
    id = "get_documents",
    output = DocumentsOutput,
    category = categories::SEARCH_AND_NAVIGATION,
    title = "Read several documents",
    man = "NOTES
    documents lists up to 20 pages, each {\"reference\": ..., \"offset\"?, \"limit\"?,
    \"locale\"?} as get_document takes them. A page that cannot be read (missing, deleted, not
    visible) gets the reason in its place; the others are still read. Each header gives the
    version to pass as base_version.

    Each document is read as get_document reads its source: the same rights, the same numbered
    lines (`cat -n` style: never copy the number or the TAB into an edit), the same answer for a
    page in the recycle bin. Its header line is `=== <reference> · <title> · version <v> · <n>
    lines`, with the language after the reference when a translation is read.

    The ~24,000-character budget is shared: every document first gets an equal share, and what
    a short one does not need goes to the others. A document cut at its share ends with
    `Showing lines a-b of n. Output truncated at this document's share …; continue with
    offset=<b+1>` (a line longer than its share is cut inside, with the column that continues
    it): read the rest with get_document, or here with that offset. A page shown whole has no
    footer. offset and limit pick a window as in get_document. At most 20 documents per call;
    a document that fails (no such page, deleted, no view right, no such translation, an offset
    past its end) says why in its place and does not stop the others. The call is an error
    only when every document fails.

EXAMPLES
    get_documents documents=[{\"reference\": \"Help.Guide\"}, {\"reference\": \"Sandbox.WebHome\"}]
    get_documents documents=[{\"reference\": \"Help.Guide\", \"offset\": 40, \"limit\": 20}, {\"reference\": \"Help.Guide\", \"locale\": \"fr\"}]

SEE ALSO
    get_document (one page, outlines and rendered views), query_documents, get_links"
)]
struct GetDocuments {
    /// The documents to read, in order (1-20).
    documents: Vec<Wanted>,
    /// Another wiki (list_wikis).
    #[param(extended)]
    wiki: Option<String>,
}

/// One document to read, and which part of it.
#[derive(Debug, Clone, ParamObject)]
struct Wanted {
    /// The document.
    reference: String,
    /// A translation.
    locale: Option<String>,
    /// The first line to show.
    #[param(range = 1..)]
    offset: Option<usize>,
    /// Lines to show from offset.
    #[param(range = 1..)]
    limit: Option<usize>,
}

/// Documents read.
#[mcp_output]
struct DocumentsOutput {
    /// One entry per document asked for, in order.
    documents: Vec<DocumentRead>,
}

/// One document read, or why it could not be.
#[mcp_output]
struct DocumentRead {
    /// The document (`wiki:Space.Page`), or the reference as given when it could not be read.
    reference: String,
    /// The translation read, or null for the default row.
    locale: Option<String>,
    /// Its title; null when it could not be read.
    title: Option<String>,
    /// The version read (pass it as `base_version`); null when it could not be read.
    version: Option<String>,
    /// The lines the text shows; null when it could not be read.
    window: Option<WindowOutput>,
    /// Why it could not be read; null when it was.
    error: Option<String>,
}

/// A document's row as read, before its window is cut.
struct Row {
    reference: String,
    locale: Option<Locale>,
    title: String,
    version: Version,
    content: String,
}

impl Execute<Structured<DocumentsOutput>> for GetDocuments {
    async fn execute(self, ctx: &ToolContext) -> ToolResult<Structured<DocumentsOutput>> {
        if self.documents.is_empty() || self.documents.len() > MAX_DOCUMENTS {
            return Err(ToolError::new(format!(
                "Error: 'documents' lists {} documents; give 1 to {MAX_DOCUMENTS} (split a \
                 longer list over several calls).",
                self.documents.len()
            ))
            .with_kind(ErrorKind::BadArgument));
        }
        let doors = ctx.doors()?;
        let mut rows = Vec::with_capacity(self.documents.len());
        for wanted in &self.documents {
            rows.push(read(doors, wanted, self.wiki.as_deref()).await);
        }
        let headers: Vec<String> = rows
            .iter()
            .zip(&self.documents)
            .map(|(row, wanted)| header(row, wanted))
            .collect();
        let needs: Vec<usize> = rows
            .iter()
            .zip(&self.documents)
            .map(|(row, wanted)| match row {
                Ok(row) => window_size(&row.content, wanted.offset, wanted.limit),
                Err(_) => 0,
            })
            .collect();
        let fixed: usize = headers.iter().map(|h| h.chars().count() + 1).sum::<usize>()
            + FOOTER_RESERVE * rows.len();
        let shares = share(&needs, MAX_OUTPUT_CHARS.saturating_sub(fixed));
        let mut out = String::new();
        let mut documents = Vec::with_capacity(rows.len());
        for (index, (row, wanted)) in rows.into_iter().zip(&self.documents).enumerate() {
            if index > 0 {
                out.push('\n');
            }
            out.push_str(&headers[index]);
            out.push('\n');
            let shown = row.and_then(|row| {
                let window = line_window_within(
                    &row.content,
                    wanted.offset,
                    wanted.limit,
                    shares[index],
                    "document",
                )?;
                Ok((row, window))
            });
            match shown {
                Ok((row, window)) => {
                    out.push_str(&body(&window));
                    documents.push(DocumentRead {
                        reference: row.reference,
                        locale: row.locale.map(|l| l.to_string()),
                        title: Some(row.title),
                        version: Some(row.version.to_string()),
                        window: Some(WindowOutput::new(&window)),
                        error: None,
                    });
                }
                Err(error) => {
                    out.push_str(error.message());
                    documents.push(DocumentRead {
                        reference: wanted.reference.clone(),
                        locale: wanted.locale.clone(),
                        title: None,
                        version: None,
                        window: None,
                        error: Some(error.message().to_owned()),
                    });
                }
            }
            out.push('\n');
        }
        let text = budgeted(out.trim_end()).into_owned();
        if documents.iter().all(|document| document.error.is_some()) {
            return Err(ToolError::new(text).with_kind(ErrorKind::NotFound));
        }
        Ok(Structured::new(DocumentsOutput { documents }, text))
    }
}

/// Reads one document's row: the door, existence (or the recycle bin), the locale.
async fn read(doors: &Doors, wanted: &Wanted, wiki: Option<&str>) -> Result<Row, ToolError> {
    let found = find_document(doors, &wanted.reference, wiki).await?;
    let requested = locale_argument(wanted.locale.as_deref())?;
    let locale = route(&found.locales, requested, found.reference())?;
    let reference = found.reference().clone();
    let row = locale.clone();
    let document = doors
        .blocking(move |store| store.document(&reference, row.as_ref()))
        .await?
        .map_err(|error| store_failure("read the document", &error))?
        .ok_or_else(|| {
            ToolError::new(format!(
                "No such document: \"{}\".",
                fragment(&found.reference().to_string())
            ))
            .with_kind(ErrorKind::NotFound)
        })?;
    let title = if document.title.trim().is_empty() {
        found.reference().name().to_owned()
    } else {
        document.title
    };
    Ok(Row {
        reference: found.reference().to_string(),
        locale,
        title,
        version: document.version,
        content: normalize_line_endings(&document.content).into_owned(),
    })
}

/// `=== main:Help.Guide · Guide · version 1.1 · 11 lines`, or the reference as asked for
/// when the document could not be read.
fn header(row: &Result<Row, ToolError>, wanted: &Wanted) -> String {
    match row {
        Ok(row) => {
            let language = row
                .locale
                .as_ref()
                .map_or_else(String::new, |locale| format!(" ({locale})"));
            format!(
                "=== {}{language} · {} · version {} · {}",
                fragment(&row.reference),
                fragment(&row.title),
                row.version,
                counted(split_lines(&row.content).len(), "line", "lines")
            )
        }
        Err(_) => format!("=== {}", fragment(&wanted.reference)),
    }
}

/// The window's lines, with its footer unless it shows the whole text plainly.
fn body(window: &LineWindow) -> String {
    if window.total == 0 {
        return "(empty)".to_owned();
    }
    let whole = window.first == 1 && window.last == window.total && !window.was_cut();
    let footer = window.footer();
    let plain = format!("Showing lines 1-{} of {}.", window.total, window.total);
    if whole && footer == plain {
        window.body.clone()
    } else {
        window.with_footer()
    }
}

/// Each document's share of `budget`: an equal share each, and what a document needs less than
/// its share goes to the others (smallest needs served first).
fn share(needs: &[usize], budget: usize) -> Vec<usize> {
    let mut order: Vec<usize> = (0..needs.len()).collect();
    order.sort_by_key(|&index| needs[index]);
    let mut shares = vec![0; needs.len()];
    let mut left = budget;
    for (served, &index) in order.iter().enumerate() {
        let equal = left / (needs.len() - served);
        let given = needs[index].min(equal);
        shares[index] = given.max(1);
        left -= given;
    }
    shares
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_documents_leave_their_share_to_long_ones() {
        assert_eq!(share(&[100, 50_000, 200], 9_000), [100, 8_700, 200]);
        assert_eq!(share(&[50_000, 50_000, 100], 10_100), [5_000, 5_000, 100]);
        assert_eq!(share(&[10, 20], 1_000), [10, 20]);
        assert_eq!(share(&[0], 1_000), [1]);
    }
}
