//! `write_document`: creates a document (or a translation) or replaces its whole
//! content, through the write door (view and edit, base_version, `[AI] ` comments, no-op
//! detection).
//!
//! Order of checks: the write door (reach, view and edit, space filter, the configuration),
//! then the locale, then the content size, then base_version against the row as read, then the
//! store's compare-and-set inside its transaction.

use mcp_runtime::output::lines::normalize_line_endings;
use wiki_tool_sdk::prelude::*;
use wiki_tool_sdk::store::model::document::SaveOutcome;
use wiki_tool_sdk::store::rights::Right;
use wiki_tool_sdk::untrusted::fragment;
use wiki_tool_sdk::untrusted::unescape;

use crate::seams::history::version_argument;
use crate::seams::urls::review_line;
use crate::seams::write_params::WriteParams;
use crate::seams::written::Written;

/// The longest content accepted, in characters (after CRLF -> LF).
const MAX_CONTENT_CHARS: usize = 1_000_000;

/// Create a document, or replace its whole content (and optionally its title).
///
/// For a small change prefer edit_document.
#[mcp_tool(
    id = "write_document",
    write,
    idempotent,
    output = Written,
    category = categories::AUTHORING,
    title = "Create or replace a document",
    man = "NOTES
    content replaces the whole source of the row: Markdown (CommonMark with the GitHub
    extensions; see `man markdown-syntax`). It is stored exactly as sent, untrimmed, except that
    CRLF and lone CR line endings become LF. At most 1,000,000 characters.

    base_version: omit it to create a document; it is REQUIRED to overwrite one (read the
    document with get_document and pass the Version it shows). A stale base_version is refused
    with a version conflict and nothing is saved: re-read, merge, retry (get_history
    from=<your base_version> shows what changed). The check is made by the store in the same
    transaction as the save, so two agents writing on one version never both win.

    Translations: locale=\"fr\" writes the French row. The document must already exist; a new
    translation takes the default row's syntax and starts at 1.1, with its own versions (its
    base_version is the translation's). A locale naming the default language writes the default
    row.

    Every save is recorded as you (the caller) with the comment prefixed `[AI] ` (at most 1,000
    characters); without a comment, \"Created document\" or \"Replaced content\". Saves are
    minor versions unless major=true; creation is always 1.1. Sending the content and title the
    document already has saves nothing (\"No changes\"). A retry of a write that succeeded
    (a stale base_version, or none for a page that now exists, but the page holds exactly the
    content and title sent) answers \"Already applied\" with the version, not a conflict.

    The MCP configuration documents can never be written by this tool.

FORMAT
    Created document <ref>.        Overwrote document <ref>.
    Version: 1.1                   Version: 4.3 -> 4.4
    Syntax: markdown/1.0           Title updated.
    Title set.                     Compare: <url>
    View: <url>

EXAMPLES
    write_document reference=\"Sandbox.Draft\" content=\"# Draft\\n\\nFirst text.\\n\" title=\"Draft\"
    write_document reference=\"Sandbox.Draft\" content=\"# Draft\\n\\nSecond text.\\n\" base_version=\"1.1\"
    write_document reference=\"Sandbox.Draft\" locale=\"fr\" content=\"# Brouillon\\n\"

SEE ALSO
    get_document, edit_document (small changes), get_history, delete_document"
)]
struct WriteDocument {
    /// The document.
    reference: String,
    /// The whole Markdown source, stored as sent.
    #[param(raw)]
    content: String,
    /// A new title.
    title: Option<String>,
    /// A translation of an existing document.
    locale: Option<String>,
    /// The version you read: required to overwrite, omitted to create.
    base_version: Keep<String>,
    #[param(flatten)]
    write: WriteParams,
}

impl Execute<Structured<Written>> for WriteDocument {
    async fn execute(self, ctx: &ToolContext) -> ToolResult<Structured<Written>> {
        let base = version_argument("base_version", &self.base_version)?;
        let door = ctx.doors()?.write()?;
        let target = door
            .target(
                &self.reference,
                self.write.wiki.as_deref(),
                self.locale.as_deref(),
                Right::Edit,
            )
            .await?;
        // What a read showed escaped (`⟦U+200B⟧`) is stored as the character it stands for.
        let content = unescape(&normalize_line_endings(&self.content)).into_owned();
        let title = self
            .title
            .as_deref()
            .map(|title| unescape(title).into_owned());
        let chars = content.chars().count();
        if chars > MAX_CONTENT_CHARS {
            return Err(ToolError::new(format!(
                "Error: 'content' is too large ({chars} characters; the limit is 1,000,000). \
                 Split the page, or change a part with edit_document. Nothing was saved."
            ))
            .with_kind(ErrorKind::Budget));
        }
        if target.version_refused(base, BaseRule::RequiredIfExists)
            && let Some(current) = target.current()
            && current.content == content
            && self
                .title
                .as_ref()
                .is_none_or(|title| *title == current.title)
        {
            let value = Written::unchanged(&target, current.version);
            return Ok(already_applied(&target, current.version).structured(value));
        }
        let retry = "resend the whole content with its version as base_version";
        let base = target.base(base, BaseRule::RequiredIfExists, retry)?;
        let creating = target.current().is_none();
        let title_changes = match (&title, target.current()) {
            (None, _) => false,
            (Some(_), None) => true,
            (Some(title), Some(current)) => *title != current.title,
        };
        let default_comment = if creating {
            "Created document"
        } else if title_changes {
            "Replaced content, retitled"
        } else {
            "Replaced content"
        };
        let change = RowChange {
            content,
            title,
            major: self.write.major,
        };
        let comment = Comment::new(self.write.comment.as_deref(), default_comment);
        let outcome = door.save(&target, change, comment, base).await?;
        let headline = match (&outcome, target.locale()) {
            (SaveOutcome::Unchanged { version }, _) => {
                let what = "the content and title are already as given";
                let value = Written::unchanged(&target, *version);
                return Ok(no_changes(&target, what, *version).structured(value));
            }
            (SaveOutcome::Created { .. }, None) => "Created document",
            (SaveOutcome::Updated { .. }, None) => "Overwrote document",
            (SaveOutcome::Created { .. }, Some(_)) => "Created translation",
            (SaveOutcome::Updated { .. }, Some(_)) => "Overwrote translation",
        };
        let mut lines = vec![match target.locale() {
            None => format!("{headline} {}.", fragment(&target.reference().to_string())),
            Some(locale) => format!(
                "{headline} \"{locale}\" of {}.",
                fragment(&target.reference().to_string())
            ),
        }];
        lines.push(version_line(&outcome));
        if creating {
            lines.push(format!("Syntax: {}", fragment(target.syntax())));
        }
        if title_changes {
            lines.push(
                if creating {
                    "Title set."
                } else {
                    "Title updated."
                }
                .to_owned(),
            );
        }
        lines.extend(review_line(ctx, &target, &outcome));
        let value = Written::saved(&target, &outcome);
        Ok(ToolOutput::text(lines.join("\n")).structured(value))
    }
}
