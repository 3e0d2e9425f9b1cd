//! `edit_document`: ordered exact-string edits applied in memory to the row as read,
//! then saved once through the write door, compare-and-set on the version they were applied to
//! (so a concurrent save is never overwritten, with or without the agent's base_version).
//!
//! Order of checks: the argument counts and sizes, the write door (view and edit, the
//! configuration) before the row is read or any edit compared, the locale, base_version against the row as read, every edit, then the store's compare-and-set.

mod apply;
mod echo;
mod retry;

use mcp_runtime::output::lines::normalize_line_endings;
use std::borrow::Cow;
use wiki_tool_sdk::untrusted::fragment;

use wiki_tool_sdk::prelude::*;
use wiki_tool_sdk::store::model::document::SaveOutcome;
use wiki_tool_sdk::store::rights::Right;
use wiki_tool_sdk::untrusted::unescape;

use self::apply::{Applied, apply};
use self::echo::echo;
use crate::seams::history::version_argument;
use crate::seams::urls::review_line;
use crate::seams::write_params::WriteParams;
use crate::seams::written::Written;

/// The most edits one call applies.
const MAX_EDITS: usize = 100;

/// The longest old_string or new_string, in characters.
const MAX_EDIT_CHARS: usize = 100_000;

/// Change a document by exact-string replacements, applied in order and saved once (nothing if
/// any fails).
///
/// An empty old_string creates the document.
#[mcp_tool(
    id = "edit_document",
    write,
    output = Written,
    category = categories::AUTHORING,
    title = "Edit a document by replacements",
    man = "NOTES
    edits is an ordered list of {old_string, new_string, replace_all?}. Each old_string must be
    copied exactly from the current source (get_document), without the `cat -n` line number and
    TAB, and must occur exactly once, unless replace_all=true replaces every occurrence. Edits
    apply in order, each to the text the previous ones produced, all in memory; the document is
    saved once, as one version. If any edit fails, nothing is saved and the error names it
    (`Edit N: old_string not found`, `Edit N: old_string found K times`). Line endings in
    strings are normalized to LF. At most 100 edits, each string at most 100,000 characters,
    and at most 10,000 replacements per call (replace_all included, all edits together); a
    result longer than 1,000,000 characters is refused. Past a limit nothing is saved: split
    the change over several calls, or replace the content with write_document.

    On an existing document an empty old_string is refused: to append, quote the current last
    lines and repeat them with your addition. To create a document, send exactly one edit with
    an empty old_string and the whole content as new_string.

    title renames the document (an edit list may then be empty). base_version is an optional
    lock: when given and the document has moved on, you get a version conflict and nothing is
    saved. Without it the save is still checked against the version the edits were applied to,
    so a concurrent save is never overwritten. With it, a retry of an edit that succeeded (the
    edits applied to base_version give exactly the current text) answers \"Already applied\"
    with the version instead of a conflict.

    The result echoes each edit as `@@ edit N @@` with three numbered lines of context around
    the change, as they read after the save (at most 2,000 characters, then \"(further changes
    omitted)\"; a first change longer than that is shown cut, with the lines to read the rest
    with get_document), and how many replacements each edit made. Comments are stored prefixed
    `[AI] `; minor version unless major=true. locale edits a translation row.

EXAMPLES
    edit_document reference=\"Sandbox.WebHome\" edits=[{\"old_string\": \"teh\", \"new_string\": \"the\"}]
    edit_document reference=\"Sandbox.WebHome\" base_version=\"2.3\" edits=[{\"old_string\": \"v1\", \"new_string\": \"v2\", \"replace_all\": true}]
    edit_document reference=\"Sandbox.New\" edits=[{\"old_string\": \"\", \"new_string\": \"# New page\\n\"}]
    edit_document reference=\"Sandbox.WebHome\" title=\"Sandbox (old)\"

SEE ALSO
    get_document, write_document (replace everything), get_history"
)]
struct EditDocument {
    /// The document.
    reference: String,
    /// The replacements, in order.
    edits: Vec<Edit>,
    /// A new title.
    title: Option<String>,
    /// A translation.
    locale: Option<String>,
    /// Optional lock: the version you read; a newer one is a conflict.
    base_version: Keep<String>,
    #[param(flatten)]
    write: WriteParams,
}

impl EditDocument {
    /// The strings as the agent meant them: the escapes a read showed (`⟦U+200B⟧`) turned back
    /// into their characters, so a quoted window matches the source it came from.
    fn unescape_text(&mut self) {
        for edit in &mut self.edits {
            for text in [&mut edit.old_string, &mut edit.new_string] {
                if let Cow::Owned(plain) = unescape(text) {
                    *text = plain;
                }
            }
        }
        if let Some(Cow::Owned(plain)) = self.title.as_deref().map(unescape) {
            self.title = Some(plain);
        }
    }
}

/// One exact-string replacement.
#[derive(Debug, Clone, ParamObject)]
struct Edit {
    /// Exact text (no line-number prefix), found exactly once unless replace_all.
    #[param(raw)]
    old_string: String,
    /// The replacement.
    #[param(raw)]
    new_string: String,
    /// Replace every occurrence.
    replace_all: Option<bool>,
}

impl Execute<Structured<Written>> for EditDocument {
    async fn execute(mut self, ctx: &ToolContext) -> ToolResult<Structured<Written>> {
        self.unescape_text();
        let base = version_argument("base_version", &self.base_version)?;
        check_counts(&self.edits, self.title.is_some())?;
        let door = ctx.doors()?.write()?;
        let target = door
            .target(
                &self.reference,
                self.write.wiki.as_deref(),
                self.locale.as_deref(),
                Right::Edit,
            )
            .await?;
        let doors = ctx.doors()?;
        if let Some(version) =
            retry::already_in(doors, &target, base, &self.edits, self.title.as_deref()).await?
        {
            let value = Written::unchanged(&target, version);
            return Ok(already_applied(&target, version).structured(value));
        }
        let retry = "redo your edits against the current text";
        let base = target.base(base, BaseRule::OptionalLock, retry)?;
        let applied = match target.current() {
            Some(row) => {
                // Linear, but up to a megabyte and 10,000 replacements: off the async workers.
                let content = normalize_line_endings(&row.content).into_owned();
                let edits = self.edits.clone();
                doors.blocking(move |_| apply(&content, &edits)).await??
            }
            None => creation(&target, &self.edits)?,
        };
        let title_changes = match (&self.title, target.current()) {
            (None, _) => false,
            (Some(_), None) => true,
            (Some(title), Some(current)) => *title != current.title,
        };
        let creating = target.current().is_none();
        let default_comment = if creating {
            "Created document".to_owned()
        } else {
            summary(self.edits.len(), title_changes)
        };
        let change = RowChange {
            content: applied.text.clone(),
            title: self.title,
            major: self.write.major,
        };
        let comment = Comment::new(self.write.comment.as_deref(), &default_comment);
        let outcome = door.save(&target, change, comment, base).await?;
        if let SaveOutcome::Unchanged { version } = outcome {
            let what = "the edits leave the content and title as they were";
            let value = Written::unchanged(&target, version);
            return Ok(no_changes(&target, what, version).structured(value));
        }
        let what = match target.locale() {
            None => format!("document {}", fragment(&target.reference().to_string())),
            Some(locale) => format!(
                "translation \"{locale}\" of {}",
                fragment(&target.reference().to_string())
            ),
        };
        let mut out = vec![format!(
            "{} {what}.",
            if creating { "Created" } else { "Edited" }
        )];
        out.push(version_line(&outcome));
        if !creating && !self.edits.is_empty() {
            out.push(format!(
                "Edits: {} applied, {} replacement(s).",
                self.edits.len(),
                applied.counts.iter().sum::<usize>()
            ));
        }
        if title_changes {
            out.push(
                if creating {
                    "Title set."
                } else {
                    "Title updated."
                }
                .to_owned(),
            );
        }
        if !creating {
            out.push(echo(&applied));
        }
        out.extend(review_line(ctx, &target, &outcome));
        let value = Written::saved(&target, &outcome);
        Ok(ToolOutput::text(out.join("\n")).structured(value))
    }
}

fn check_counts(edits: &[Edit], titled: bool) -> Result<(), ToolError> {
    if edits.is_empty() && !titled {
        return Err(ToolError::new(
            "Error: nothing to do: give at least one edit in 'edits', or a 'title'.",
        )
        .with_kind(ErrorKind::BadArgument));
    }
    if edits.len() > MAX_EDITS {
        return Err(ToolError::new(format!(
            "Error: 'edits' has {} edits; at most {MAX_EDITS} are applied in one call. Split \
             them over several calls. Nothing was saved.",
            edits.len()
        ))
        .with_kind(ErrorKind::Budget));
    }
    for (index, edit) in edits.iter().enumerate() {
        for (name, text) in [
            ("old_string", &edit.old_string),
            ("new_string", &edit.new_string),
        ] {
            let chars = text.chars().count();
            if chars > MAX_EDIT_CHARS {
                return Err(ToolError::new(format!(
                    "Error: edit {}: {name} is too large ({chars} characters; the limit is \
                     100,000). Use write_document to replace the whole content. Nothing was \
                     saved.",
                    index + 1
                ))
                .with_kind(ErrorKind::Budget));
            }
        }
    }
    Ok(())
}

/// A document created by edits: exactly one edit, with an empty old_string.
fn creation(target: &WriteTarget, edits: &[Edit]) -> Result<Applied, ToolError> {
    match edits {
        [edit] if edit.old_string.is_empty() => Ok(Applied {
            text: normalize_line_endings(&edit.new_string).into_owned(),
            counts: vec![1],
            places: Vec::new(),
        }),
        _ => Err(ToolError::new(format!(
            "Error: the {} does not exist. To create it, send exactly one edit with an empty \
             old_string and the whole content as new_string (or use write_document). Nothing \
             was saved.",
            target.row_name()
        ))
        .with_kind(ErrorKind::NotFound)),
    }
}

/// The default version comment: "2 edits", "1 edit, retitled", "Retitled".
fn summary(edits: usize, retitled: bool) -> String {
    match (edits, retitled) {
        (0, _) => "Retitled".to_owned(),
        (1, false) => "1 edit".to_owned(),
        (n, false) => format!("{n} edits"),
        (1, true) => "1 edit, retitled".to_owned(),
        (n, true) => format!("{n} edits, retitled"),
    }
}
