//! `write_attachment`: uploads a new attachment, or a new version of one, through
//! the write door (view and edit, base_version, `[AI] ` comments, no-op detection: the store writes
//! nothing for the bytes the attachment already holds).
//!
//! Order of checks: the arguments (exactly one content, a decodable base64, the size cap, the
//! file name's grammar) before any store access, then the write door (reach, view and edit,
//! space filter, the configuration), then base_version against the document as read, then the
//! store's compare-and-set inside the transaction that saves the document and the attachment.

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use wiki_tool_sdk::prelude::*;
use wiki_tool_sdk::store::attachments::validate_attachment_name;
use wiki_tool_sdk::store::model::attachment::AttachmentWriteOutcome;
use wiki_tool_sdk::store::model::document::SaveOutcome;
use wiki_tool_sdk::store::rights::Right;
use wiki_tool_sdk::store::{Field, InvalidInput, StoreError};
use wiki_tool_sdk::untrusted::fragment;

use crate::seams::counted::counted;
use crate::seams::history::version_argument;
use crate::seams::urls::{Target, link, review_line};
use crate::seams::written::Written;

/// The longest `content` or `content_base64` accepted, in characters.
const MAX_CONTENT_CHARS: usize = 1_000_000;

/// The tail of every refusal: the agent must know the wiki is untouched.
const NOTHING_SAVED: &str = "Nothing was saved.";

/// Attach a file to a document, or upload a new version of an attachment.
#[mcp_tool(
    id = "write_attachment",
    write,
    output = Written,
    category = categories::AUTHORING,
    title = "Upload an attachment",
    man = "NOTES
    Exactly one of content (text, stored as UTF-8 bytes exactly as sent, untrimmed; \"\" is an
    empty file) or content_base64 (standard base64 with padding, for small binaries; empty is
    refused) is required. Either is at most 1,000,000 characters; the wiki's own attachment
    size limit applies to the decoded bytes.

    filename is the attachment's name on the document: at most 255 characters, no '/', '\\\\'
    or ';', no control characters and no bidi controls (U+202A-202E, U+2066-2069, U+200E/F).
    Uploading an existing name adds a new version of that attachment (the older versions are
    kept; get_attachment reads the current one). Uploading exactly the bytes its current
    version holds saves nothing (\"No changes\": no attachment version, no document version).

    base_version: the upload saves a new (minor) version of the document, so the document's
    version is REQUIRED when the document exists, even for a new attachment (read it with
    get_document). Omit it when the document does not exist: the upload creates it, empty. A
    stale base_version is refused with a version conflict and nothing is saved, even when the
    bytes are unchanged.

    The upload is recorded as you, with the comment prefixed `[AI] ` (default \"Uploaded
    attachment <filename>\"). The media type is sniffed from the bytes and from the name.

FORMAT
    Added attachment <filename> to document <ref>.   (or: Updated attachment ...,
                                                      Created document <ref> with attachment ...)
    Attachment version: 1.1
    Size: 42 bytes
    Version: 2.3 -> 2.4
    Compare: <url>        (View: <url> for a new document)
    Download: <url>
    or, for the bytes already there:
    No changes: attachment <filename> already holds these 42 bytes (attachment version 1.1).
    Nothing was saved; the document \"<ref>\" stays at version 2.3.

EXAMPLES
    write_attachment reference=\"Sandbox.WebHome\" filename=\"notes.txt\" content=\"a\\nb\\n\" base_version=\"1.3\"
    write_attachment reference=\"Sandbox.New\" filename=\"dot.png\" content_base64=\"iVBORw0KGgo...\"

SEE ALSO
    get_attachment, delete_attachment, get_document"
)]
struct WriteAttachment {
    /// The document (created if missing).
    reference: String,
    /// The file name.
    #[param(raw)]
    filename: String,
    /// Text, stored as sent; not with content_base64.
    #[param(raw)]
    content: Keep<String>,
    /// Standard base64, for small binaries.
    content_base64: Keep<String>,
    /// The document's version you read: required when it exists, even for a new attachment.
    base_version: Keep<String>,
    /// Why, saved prefixed "[AI] ".
    comment: Option<String>,
    /// Another wiki (list_wikis).
    #[param(extended)]
    wiki: Option<String>,
}

impl Execute<Structured<Written>> for WriteAttachment {
    async fn execute(self, ctx: &ToolContext) -> ToolResult<Structured<Written>> {
        let base = version_argument("base_version", &self.base_version)?;
        let bytes = decode_content(self.content.as_deref(), self.content_base64.as_deref())?;
        validate_attachment_name(&self.filename).map_err(|error| name_refusal(&error))?;
        let door = ctx.doors()?.write()?;
        let target = door
            .target(&self.reference, self.wiki.as_deref(), None, Right::Edit)
            .await?;
        let retry = "resend the attachment with the document's version as base_version";
        let base = target.base(base, BaseRule::RequiredIfExists, retry)?;
        let size = bytes.len();
        let comment = Comment::new(
            self.comment.as_deref(),
            &format!("Uploaded attachment {}", self.filename),
        );
        let outcome = door
            .write_attachment(&target, &self.filename, bytes, comment, base)
            .await
            .map_err(|failure| match failure.store_error() {
                Some(
                    error @ StoreError::Invalid(InvalidInput::Name {
                        what: "attachment name",
                        ..
                    }),
                ) => name_refusal(error),
                Some(StoreError::TooLarge {
                    field: Field::Attachment,
                    limit,
                    actual,
                }) => ToolError::new(format!(
                    "Error: the file is too large ({actual} bytes; this wiki accepts at most \
                     {limit} bytes per attachment). {NOTHING_SAVED}"
                ))
                .with_kind(ErrorKind::Budget),
                _ => failure.into(),
            })?;
        if let SaveOutcome::Unchanged { version } = outcome.document {
            let what = format!(
                "attachment {} already holds these {size} bytes (attachment version {})",
                fragment(&self.filename),
                outcome.attachment_version
            );
            let value = Written::unchanged(&target, version).attachment(&self.filename);
            return Ok(no_changes(&target, &what, version).structured(value));
        }
        let value = Written::saved(&target, &outcome.document).attachment(&self.filename);
        let lines = result_lines(ctx, &target, &self.filename, size, &outcome);
        Ok(ToolOutput::text(lines.join("\n")).structured(value))
    }
}

/// The bytes to store from exactly one of the two content arguments, within the size cap.
fn decode_content(content: Option<&str>, base64: Option<&str>) -> Result<Vec<u8>, ToolError> {
    let too_large = |chars: usize, name: &str| {
        ToolError::new(format!(
            "Error: '{name}' is too large ({chars} characters; the limit is 1,000,000). Attach \
             smaller files. {NOTHING_SAVED}"
        ))
        .with_kind(ErrorKind::Budget)
    };
    match (content, base64) {
        (Some(_), Some(_)) => Err(ToolError::new(format!(
            "Error: send exactly one of 'content' (text) or 'content_base64' (binary), not both. \
             {NOTHING_SAVED}"
        ))
        .with_kind(ErrorKind::BadArgument)),
        (None, None) => Err(ToolError::new(format!(
            "Error: send the file as 'content' (text; \"\" for an empty file) or as \
             'content_base64' (binary). {NOTHING_SAVED}"
        ))
        .with_kind(ErrorKind::BadArgument)),
        (Some(text), None) => {
            let chars = text.chars().count();
            if chars > MAX_CONTENT_CHARS {
                return Err(too_large(chars, "content"));
            }
            Ok(text.as_bytes().to_vec())
        }
        (None, Some(encoded)) => {
            let chars = encoded.chars().count();
            if chars > MAX_CONTENT_CHARS {
                return Err(too_large(chars, "content_base64"));
            }
            if encoded.trim().is_empty() {
                return Err(ToolError::new(format!(
                    "Error: 'content_base64' is empty; for an empty file send content=\"\". \
                     {NOTHING_SAVED}"
                ))
                .with_kind(ErrorKind::BadArgument));
            }
            let compact: String = encoded.chars().filter(|c| !c.is_whitespace()).collect();
            STANDARD.decode(compact.as_bytes()).map_err(|_| {
                ToolError::new(format!(
                    "Error: 'content_base64' is not valid base64 (the standard alphabet A-Z a-z \
                     0-9 + / with '=' padding). {NOTHING_SAVED}"
                ))
                .with_kind(ErrorKind::BadArgument)
            })
        }
    }
}

/// The store's file-name refusal (its reason is written for callers) as the agent reads it.
fn name_refusal(error: &StoreError) -> ToolError {
    let reason = match error {
        StoreError::Invalid(InvalidInput::Name { reason, .. }) => reason.as_str(),
        _ => "it is not a valid file name",
    };
    ToolError::new(format!(
        "Error: invalid 'filename': {reason}. Use a plain file name such as \"notes.txt\" (no \
         '/', '\\', ';', control or bidi characters). {NOTHING_SAVED}"
    ))
    .with_kind(ErrorKind::BadArgument)
}

fn result_lines(
    ctx: &ToolContext,
    target: &WriteTarget,
    filename: &str,
    size: usize,
    outcome: &AttachmentWriteOutcome,
) -> Vec<String> {
    let reference = fragment(&target.reference().to_string()).into_owned();
    let name = fragment(filename).into_owned();
    let headline = match (&outcome.document, outcome.created_attachment) {
        (SaveOutcome::Created { .. }, _) => {
            format!("Created document {reference} with attachment {name}.")
        }
        (_, true) => format!("Added attachment {name} to document {reference}."),
        (_, false) => format!("Updated attachment {name} on document {reference}."),
    };
    let mut lines = vec![
        headline,
        format!("Attachment version: {}", outcome.attachment_version),
        format!("Size: {}", counted(size, "byte", "bytes")),
        version_line(&outcome.document),
    ];
    lines.extend(review_line(ctx, target, &outcome.document));
    lines.extend(
        link(
            ctx,
            Target::Download {
                reference: target.reference(),
                name: filename,
            },
        )
        .map(|url| format!("Download: {url}")),
    );
    lines
}
