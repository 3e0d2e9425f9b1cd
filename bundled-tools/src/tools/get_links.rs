//! `get_links`: the backlinks of a document (who links here) and its outgoing links
//! (what it links to), for navigation and for repairing links before a rename or delete.
//!
//! Backlinks are authorized row by row before they are counted: the store's farm-wide index is
//! asked only for wikis this endpoint reaches, at most [`BACKLINK_CEILING`] sources, then each
//! source goes through the row door (space filter, then view right). A denied source is neither
//! listed nor counted. Hidden sources are counted apart unless `showHidden`. The target itself
//! need not exist (broken links are exactly what a repair looks for), but it must pass the
//! document door: a caller learns nothing about pages it may not view.
//!
//! Outgoing links are listed as authored, from a row the caller may read (they are text of a
//! page the caller can read), each target of the page shown marked missing or deleted when it
//! is not there; a target the caller may not view reads as missing (`targets.rs`).

mod output;
mod targets;

use std::fmt::Write as _;

use mcp_runtime::output::budget::budgeted;
use wiki_tool_sdk::access::{AuthorizedReference, Doors, store_failure};
use wiki_tool_sdk::prelude::*;
use wiki_tool_sdk::store::model::link::{BacklinkPage, LinkTarget};
use wiki_tool_sdk::store::model::search::WikiScope;
use wiki_tool_sdk::store::reference::DocumentReference;
use wiki_tool_sdk::store::rights::Right;
use wiki_tool_sdk::untrusted::fragment;

use self::output::{
    DeletedOutput, IncomingLinks, LinkedAttachment, LinkedDocument, LinksOutput, OutgoingLinks,
    Status, page_slice,
};
use crate::seams::counted::{count, counted};
use crate::seams::deleted::{deletion, how_back};
use crate::seams::lookup::find_document;
use crate::seams::translation::{locale_argument, route};

/// The most backlink sources read from the index before authorization: the count
/// is then shown as `N+`.
const BACKLINK_CEILING: usize = 2000;

/// Show the links of a document: who links to it (backlinks), what it links to, or both.
#[mcp_tool(
    output = LinksOutput,
    id = "get_links",
    category = categories::SEARCH_AND_NAVIGATION,
    title = "Document links",
    man = "NOTES
    direction=in (the default) lists the documents you can view that link here: run it before
    you rename or delete a page, to find the links to repair. The target need not exist, so a
    broken link can be traced back to its sources. direction=out lists the links written in the
    page (documents and attachments); direction=both shows both.

    Backlinks (direction=in) come from the link index, which every save updates in the same
    transaction as the content: there is no indexing lag. Only wiki links are indexed: a
    Markdown link or image whose destination is a reference ([label](Space.Page),
    ![logo](attach:Space.Page@logo.png)). Plain URLs, autolinks and anchors are not wiki links.

    Every backlink source is checked as you: the endpoint's space filter, then your view right.
    A source you may not view is left out of the list AND of the count. At most 2000 sources
    are examined; beyond that the count reads `N+`. Hidden pages are counted apart
    (`(+H hidden)`) unless showHidden=true lists them. With cross-wiki reach, backlinks from
    every wiki of the farm are found; without it, only this wiki's.

    Outgoing links (direction=out) are listed exactly as the page's text has them, in order,
    under Documents: and Attachments:. Each target listed is checked: one that does not exist
    is marked `(missing)`, one in the recycle bin `(deleted)` (an attachment: it, or its
    document); an existing one is unmarked. A target you may not view is marked missing, like
    a page that does not exist. locale reads the links of one translation.

    When the document itself is in the recycle bin, the answer says who deleted it, when, and
    how it comes back (restore_document), instead of \"No such document\".

    limit and offset page each list; the footer gives the offset that continues. locale applies
    only to outgoing links and showHidden only to backlinks: other combinations are refused.
    A wiki-id prefix (wiki:Space.Page) or the wiki argument reaches another wiki only when this
    endpoint has cross-wiki reach (see list_wikis).

EXAMPLES
    get_links reference=\"Sandbox.WebHome\"
    get_links reference=\"Help.Guide\" direction=\"out\"
    get_links reference=\"Help.Guide\" direction=\"out\" locale=\"fr\"
    get_links reference=\"Old.Page\" direction=\"in\" showHidden=true limit=200
    get_links reference=\"Sandbox.WebHome\" direction=\"both\"

SEE ALSO
    get_document, get_tree, query_documents, edit_document"
)]
struct GetLinks {
    /// The document; a space name means its home page.
    reference: String,
    /// in (default): links to it; out: links in it; or both.
    direction: Option<Direction>,
    /// Outgoing links only: those of this translation.
    locale: Option<String>,
    /// Links per list.
    #[param(default = 50, range = 1..=200, clamp)]
    limit: usize,
    /// Links to skip in each list.
    #[param(default = 0)]
    offset: usize,
    /// Backlinks only: list hidden pages too.
    #[param(rename = "showHidden")]
    show_hidden: bool,
    /// Another wiki (list_wikis).
    #[param(extended)]
    wiki: Option<String>,
}

/// Which links to show.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ParamEnum)]
enum Direction {
    // Documents linking to this one.
    In,
    // Links written in this document.
    Out,
    // Both lists.
    Both,
}

/// One page of a list: `offset` and `limit` as checked numbers.
#[derive(Debug, Clone, Copy)]
struct Paging {
    offset: usize,
    limit: usize,
}

impl Execute<Structured<LinksOutput>> for GetLinks {
    async fn execute(self, ctx: &ToolContext) -> ToolResult<Structured<LinksOutput>> {
        let direction = self.direction.unwrap_or(Direction::In);
        let paging = self.paging()?;
        self.check_combinations(direction)?;
        let doors = ctx.doors()?;
        // The index has no rows for a wiki that does not exist: say so, not "0 backlinks".
        let authorized = doors
            .authorize_known(&self.reference, self.wiki.as_deref(), Right::View)
            .await?;
        let target = authorized.reference();
        let mut out = format!(
            "Links of {} (direction: {})\n",
            fragment(&target.to_string()),
            direction.wire()
        );
        let mut value = LinksOutput {
            reference: target.to_string(),
            incoming: None,
            outgoing: None,
        };
        if direction == Direction::In
            && !exists(doors, target).await?
            && let Some(entry) = doors.deleted_document(&authorized).await?
        {
            let _ = writeln!(
                out,
                "The document is in the recycle bin, {}. {}",
                deletion(&entry),
                how_back(doors, &entry)
            );
        }
        if matches!(direction, Direction::In | Direction::Both) {
            let page = backlinks(doors, target).await?;
            let (text, incoming) = self.incoming(ctx, doors, page, paging);
            out.push_str(&text);
            value.incoming = Some(incoming);
        }
        if direction == Direction::Both {
            out.push('\n');
            // A broken target still has backlinks worth showing: no error for its own links.
            if exists(doors, target).await? {
                let (text, outgoing) = self.outgoing(doors, &authorized, paging).await?;
                out.push_str(&text);
                value.outgoing = Some(outgoing);
            } else {
                let deleted = doors.deleted_document(&authorized).await?;
                match &deleted {
                    Some(entry) => {
                        let _ = writeln!(
                            out,
                            "Outgoing links: none (the document is in the recycle bin, {}). {}",
                            deletion(entry),
                            how_back(doors, entry)
                        );
                    }
                    None => out.push_str("Outgoing links: none (the document does not exist)\n"),
                }
                value.outgoing = Some(OutgoingLinks {
                    documents: Vec::new(),
                    total_documents: 0,
                    attachments: Vec::new(),
                    total_attachments: 0,
                    exists: false,
                    deleted: deleted.as_ref().map(DeletedOutput::new),
                });
            }
        } else if direction == Direction::Out {
            let (text, outgoing) = self.outgoing(doors, &authorized, paging).await?;
            out.push_str(&text);
            value.outgoing = Some(outgoing);
        }
        Ok(Structured::new(
            value,
            budgeted(out.trim_end()).into_owned(),
        ))
    }
}

impl GetLinks {
    fn paging(&self) -> Result<Paging, ToolError> {
        // The parser refused a negative offset and clamped limit to 1..=200.
        let (offset, limit) = (self.offset, self.limit);
        Ok(Paging { offset, limit })
    }

    /// The facts refuse arguments that would be silently ignored.
    fn check_combinations(&self, direction: Direction) -> Result<(), ToolError> {
        if self.locale.is_some() && direction == Direction::In {
            return Err(ToolError::new(
                "Error: 'locale' applies only to outgoing links (backlinks are found for the \
                 document as a whole). Use direction=\"out\" or \"both\", or drop 'locale'.",
            )
            .with_kind(ErrorKind::BadArgument));
        }
        if self.show_hidden && direction == Direction::Out {
            return Err(ToolError::new(
                "Error: 'showHidden' applies only to backlinks (outgoing links are listed as \
                 authored). Use direction=\"in\" or \"both\", or drop 'showHidden'.",
            )
            .with_kind(ErrorKind::BadArgument));
        }
        Ok(())
    }

    /// `Incoming links: N backlinks[ (+H hidden)|, hidden included]`, then one source per line;
    /// each source is authorized in turn, reported as progress.
    fn incoming(
        &self,
        ctx: &ToolContext,
        doors: &Doors,
        page: BacklinkPage,
        paging: Paging,
    ) -> (String, IncomingLinks) {
        let progress = ctx.progress_reporter();
        let sources = count(page.backlinks.len());
        let mut shown = Vec::new();
        let mut hidden = 0usize;
        for (index, backlink) in page.backlinks.into_iter().enumerate() {
            let checked = count(index + 1);
            progress.report(checked, Some(sources), || {
                format!("{checked} of {sources} linking documents authorized")
            });
            if !doors.row_visible(&backlink.source) {
                continue;
            }
            if backlink.hidden && !self.show_hidden {
                hidden += 1;
            } else {
                shown.push(backlink.source);
            }
        }
        let plus = if page.truncated { "+" } else { "" };
        let mut out = format!(
            "Incoming links: {}{plus} backlink{}",
            shown.len(),
            if shown.len() == 1 && plus.is_empty() {
                ""
            } else {
                "s"
            }
        );
        if self.show_hidden {
            out.push_str(", hidden included");
        } else if hidden > 0 {
            let _ = write!(out, " (+{hidden}{plus} hidden)");
        }
        out.push('\n');
        if sources == 0 {
            progress.report(0, Some(0), String::new);
        }
        let names: Vec<String> = shown.iter().map(ToString::to_string).collect();
        let value = IncomingLinks {
            sources: page_slice(&names, paging.offset, paging.limit),
            total: count(names.len()),
            hidden: count(hidden),
            truncated: page.truncated,
        };
        if shown.is_empty() {
            out.push_str(
                "No document you can view links here. Links are indexed when a page is saved; \
                 only wiki links ([label](Space.Page)) are indexed, not plain URLs.\n",
            );
            return (out, value);
        }
        let lines: Vec<String> = names
            .iter()
            .map(|source| format!("  {}", fragment(source)))
            .collect();
        out.push_str(&page_of(&lines, paging, "backlinks"));
        (out, value)
    }

    /// `Outgoing links: …`, then the `Documents:` and `Attachments:` sections as authored.
    async fn outgoing(
        &self,
        doors: &Doors,
        authorized: &AuthorizedReference,
        paging: Paging,
    ) -> Result<(String, OutgoingLinks), ToolError> {
        let target = authorized.reference();
        let found = find_document(doors, &target.to_string(), None).await?;
        let requested = locale_argument(self.locale.as_deref())?;
        let row = route(&found.locales, requested, target)?;
        let reference = target.clone();
        let links = doors
            .blocking(move |store| store.outgoing_links(&reference, row.as_ref()))
            .await?
            .map_err(|error| store_failure("read the document's links", &error))?
            .unwrap_or_default();
        let mut documents = Vec::new();
        let mut attachments = Vec::new();
        for link in links {
            match link {
                LinkTarget::Document(reference) => documents.push(reference),
                LinkTarget::Attachment { document, name } => attachments.push((document, name)),
            }
        }
        let shown_documents = page_slice(&documents, paging.offset, paging.limit);
        let shown_attachments = page_slice(&attachments, paging.offset, paging.limit);
        let (document_status, attachment_status) =
            targets::check(doors, &shown_documents, &shown_attachments).await?;
        let linked_documents: Vec<LinkedDocument> = shown_documents
            .iter()
            .zip(&document_status)
            .map(|(reference, status)| LinkedDocument {
                reference: reference.to_string(),
                status: *status,
            })
            .collect();
        let linked_attachments: Vec<LinkedAttachment> = shown_attachments
            .iter()
            .zip(&attachment_status)
            .map(|((document, name), status)| LinkedAttachment {
                document: document.to_string(),
                name: name.clone(),
                status: *status,
            })
            .collect();
        // Lines for the whole list (page_of prints this page's), marked where they were checked.
        let document_lines: Vec<String> = documents
            .iter()
            .enumerate()
            .map(|(index, reference)| {
                let status = index
                    .checked_sub(paging.offset)
                    .and_then(|at| document_status.get(at));
                format!("  {}{}", fragment(&reference.to_string()), mark(status))
            })
            .collect();
        let attachment_lines: Vec<String> = attachments
            .iter()
            .enumerate()
            .map(|(index, (document, name))| {
                let status = index
                    .checked_sub(paging.offset)
                    .and_then(|at| attachment_status.get(at));
                format!(
                    "  {}@{}{}",
                    fragment(&document.to_string()),
                    fragment(name),
                    mark(status)
                )
            })
            .collect();
        let broken = |statuses: &[Status], which: Status| {
            statuses.iter().filter(|status| **status == which).count()
        };
        let missing =
            broken(&document_status, Status::Missing) + broken(&attachment_status, Status::Missing);
        let deleted =
            broken(&document_status, Status::Deleted) + broken(&attachment_status, Status::Deleted);
        let value = OutgoingLinks {
            documents: linked_documents,
            total_documents: count(documents.len()),
            attachments: linked_attachments,
            total_attachments: count(attachments.len()),
            exists: true,
            deleted: None,
        };
        let mut out = format!(
            "Outgoing links: {}, {}",
            counted(documents.len(), "document", "documents"),
            counted(attachments.len(), "attachment", "attachments"),
        );
        if missing + deleted > 0 {
            let _ = write!(out, "; {missing} missing, {deleted} deleted");
        }
        out.push('\n');
        if documents.is_empty() && attachments.is_empty() {
            out.push_str("This document has no wiki links.\n");
            return Ok((out, value));
        }
        if !documents.is_empty() {
            out.push_str("Documents:\n");
            out.push_str(&page_of(&document_lines, paging, "document links"));
        }
        if !attachments.is_empty() {
            out.push_str("Attachments:\n");
            out.push_str(&page_of(&attachment_lines, paging, "attachment links"));
        }
        Ok((out, value))
    }
}

/// ` (missing)` or ` (deleted)` after a target that is not there; nothing after one that is.
fn mark(status: Option<&Status>) -> &'static str {
    match status {
        Some(Status::Missing) => " (missing)",
        Some(Status::Deleted) => " (deleted)",
        Some(Status::Exists) | None => "",
    }
}

impl Direction {
    fn wire(self) -> &'static str {
        match self {
            Direction::In => "in",
            Direction::Out => "out",
            Direction::Both => "both",
        }
    }
}

/// Backlink sources of `target` in the wikis this endpoint reaches (the others are dropped
/// before the ceiling, so they cannot crowd out reachable sources), sorted, at most the ceiling.
async fn backlinks(doors: &Doors, target: &DocumentReference) -> Result<BacklinkPage, ToolError> {
    let scope = if doors.reach() {
        WikiScope::All
    } else {
        WikiScope::Only(vec![doors.wiki().clone()])
    };
    let target = target.clone();
    doors
        .blocking(move |store| store.backlinks(&target, &scope, BACKLINK_CEILING))
        .await?
        .map_err(|error| store_failure("read the backlinks", &error))
}

/// Whether the document exists (asked only after the door let the caller through).
async fn exists(doors: &Doors, reference: &DocumentReference) -> Result<bool, ToolError> {
    let reference = reference.clone();
    doors
        .blocking(move |store| store.document_locales(&reference))
        .await?
        .map(|locales| locales.is_some())
        .map_err(|error| store_failure("read the document", &error))
}

/// The lines of one page of a list, and a footer line when more follow or the offset is past
/// the end.
fn page_of(lines: &[String], paging: Paging, what: &str) -> String {
    let mut out = String::new();
    if paging.offset >= lines.len() {
        let _ = writeln!(
            out,
            "  (no {what} at offset {}: there are {}; use a smaller offset)",
            paging.offset,
            lines.len()
        );
        return out;
    }
    let end = paging.offset.saturating_add(paging.limit).min(lines.len());
    for line in &lines[paging.offset..end] {
        out.push_str(line);
        out.push('\n');
    }
    if end < lines.len() {
        let _ = writeln!(
            out,
            "Showing {what} {}-{end} of {}; continue with offset={end}.",
            paging.offset + 1,
            lines.len()
        );
    }
    out
}
