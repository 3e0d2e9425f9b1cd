//! `get_history`: a document row's revisions (list), one revision's content
//! (version, through the line window), or a unified diff between two revisions within the budget.
//!
//! Version strings are checked against the strict grammar before anything else, the door
//! included: a provider-prefixed or malformed string (`deleted:3`, `xar:2.1`, `1.2.3`, `""`)
//! never reaches the store.

mod output;
mod structure;

use std::fmt::Write as _;

use mcp_runtime::output::budget::{MAX_OUTPUT_CHARS, MAX_OUTPUT_TOKENS};
use wiki_tool_sdk::access::{AuthorizedReference, Doors, store_failure};
use wiki_tool_sdk::instant::iso_instant;
use wiki_tool_sdk::prelude::*;
use wiki_tool_sdk::store::StoreError;
use wiki_tool_sdk::store::model::history::{DiffHunk, HistoryPage, Revision, RevisionDiff};
use wiki_tool_sdk::store::model::locale::Locale;
use wiki_tool_sdk::store::model::version::Version;
use wiki_tool_sdk::untrusted::fragment;

use self::output::{HistoryMode, HistoryOutput, RevisionOutput};
use crate::seams::counted::counted;
use crate::seams::history::{revision_line, version_argument};
use crate::seams::lookup::find_document;
use crate::seams::paging::offset_past_end;
use crate::seams::translation::{locale_argument, route};
use crate::seams::urls::{Target, link};
use crate::seams::window::line_window_at;
use crate::seams::window_output::WindowOutput;

/// How many revisions the "no such revision" error lists.
const NEWEST_LISTED: usize = 5;

/// Read a document's revision history: list revisions, show one version (never take
/// base_version from it), or diff two.
#[mcp_tool(
    output = HistoryOutput,
    id = "get_history",
    category = categories::SEARCH_AND_NAVIGATION,
    title = "Read revision history",
    man = "NOTES
    Without version or from, lists revisions newest first (minor edits included) with author,
    date and comment. version=\"1.2\" shows the content at that revision. from=\"1.2\" (and
    optionally to, default the current version) shows a unified diff. A translation (locale)
    has its own history.

    Versions are major.minor: creation is 1.1, a minor edit bumps the minor number (marked
    (minor) in the list), a major edit starts the next major at .1. Every version string must be
    two numbers of 1 to 9 digits joined by a dot; anything else (deleted:3, xar:2.1, 1.2.3, an
    empty string) is refused before the store is read.

    List mode (no version, no from): `History of <ref>`, the current version, the total, then one
    line per revision: `<version> [(minor)]  <date UTC>  by <author>  - <comment>`. limit is the
    page size (default 20, clamped to 1-100) and offset the number of newest revisions to skip;
    the footer gives the offset that continues.

    Version mode (version=X): a HISTORICAL SNAPSHOT banner, the revision's metadata, then its
    content as numbered lines through the same line window as get_document (offset = first
    line; the footer continues past the ~6,000-token cap, and a line longer than the cap is
    cut inside with `continue with offset=<b> column=<c>`: column starts at that character). The CURRENT version is named in the
    banner: an edit's base_version must come from the current document, never from a snapshot.

    Diff mode (from=A, optional to=B, default the current version): `--- <ref> (vA)` /
    `+++ <ref> (vB)`, a `Title changed` line when the title differs, then unified hunks with 3
    lines of context. Hunks past the output budget are dropped whole, with a note; a first hunk
    larger than the budget is cut at a line, with its own note. After the hunks come the object
    and attachment changes (object <class>[N] added, removed or changed, field: old -> new;
    attachment added, replaced or removed, with versions and sizes); a Password field only says
    that it changed. A revision saved before revisions recorded objects and attachments says
    they were not compared, never a guess. Identical text with changed objects says \"No text
    differences\"; identical everything says \"No content differences\". offset and limit are
    refused in diff mode. After a version conflict,
    from=<your stale base_version> shows what changed since you read the page.

    A missing revision is an error that lists the newest revisions. Translations (locale) have
    their own history and versions; rights are the document's.

EXAMPLES
    get_history reference=\"Sandbox.WebHome\"
    get_history reference=\"Sandbox.WebHome\" limit=50 offset=20
    get_history reference=\"Sandbox.WebHome\" version=\"1.3\"
    get_history reference=\"Logs.Dump\" version=\"1.2\" offset=3 column=23993
    get_history reference=\"Sandbox.WebHome\" from=\"1.3\"
    get_history reference=\"Sandbox.WebHome\" from=\"1.1\" to=\"1.3\"
    get_history reference=\"Help.Guide\" locale=\"fr\"

SEE ALSO
    get_document (the current version), edit_document (base_version)"
)]
struct GetHistory {
    /// The document.
    reference: String,
    /// A translation's own history.
    locale: Option<String>,
    /// Show the content at this version, e.g. "1.2"; not with from/to.
    version: Keep<String>,
    /// Diff from this version.
    from: Keep<String>,
    /// Diff to this version (default: current); needs from.
    to: Keep<String>,
    /// List mode: revisions per page (default 20).
    #[param(range = 1..=100, clamp)]
    limit: Option<usize>,
    /// List mode: newest revisions to skip; version mode: the first line to show.
    offset: Option<usize>,
    /// Version mode: the first line's character to start at.
    #[param(range = 1..)]
    column: Option<usize>,
    /// Another wiki (list_wikis).
    #[param(extended)]
    wiki: Option<String>,
}

/// What the arguments ask for, checked before any store access.
enum Mode {
    List {
        offset: usize,
        limit: usize,
    },
    Version {
        version: Version,
        column: Option<usize>,
    },
    Diff {
        from: Version,
        to: Option<Version>,
    },
}

/// What a history view returns.
type HistoryResult = ToolResult<Structured<HistoryOutput>>;

impl Execute<Structured<HistoryOutput>> for GetHistory {
    async fn execute(self, ctx: &ToolContext) -> HistoryResult {
        let mode = self.mode()?;
        let doors = ctx.doors()?;
        let found = find_document(doors, &self.reference, self.wiki.as_deref()).await?;
        let requested = locale_argument(self.locale.as_deref())?;
        let row = Row {
            authorized: found.authorized.clone(),
            locale: route(&found.locales, requested, found.reference())?,
        };
        match mode {
            Mode::List { offset, limit } => row.list(doors, offset, limit).await,
            Mode::Version { version, column } => {
                row.version(doors, version, self.offset, column).await
            }
            Mode::Diff { from, to } => row.diff(ctx, doors, from, to).await,
        }
    }
}

impl GetHistory {
    fn mode(&self) -> Result<Mode, ToolError> {
        let version = version_argument("version", &self.version)?;
        let from = version_argument("from", &self.from)?;
        let to = version_argument("to", &self.to)?;
        match (version, from, to) {
            (Some(_), Some(_), _) | (Some(_), _, Some(_)) => Err(ToolError::new(
                "Error: 'version' shows one revision and cannot be combined with 'from'/'to'; \
                 use version alone, or from (and to) for a diff.",
            )
            .with_kind(ErrorKind::BadArgument)),
            (None, None, Some(_)) => Err(ToolError::new(
                "Error: 'to' needs 'from': pass from=<older version> (to defaults to the current \
                 version).",
            )
            .with_kind(ErrorKind::BadArgument)),
            (Some(version), None, None) => {
                self.refuse_limit("version mode shows lines; use offset for the first line")?;
                Ok(Mode::Version {
                    version,
                    column: self.column,
                })
            }
            (None, Some(from), to) => {
                if self.offset.is_some() || self.limit.is_some() || self.column.is_some() {
                    return Err(ToolError::new(
                        "Error: offset, limit and column do not apply to a diff, which is cut to \
                         the output budget by whole hunks; diff closer versions to see less.",
                    )
                    .with_kind(ErrorKind::BadArgument));
                }
                Ok(Mode::Diff { from, to })
            }
            (None, None, None) => {
                if self.column.is_some() {
                    return Err(ToolError::new(
                        "Error: 'column' applies to version mode (version=...), where it starts \
                         the window inside its first line; the revision list has no columns.",
                    )
                    .with_kind(ErrorKind::BadArgument));
                }
                // The parser refused a negative offset and clamped limit to 1..=100.
                let offset = self.offset.unwrap_or(0);
                let limit = self.limit.unwrap_or(20);
                Ok(Mode::List { offset, limit })
            }
        }
    }

    fn refuse_limit(&self, why: &str) -> Result<(), ToolError> {
        match self.limit {
            Some(_) => Err(ToolError::new(format!(
                "Error: 'limit' is the page size of the revision list; {why}."
            ))
            .with_kind(ErrorKind::BadArgument)),
            None => Ok(()),
        }
    }
}

/// The row whose history is read: an authorized document and its routed locale.
struct Row {
    authorized: AuthorizedReference,
    locale: Option<Locale>,
}

impl Row {
    fn name(&self) -> String {
        let reference = fragment(&self.authorized.reference().to_string()).into_owned();
        match &self.locale {
            Some(locale) => format!("{reference} ({locale} translation)"),
            None => reference,
        }
    }

    async fn page(
        &self,
        doors: &Doors,
        offset: usize,
        limit: usize,
    ) -> Result<HistoryPage, ToolError> {
        let reference = self.authorized.reference().clone();
        let locale = self.locale.clone();
        match doors
            .blocking(move |store| store.history(&reference, locale.as_ref(), offset, limit))
            .await?
        {
            Ok(Some(page)) => Ok(page),
            // The row existed a moment ago (routing saw it): it was deleted meanwhile.
            Ok(None) => Err(
                ToolError::new(format!("No such document: \"{}\".", self.name()))
                    .with_kind(ErrorKind::NotFound),
            ),
            Err(error) => Err(store_failure("read the history", &error)),
        }
    }

    /// The structured output of `mode` at `current`, with nothing else yet.
    fn output(&self, mode: HistoryMode, current: Version) -> HistoryOutput {
        HistoryOutput::new(
            self.authorized.reference(),
            self.locale.as_ref(),
            mode,
            current,
        )
    }

    async fn list(&self, doors: &Doors, offset: usize, limit: usize) -> HistoryResult {
        let page = self.page(doors, offset, limit).await?;
        if page.revisions.is_empty() {
            let total = usize::try_from(page.total).unwrap_or(usize::MAX);
            let count = counted(total, "revision", "revisions");
            return Err(offset_past_end(offset, total, "revision", &count));
        }
        let mut out = format!(
            "History of {}\nCurrent version: {}\nTotal revisions: {} (minor edits included, \
             newest first)\n\n",
            self.name(),
            page.current,
            page.total
        );
        for revision in &page.revisions {
            out.push_str(&revision_line(revision));
            out.push('\n');
        }
        let last = offset + page.revisions.len();
        let _ = write!(
            out,
            "\nShowing revisions {}-{last} of {}.",
            offset + 1,
            page.total
        );
        let mut value = self.output(HistoryMode::List, page.current);
        value.revisions = page.revisions.iter().map(RevisionOutput::new).collect();
        value.total = Some(page.total);
        if (last as u64) < page.total {
            let _ = write!(out, " Continue with offset={last}.");
            value.next_offset = Some(last as u64);
        }
        Ok(Structured::new(value, out))
    }

    async fn version(
        &self,
        doors: &Doors,
        version: Version,
        offset: Option<usize>,
        column: Option<usize>,
    ) -> HistoryResult {
        let reference = self.authorized.reference().clone();
        let locale = self.locale.clone();
        let revision: Option<Revision> = doors
            .blocking(move |store| store.revision(&reference, locale.as_ref(), version))
            .await?
            .map_err(|error| store_failure("read the revision", &error))?;
        let Some(revision) = revision else {
            return Err(self.missing(doors, version).await);
        };
        let current = self.page(doors, 0, 1).await?.current;
        let window = line_window_at(
            &revision.content,
            offset,
            column,
            None,
            &format!("revision {version}"),
        )?;
        let mut out = format!(
            "HISTORICAL SNAPSHOT of {} at version {version}; the CURRENT version is {current}. \
             Do not edit from this text: base_version must come from the current document \
             (get_document).\n",
            self.name()
        );
        let title = fragment(&revision.title);
        let _ = writeln!(out, "Title: {title}");
        let _ = writeln!(
            out,
            "Author: {}\nDate: {}",
            fragment(&revision.info.author),
            iso_instant(revision.info.date)
        );
        let comment = fragment(revision.info.comment.trim());
        if !comment.is_empty() {
            let _ = writeln!(out, "Comment: {comment}");
        }
        out.push('\n');
        out.push_str(&window.with_footer());
        let mut value = self.output(HistoryMode::Version, current);
        value.revisions = vec![RevisionOutput::new(&revision.info)];
        value.window = Some(WindowOutput::new(&window));
        Ok(Structured::new(value, out))
    }

    async fn diff(
        &self,
        ctx: &ToolContext,
        doors: &Doors,
        from: Version,
        to: Option<Version>,
    ) -> HistoryResult {
        let current = self.page(doors, 0, 1).await?.current;
        let to = to.unwrap_or(current);
        let reference = self.authorized.reference().clone();
        let locale = self.locale.clone();
        let diff: RevisionDiff = match doors
            .blocking(move |store| store.diff(&reference, locale.as_ref(), from, to))
            .await?
        {
            Ok(diff) => diff,
            Err(StoreError::NotFound { .. }) => {
                let missing = self.first_missing(doors, [from, to]).await;
                return Err(self.missing(doors, missing.unwrap_or(from)).await);
            }
            Err(error) => return Err(store_failure("compare the revisions", &error)),
        };
        let name = self.name();
        let mut out = format!("--- {name} (v{from})\n+++ {name} (v{to})\n");
        let target = Target::Compare {
            reference: self.authorized.reference(),
            locale: self.locale.as_ref(),
            from,
            to,
        };
        if let Some(url) = link(ctx, target) {
            let _ = writeln!(out, "Compare: {url}");
        }
        if let Some((old, new)) = &diff.title_change {
            let _ = writeln!(
                out,
                "Title changed: \"{}\" -> \"{}\"",
                fragment(old),
                fragment(new)
            );
        }
        let mut value = self.output(HistoryMode::Diff, current);
        value.revisions = vec![
            RevisionOutput::new(&diff.from),
            RevisionOutput::new(&diff.to),
        ];
        value.hunks = Some(diff.hunks.len() as u64);
        value.title_changed = Some(diff.title_change.is_some());
        let section = structure::section(&diff.structure, from, to);
        value.structure = Some(section.output);
        if diff.hunks.is_empty() {
            if section.text.is_empty() {
                let _ = write!(out, "No content differences between {from} and {to}.");
            } else {
                let _ = writeln!(out, "No text differences between {from} and {to}.");
            }
        } else {
            // The section's share is kept back, so text and section together stay in budget.
            let budget = MAX_OUTPUT_CHARS.saturating_sub(section.text.chars().count());
            out.push_str(&hunks_within_budget(&diff.hunks, from, to, budget));
            if !section.text.is_empty() {
                out.push('\n');
            }
        }
        out.push_str(&section.text);
        Ok(Structured::new(value, out))
    }

    /// The first of `versions` this row does not have (for the error message).
    async fn first_missing(&self, doors: &Doors, versions: [Version; 2]) -> Option<Version> {
        for version in versions {
            let reference = self.authorized.reference().clone();
            let locale = self.locale.clone();
            let exists = doors
                .blocking(move |store| store.revision(&reference, locale.as_ref(), version))
                .await;
            if matches!(exists, Ok(Ok(None))) {
                return Some(version);
            }
        }
        None
    }

    /// `… has no version X. The newest revisions are: …`.
    async fn missing(&self, doors: &Doors, version: Version) -> ToolError {
        let newest = match self.page(doors, 0, NEWEST_LISTED).await {
            Ok(page) => format!(
                " The newest revisions are: {} (of {}).",
                page.revisions
                    .iter()
                    .map(|revision| revision.version.to_string())
                    .collect::<Vec<_>>()
                    .join(", "),
                page.total
            ),
            Err(_) => String::new(),
        };
        ToolError::new(format!(
            "Error: {} has no version {version}.{newest} Call get_history without versions to \
             list them all.",
            self.name()
        ))
        .with_kind(ErrorKind::NotFound)
    }
}

/// The hunks that fit the budget, whole; the rest dropped with a note. A first hunk larger than
/// the budget is cut at a line, with its own note, so a diff always shows something.
fn hunks_within_budget(hunks: &[DiffHunk], from: Version, to: Version, budget: usize) -> String {
    let mut out = String::new();
    let mut used = 0usize;
    for (index, hunk) in hunks.iter().enumerate() {
        let text = hunk.to_string();
        let size = text.chars().count();
        if used + size <= budget {
            out.push_str(&text);
            used += size;
            continue;
        }
        if index == 0 {
            let (cut, shown) = cut_hunk(&text, budget);
            out.push_str(cut);
            let _ = write!(
                out,
                "[The first hunk was cut at the ~{MAX_OUTPUT_TOKENS}-token cap after {shown} of \
                 {} lines. Read the versions whole: get_history version=\"{from}\" and \
                 version=\"{to}\", with offset to page.]",
                hunk.lines.len() + 1
            );
        } else {
            let dropped = hunks.len() - index;
            let _ = write!(
                out,
                "[{dropped} more hunk(s) not shown: the diff exceeds the ~{MAX_OUTPUT_TOKENS}-token \
                 cap. Diff closer versions, or read a version whole with version=.]"
            );
        }
        return out;
    }
    let trimmed = out.trim_end_matches('\n').len();
    out.truncate(trimmed);
    out
}

/// The longest prefix of whole lines of `text` within the budget (at least one line), and how
/// many lines it holds.
fn cut_hunk(text: &str, budget: usize) -> (&str, usize) {
    let mut end = 0;
    let mut chars = 0;
    let mut lines = 0;
    for line in text.split_inclusive('\n') {
        let size = line.chars().count();
        if chars + size > budget && lines > 0 {
            break;
        }
        chars += size;
        end += line.len();
        lines += 1;
        if chars > budget {
            break;
        }
    }
    (text.get(..end).unwrap_or(text), lines)
}
