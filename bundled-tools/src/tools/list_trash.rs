//! `list_trash`: the recycle bin entries the caller may view, newest first, through the bin's
//! door (reach, then each entry's page through the space filter and the view right, before it
//! is counted or paged).

use std::collections::HashSet;
use std::fmt::Write as _;

use mcp_runtime::output::budget::budgeted;
use mcp_runtime::output::guard::fragment;
use wiki_tool_sdk::access::EXAMINED_CEILING;
use wiki_tool_sdk::prelude::*;
use wiki_tool_sdk::store::model::trash::TrashEntry;

use crate::seams::counted::{count, counted};
use crate::seams::deleted::{DeletedOutput, deletion};
use crate::seams::paging::offset_past_end;

/// List the recycle bin entries you may view, newest first.
#[mcp_tool(
    id = "list_trash",
    output = TrashOutput,
    category = categories::SEARCH_AND_NAVIGATION,
    title = "List the recycle bin",
    man = "NOTES
    Deleting a document moves it to the recycle bin with everything on it; deleting an
    attachment moves that attachment. Each deletion is one entry: `#<id> <page>` (or
    `<page>@<file> (attachment)`), then who deleted it, when (UTC, to the minute), the version
    the document was at and the deletion comment. A page deleted, re-created and deleted again
    has an entry per deletion. An entry whose page exists again says `(exists again)`: restoring
    it is refused until that page is renamed or deleted. restore_document reference=<page>
    brings a page back (entry=<id> for another entry).

    Only entries of pages you may view are listed and counted (the endpoint's space filter,
    then your view right, as for any page). At most 5000 entries are examined per call; past
    that the count reads `at least`. limit is 1-200 (default 50); an offset past the end is an
    error. With cross-wiki reach, wiki lists another wiki's bin.

EXAMPLES
    list_trash
    list_trash space=\"Sandbox\" limit=20
    list_trash offset=50

SEE ALSO
    restore_document, delete_document, get_document"
)]
struct ListTrash {
    /// A space, nested spaces included.
    space: Option<String>,
    /// Entries per page.
    #[param(default = 50, range = 1..=200, clamp)]
    limit: usize,
    /// Entries to skip.
    #[param(default = 0)]
    offset: usize,
    /// Another wiki (list_wikis).
    #[param(extended)]
    wiki: Option<String>,
}

/// A page of the recycle bin.
#[mcp_output]
struct TrashOutput {
    /// The wiki whose bin is listed.
    wiki: String,
    /// The entries of this page, newest first.
    entries: Vec<TrashListed>,
    /// Entries you may view in all (at least this many when `truncated`).
    total: u64,
    /// Whether the count stopped at the examination ceiling, so more may exist.
    truncated: bool,
    /// The `offset` that reads on; null when this page reaches the end.
    next_offset: Option<u64>,
}

/// One entry of the recycle bin.
#[mcp_output]
struct TrashListed {
    /// The deletion.
    #[serde(flatten)]
    deleted: DeletedOutput,
    /// Whether a page of that name exists again (a document entry can then not be restored).
    exists_again: bool,
}

impl Execute<Structured<TrashOutput>> for ListTrash {
    async fn execute(self, ctx: &ToolContext) -> ToolResult<Structured<TrashOutput>> {
        // The parser refused a negative offset and clamped limit to 1..=200.
        let (offset, limit) = (self.offset, self.limit);
        let space = self.space()?;
        let doors = ctx.doors()?;
        let wiki = doors.single_wiki(self.wiki.as_deref())?;
        let page = doors
            .trash(
                wiki.clone(),
                space.clone(),
                offset,
                limit,
                ctx.scan_signals("recycle bin entries authorized"),
            )
            .await?;
        let at_least = if page.truncated { "at least " } else { "" };
        let within = space
            .as_ref()
            .map(|space| format!(" in space {}", fragment(&space.to_string())))
            .unwrap_or_default();
        if page.total == 0 {
            let value = TrashOutput {
                wiki: wiki.to_string(),
                entries: Vec::new(),
                total: 0,
                truncated: page.truncated,
                next_offset: None,
            };
            let text = format!(
                "The recycle bin of {wiki} holds nothing you may view{within}{}.",
                if page.truncated {
                    format!(" among the newest {EXAMINED_CEILING} entries")
                } else {
                    String::new()
                }
            );
            return Ok(Structured::new(value, text));
        }
        if offset >= page.total {
            return Err(offset_past_end(
                offset,
                page.total,
                "entry",
                &counted(page.total, "entry", "entries"),
            ));
        }
        let again = exists_again(doors, &page.entries).await?;
        let mut out = format!(
            "Recycle bin of {wiki}{within}: {at_least}{} you may view, newest first\n",
            counted(page.total, "entry", "entries")
        );
        let mut entries = Vec::with_capacity(page.entries.len());
        for entry in &page.entries {
            let exists = entry.attachment.is_none() && again.contains(&entry.reference);
            let _ = writeln!(
                out,
                "  #{} {}{}: {}",
                entry.id,
                named(entry),
                if exists { " (exists again)" } else { "" },
                deletion(entry)
            );
            entries.push(TrashListed {
                deleted: DeletedOutput::new(entry),
                exists_again: exists,
            });
        }
        let end = offset + page.entries.len();
        let next_offset = (end < page.total).then_some(end);
        if let Some(next) = next_offset {
            let _ = writeln!(
                out,
                "Showing entries {}-{end} of {at_least}{}; continue with offset={next}.",
                offset + 1,
                page.total
            );
        }
        out.push_str(
            "restore_document reference=<page> brings a page back (entry=<id> for another entry).",
        );
        let value = TrashOutput {
            wiki: wiki.to_string(),
            entries,
            total: count(page.total),
            truncated: page.truncated,
            next_offset: next_offset.map(count),
        };
        Ok(Structured::new(value, budgeted(&out).into_owned()))
    }
}

impl ListTrash {
    /// The `space` filter, parsed.
    fn space(&self) -> Result<Option<SpacePath>, ToolError> {
        let Some(space) = self
            .space
            .as_deref()
            .map(str::trim)
            .filter(|s| !s.is_empty())
        else {
            return Ok(None);
        };
        SpacePath::parse(space).map(Some).map_err(|error| {
            ToolError::new(format!(
                "Error: 'space' must be a space name such as \"Sandbox\" or \"Sales.Europe\" \
                 (got \"{}\": {error}).",
                fragment(space)
            ))
            .with_kind(ErrorKind::BadArgument)
        })
    }
}

/// `main:Sandbox.Old`, or `main:Sandbox.WebHome@logo.png (attachment)`.
fn named(entry: &TrashEntry) -> String {
    let page = fragment(&entry.reference.to_string()).into_owned();
    match &entry.attachment {
        None => page,
        Some(name) => format!("{page}@{} (attachment)", fragment(name)),
    }
}

/// The pages of the document entries listed that exist again.
async fn exists_again(
    doors: &Doors,
    entries: &[TrashEntry],
) -> Result<HashSet<DocumentReference>, ToolError> {
    let pages: Vec<DocumentReference> = entries
        .iter()
        .filter(|entry| entry.attachment.is_none())
        .map(|entry| entry.reference.clone())
        .collect::<HashSet<_>>()
        .into_iter()
        .collect();
    doors
        .blocking(move |store| {
            let mut found = HashSet::new();
            for page in pages {
                if store.document_locales(&page)?.is_some() {
                    found.insert(page);
                }
            }
            Ok::<_, StoreError>(found)
        })
        .await?
        .map_err(|error| store_failure("read the recycle bin", &error))
}
