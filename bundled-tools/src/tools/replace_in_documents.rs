//! `replace_in_documents`: one exact text replacement across the pages a search or a space
//! selects, in two calls: a preview (which pages, how many replacements each, the version each
//! was read at; nothing written), then an apply of the pages the preview listed, each saved
//! through the write door under a compare-and-set on the version the preview showed.
//!
//! The preview reads only rows the search door let through (reach, space filter, view), so a
//! page the caller cannot view is never counted or named; a page it may view but not edit is
//! listed as refused. The apply resolves every page through the door first, announces all the
//! saves it will make (one confirmation question for the whole call), then saves page by page:
//! a page that fails (changed since the preview, refused) is listed with the reason and the
//! others are still saved; each page is one save, so none is ever half-replaced.

mod apply;
mod preview;
mod replace;

use mcp_runtime::output::lines::normalize_line_endings;
use std::borrow::Cow;
use wiki_tool_sdk::prelude::*;
use wiki_tool_sdk::untrusted::unescape;

use crate::seams::write_params::WriteParams;

/// The most pages one call lists (preview) or saves (apply).
const MAX_PAGES: usize = 50;

/// The longest find or replace text, in characters.
const MAX_TEXT_CHARS: usize = 100_000;

/// Replace an exact text across documents: preview (no pages), then apply to the pages the
/// preview printed.
#[mcp_tool(
    id = "replace_in_documents",
    write,
    confirm,
    output = Replaced,
    category = categories::AUTHORING,
    title = "Replace a text across documents",
    man = "NOTES
    find is replaced by replace wherever it occurs, exactly (case and spaces count), as
    edit_document's replace_all does; line endings are normalized to LF and the escapes a read
    shows (⟦U+200B⟧) stand for their characters.

    Preview (no pages): query selects pages by words (every word must occur, as in
    query_documents) and space keeps a space and its nested spaces; give either or both. The
    selected pages are read in title order, at most 200 per call, and each one that contains
    find is listed with its replacement count and version, at most 50. Pages you may view but
    not edit are listed as refused; pages you cannot view are never read or counted; hidden
    pages are left out. When more pages may match, the footer gives the offset that continues
    the scan (it counts selected pages, so it holds while the replacement does not change
    which pages query or space select). Nothing is written.

    Apply (pages): the preview ends with the exact pages argument to send, each page with the
    base_version it was previewed at (at most 50 pages). The person using your client is asked
    once, for all pages, when it can be asked. Each page is then saved as you, with your comment
    (stored prefixed `[AI] `), only if it is still at its base_version: a page changed since the
    preview is reported as a version conflict and nothing is written to it; preview again for
    its new version. A page that fails does not stop the others; the result lists each page's
    outcome and new version. The call is an error only when no page was saved. Each page is
    one save: never half-replaced. At most 10,000 replacements per page, and a page whose
    result would exceed 1,000,000 characters is refused.

EXAMPLES
    replace_in_documents find=\"Acme Inc.\" replace=\"Acme Corp.\" query=\"Acme\"
    replace_in_documents find=\"old-host:8080\" replace=\"new-host\" space=\"Ops\"
    replace_in_documents find=\"Acme Inc.\" replace=\"Acme Corp.\" pages=[{\"reference\": \"main:Sales.Q1\", \"base_version\": \"1.3\"}]

SEE ALSO
    edit_document (one page), query_documents, get_history"
)]
struct ReplaceInDocuments {
    /// The exact text to replace.
    #[param(raw)]
    find: String,
    /// Its replacement (may be empty).
    #[param(raw)]
    replace: String,
    /// Preview: words selecting pages, as in query_documents.
    query: Option<String>,
    /// Preview: a space, nested spaces included.
    space: Option<String>,
    /// Preview: selected pages to skip.
    offset: Option<usize>,
    /// Apply: the pages the preview printed.
    pages: Vec<PageAt>,
    #[param(flatten)]
    write: WriteParams,
}

/// A page to apply the replacement to, at the version the preview showed.
#[derive(Debug, Clone, ParamObject)]
struct PageAt {
    /// The document.
    reference: String,
    /// A translation.
    locale: Option<String>,
    /// The version the preview showed.
    base_version: String,
}

/// What a preview found or an apply did, page by page.
#[mcp_output]
struct Replaced {
    /// The pages, in order.
    pages: Vec<PageOutcome>,
    /// The offset continuing a preview, if more may match.
    next_offset: Option<u64>,
}

/// One page of a preview or an apply.
#[mcp_output]
struct PageOutcome {
    /// The document.
    reference: String,
    /// The translation, if any.
    locale: Option<String>,
    /// The version read.
    base_version: String,
    /// The version saved.
    version: Option<String>,
    /// Replacements made (or to make).
    replacements: u64,
    /// What became of it.
    status: Status,
    /// Why it was refused or not saved.
    error: Option<String>,
}

/// What became of one page.
#[mcp_output]
#[serde(rename_all = "snake_case")]
#[derive(PartialEq, Eq)]
enum Status {
    /// Preview: it contains the text and you may edit it.
    Matches,
    /// Preview: it contains the text but you may not edit it.
    Refused,
    /// Apply: saved with the replacement.
    Replaced,
    /// Apply: not saved (see error).
    Failed,
}

impl Execute<Structured<Replaced>> for ReplaceInDocuments {
    async fn execute(mut self, ctx: &ToolContext) -> ToolResult<Structured<Replaced>> {
        self.normalize();
        self.check()?;
        if self.pages.is_empty() {
            preview::preview(ctx, &self).await
        } else {
            apply::apply(ctx, &self).await
        }
    }
}

impl ReplaceInDocuments {
    /// find and replace as the agent meant them: escapes turned back into their characters,
    /// LF line endings (the store keeps LF).
    fn normalize(&mut self) {
        for text in [&mut self.find, &mut self.replace] {
            if let Cow::Owned(plain) = unescape(text) {
                *text = plain;
            }
            if let Cow::Owned(plain) = normalize_line_endings(text) {
                *text = plain;
            }
        }
    }

    /// The arguments every mode shares, and those one mode takes and the other refuses.
    fn check(&self) -> Result<(), ToolError> {
        if self.find.is_empty() {
            return Err(bad(
                "Error: 'find' is empty; give the exact text to replace (copied from \
                 get_document, without the line-number prefix).",
            ));
        }
        if self.find == self.replace {
            return Err(bad(
                "Error: 'find' and 'replace' are the same text, so nothing would change. Give \
                 the new text as 'replace'.",
            ));
        }
        for (name, text) in [("find", &self.find), ("replace", &self.replace)] {
            let chars = text.chars().count();
            if chars > MAX_TEXT_CHARS {
                return Err(ToolError::new(format!(
                    "Error: '{name}' is too large ({chars} characters; the limit is 100,000). \
                     Use edit_document or write_document for changes this large."
                ))
                .with_kind(ErrorKind::Budget));
            }
        }
        if self.pages.is_empty() {
            if self.query.is_none() && self.space.is_none() {
                return Err(bad(
                    "Error: give 'query' (words of the pages to change) or 'space' to select \
                     pages to preview, or 'pages' (from a preview) to apply.",
                ));
            }
            if self.write.comment.is_some() || self.write.major {
                return Err(bad(
                    "Error: 'comment' and 'major' apply to saves; a preview (no 'pages') saves \
                     nothing. Send them with 'pages' when you apply.",
                ));
            }
            return Ok(());
        }
        if self.query.is_some() || self.space.is_some() || self.offset.is_some() {
            return Err(bad(
                "Error: 'query', 'space' and 'offset' select pages for a preview; with 'pages' \
                 the call applies to exactly those pages. Drop them, or drop 'pages' to preview.",
            ));
        }
        if self.pages.len() > MAX_PAGES {
            return Err(ToolError::new(format!(
                "Error: 'pages' lists {} pages; at most {MAX_PAGES} are changed per call. Split \
                 them over several calls. Nothing was saved.",
                self.pages.len()
            ))
            .with_kind(ErrorKind::Budget));
        }
        Ok(())
    }
}

fn bad(message: &str) -> ToolError {
    ToolError::new(message).with_kind(ErrorKind::BadArgument)
}

/// `main:Sales.Q1` or `main:Sales.Q1 (fr)`, as the result lines name a page.
fn page_name(reference: &str, locale: Option<&str>) -> String {
    let reference = wiki_tool_sdk::untrusted::fragment(reference);
    match locale {
        Some(locale) => format!("{reference} ({locale})"),
        None => reference.into_owned(),
    }
}

/// `1 replacement`, `3 replacements`.
fn replacements(n: u64) -> String {
    crate::seams::counted::counted(
        usize::try_from(n).unwrap_or(usize::MAX),
        "replacement",
        "replacements",
    )
}
