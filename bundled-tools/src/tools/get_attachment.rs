//! `get_attachment`: one attachment of a document, as far as an agent can read it.
//!
//! A metadata header always comes first. Then the content, routed by the media type the store
//! trusts (sniffed bytes win over the name, so a PNG named `notes.txt` is not inlined as text):
//! text inline through this tool's character window, PDF as extracted text (capped), PNG / JPEG /
//! GIF / WebP up to 2 MB as an MCP image block, anything else as a download link. The document
//! goes through the document door first; existence and the attachment are looked up only after.

mod output;
mod pdf;
mod pdf_cache;
mod text_window;

use std::fmt::Write as _;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use mcp_runtime::output::lines::normalize_line_endings;
use mcp_runtime::output::size::human_size;
use mcp_runtime::tool::ContentBlock;
use pdf_budget::Extracted;
use wiki_tool_sdk::access::{Doors, store_failure};
use wiki_tool_sdk::prelude::*;
use wiki_tool_sdk::store::model::attachment::AttachmentInfo;
use wiki_tool_sdk::store::reference::DocumentReference;
use wiki_tool_sdk::time::OffsetDateTime;
use wiki_tool_sdk::untrusted::fragment;

use self::output::{AttachmentOutput, AttachmentShows, CharWindow};
use self::pdf::{extracted_text, pdf_limits};
use self::text_window::text_window;
use crate::seams::attachment_meta::AttachmentMeta;
use crate::seams::counted::counted;
use crate::seams::lookup::{Found, find_document};
use crate::seams::urls::{Target, link};

/// The largest image sent inline as an image block.
const MAX_INLINE_IMAGE_BYTES: u64 = 2 * 1024 * 1024;

/// How many existing names a filename miss lists.
const NAMES_LISTED: usize = 10;

/// Read an attachment: text inline, PDF text, images as images, others as a link.
#[mcp_tool(
    output = AttachmentOutput,
    id = "get_attachment",
    category = categories::SEARCH_AND_NAVIGATION,
    title = "Read an attachment",
    man = "NOTES
    Text files (plain text, Markdown, CSV, JSON, XML, YAML, scripts, SVG) are shown inline,
    long ones in windows continued with offset. PDF files show their extracted text. PNG,
    JPEG, GIF and WebP images up to 2 MB come back as images. Anything else gets a download
    link. metadata=true returns only the header.

    The header reads Attachment:, Document: <reference> (version X), Mimetype:, Size:,
    Attachment version:, Author:, Date: (UTC) and, when the server has a public URL, Download:
    (a signed link that expires; it never grants more than your view right).

    The media type is decided from the file's bytes when they carry a signature, else from its
    name: a PNG renamed notes.txt is still an image. Text types are shown inline: text/* (not
    RTF), JSON, XML, JavaScript, YAML, shell scripts, +json/+xml types and SVG. Bytes that are
    not UTF-8 are shown with replacement characters.

    The text window is not get_document's line window: offset counts CHARACTERS to skip (from
    0), the header shares the ~6000-token budget, and a window ends after its last whole line,
    or inside a line when one line is longer than the window (the footer then says so, and
    the next window continues that line). The footer gives the offset that continues exactly
    where the window stopped. The text is printed between two fence lines (``` or ~~~, longer
    than any run of those characters in the file): everything between them is the file's,
    nothing in it is the tool's.

    PDF text is extracted by the server and capped at 100,000 characters (the last window
    says when the cap applied); scanned or encrypted PDFs yield no text and get a download
    link instead. Extraction has a budget, checked before it starts: streams inflating past
    64 MB, more than 200,000 objects, or pages too costly to read (every operation, font
    switch and glyph counts; forms drawn thousands of times, or drawing themselves) are
    refused or left out, with a note that says so; and it stops after 10 seconds, keeping the
    pages read and saying where it stopped. Extracted text is kept per attachment version, so
    reading a PDF window by window extracts it once, and a call cancelled while it extracts
    keeps the pages read for the next call.
    Office and other binary files are not converted: use the download link. Images larger
    than 2 MB are not sent inline.

    filename is exact (case-sensitive). A miss lists the document's attachments (up to 10).
    A wiki-id prefix (wiki:Space.Page) reaches another wiki only when this endpoint has
    cross-wiki reach (see list_wikis).

EXAMPLES
    get_attachment reference=\"Sandbox.WebHome\" filename=\"notes.txt\"
    get_attachment reference=\"Sandbox.WebHome\" filename=\"manual.pdf\" offset=23500
    get_attachment reference=\"Sandbox.WebHome\" filename=\"logo.png\"
    get_attachment reference=\"Sandbox.WebHome\" filename=\"report.docx\" metadata=true

SEE ALSO
    get_document (its Attachments: line lists the files), write_attachment, delete_attachment,
    get_links"
)]
struct GetAttachment {
    /// The document holding it.
    reference: String,
    /// The exact file name.
    #[param(raw)]
    filename: String,
    /// Text and PDF: characters to skip, as the footer says.
    #[param(default = 0)]
    offset: usize,
    /// Only the header, not the content.
    metadata: bool,
}

/// How the content of an attachment is shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Route {
    /// Inline text through the character window.
    Text,
    /// Extracted text through the character window.
    Pdf,
    /// An MCP image block.
    Image,
    /// A download link only.
    Download,
}

impl Execute<Structured<AttachmentOutput>> for GetAttachment {
    async fn execute(self, ctx: &ToolContext) -> ToolResult<Structured<AttachmentOutput>> {
        let offset = self.offset;
        if self.metadata && offset > 0 {
            return Err(ToolError::new(
                "Error: 'offset' reads on in the content, and metadata=true shows the header \
                 only. Drop 'offset', or drop metadata=true to read the content.",
            )
            .with_kind(ErrorKind::BadArgument));
        }
        let doors = ctx.doors()?;
        let found = find_document(doors, &self.reference, None).await?;
        let document = doors.read_document(&found.authorized, None).await?;
        let info = self.attachment(doors, &found).await?;
        let download = link(
            ctx,
            Target::Download {
                reference: found.reference(),
                name: &info.name,
            },
        );
        let header = header(
            found.reference(),
            &document.version.to_string(),
            &info,
            download.as_deref(),
        );
        let mut value = AttachmentOutput {
            reference: found.reference().to_string(),
            document_version: document.version.to_string(),
            attachment: AttachmentMeta::new(&info),
            download_url: download.clone(),
            shows: AttachmentShows::Metadata,
            window: None,
        };
        if self.metadata {
            return Ok(Structured::new(value, header.trim_end()));
        }
        let route = route(info.media.effective());
        let output = match route {
            Route::Image if info.size > MAX_INLINE_IMAGE_BYTES => Ok(ToolOutput::text(format!(
                "{header}This image is larger than 2 MB, too large to show inline. {}",
                download_advice(download.as_deref())
            ))),
            Route::Image => {
                let output = self
                    .image(doors, &found, &info, header, download.as_deref())
                    .await?;
                let inline = output
                    .content
                    .iter()
                    .any(|block| matches!(block, ContentBlock::Image { .. }));
                if inline {
                    value.shows = AttachmentShows::Image;
                }
                Ok(output)
            }
            Route::Download => Ok(ToolOutput::text(format!(
                "{header}This file type ({}) is not shown inline. {}",
                fragment(info.media.effective()),
                download_advice(download.as_deref())
            ))),
            Route::Text => {
                let bytes = content(doors, &found, &info.name).await?;
                let text = String::from_utf8_lossy(&bytes);
                text_result(
                    header,
                    &normalize_line_endings(&text),
                    offset,
                    None,
                    &mut value,
                )
            }
            Route::Pdf => {
                let extracted = extracted_text(ctx, doors, &found, &info).await?;
                pdf_result(header, &extracted, offset, download.as_deref(), &mut value)
            }
        }?;
        Ok(output.structured(value))
    }
}

/// The header, then the window of the extracted text (the cap and left-out pages noted on the
/// last window), or why there is none.
fn pdf_result(
    header: String,
    extracted: &Extracted,
    offset: usize,
    download: Option<&str>,
    value: &mut AttachmentOutput,
) -> ToolResult {
    let (text, capped, note) = match extracted {
        Extracted::Text { text, capped, note } => (text, *capped, note),
        Extracted::NoText => {
            return Ok(ToolOutput::text(format!(
                "{header}No text could be extracted from this PDF (it may be scanned images, \
                 encrypted or damaged). {}",
                download_advice(download)
            )));
        }
        Extracted::Refused(reason) => {
            return Ok(ToolOutput::text(format!(
                "{header}The text of this PDF was not extracted: {reason}. {}",
                download_advice(download)
            )));
        }
    };
    let cap = capped.then(|| {
        format!(
            "The extracted text was capped at {} characters; download the file for the rest.",
            pdf_limits().max_chars
        )
    });
    let notes: Vec<&str> = cap.as_deref().into_iter().chain(note.as_deref()).collect();
    let last_note = (!notes.is_empty()).then(|| notes.join(" "));
    text_result(
        header,
        &normalize_line_endings(text),
        offset,
        last_note.as_deref(),
        value,
    )
}

/// The header, the fenced window of `text` at `offset`, and its footer.
fn text_result(
    header: String,
    text: &str,
    offset: usize,
    last_note: Option<&str>,
    value: &mut AttachmentOutput,
) -> ToolResult {
    let window = text_window(text, offset, header.chars().count(), last_note)?;
    value.shows = AttachmentShows::Text;
    value.window = Some(CharWindow::new(&window));
    let mut out = header;
    out.push_str(&window.body);
    if !window.body.is_empty() {
        out.push('\n');
    }
    out.push_str(&window.footer);
    Ok(ToolOutput::text(out))
}

impl GetAttachment {
    /// The current version of the named attachment, or the miss listing what exists.
    async fn attachment(&self, doors: &Doors, found: &Found) -> Result<AttachmentInfo, ToolError> {
        let reference = found.reference().clone();
        let all = doors
            .blocking(move |store| store.attachments(&reference))
            .await?
            .map_err(|error| store_failure("read the document's attachments", &error))?;
        // The exact name first; then, ignoring surrounding spaces on both sides, the one name
        // that matches (new names cannot have them, names stored before that rule can).
        let trimmed = self.filename.trim();
        let exact = all.iter().find(|info| info.name == self.filename);
        let loose = || {
            let mut matching = all.iter().filter(|info| info.name.trim() == trimmed);
            matching.next().filter(|_| matching.next().is_none())
        };
        if let Some(info) = exact.or_else(loose) {
            return Ok(info.clone());
        }
        let mut message = format!(
            "Error: \"{}\" has no attachment named \"{}\".",
            fragment(&found.reference().to_string()),
            fragment(&self.filename)
        );
        if all.is_empty() {
            message.push_str(" This document has no attachments.");
        } else {
            let names: Vec<String> = all
                .iter()
                .take(NAMES_LISTED)
                .map(|info| format!("\"{}\"", fragment(&info.name)))
                .collect();
            let _ = write!(message, " Its attachments: {}", names.join(", "));
            if all.len() > NAMES_LISTED {
                let _ = write!(message, " (+{} more)", all.len() - NAMES_LISTED);
            }
            message.push_str(". The name is exact (case-sensitive).");
        }
        Err(ToolError::new(message).with_kind(ErrorKind::NotFound))
    }

    /// The header, then the image as an MCP image block (the 2 MB cap is checked again on the
    /// bytes actually read, in case the declared size was stale).
    async fn image(
        &self,
        doors: &Doors,
        found: &Found,
        info: &AttachmentInfo,
        header: String,
        download: Option<&str>,
    ) -> ToolResult {
        let bytes = content(doors, found, &info.name).await?;
        if u64::try_from(bytes.len()).unwrap_or(u64::MAX) > MAX_INLINE_IMAGE_BYTES {
            return Ok(ToolOutput::text(format!(
                "{header}This image is larger than 2 MB, too large to show inline. {}",
                download_advice(download)
            )));
        }
        Ok(ToolOutput::new(vec![
            ContentBlock::Text(header.trim_end().to_owned()),
            ContentBlock::Image {
                data: STANDARD.encode(&bytes),
                mime_type: info.media.effective().to_owned(),
            },
        ]))
    }
}

/// The bytes of the current version of an attachment found a moment ago; if it vanished since,
/// the agent is told so.
pub(super) async fn content(
    doors: &Doors,
    found: &Found,
    name: &str,
) -> Result<Vec<u8>, ToolError> {
    let reference = found.reference().clone();
    let lookup = name.to_owned();
    match doors
        .blocking(move |store| store.attachment_content(&reference, &lookup, None))
        .await?
    {
        Ok(Some((_, bytes))) => Ok(bytes),
        Ok(None) => Err(ToolError::new(format!(
            "Error: the attachment \"{}\" was deleted while it was being read. Call get_document \
             for the current attachments.",
            fragment(name)
        ))
        .with_kind(ErrorKind::NotFound)),
        Err(error) => Err(store_failure("read the attachment", &error)),
    }
}

/// The metadata lines, each ending with a line feed.
fn header(
    reference: &DocumentReference,
    document_version: &str,
    info: &AttachmentInfo,
    download: Option<&str>,
) -> String {
    let mut out = format!(
        "Attachment: {}\nDocument: {} (version {document_version})\nMimetype: {}\nSize: {} ({})\nAttachment \
         version: {}\n",
        fragment(&info.name),
        fragment(&reference.to_string()),
        fragment(info.media.effective()),
        human_size(i64::try_from(info.size).unwrap_or(i64::MAX)),
        counted(
            usize::try_from(info.size).unwrap_or(usize::MAX),
            "byte",
            "bytes"
        ),
        info.version
    );
    if !info.author.trim().is_empty() {
        let _ = writeln!(out, "Author: {}", fragment(&info.author));
    }
    let _ = writeln!(out, "Date: {}", minute(info.date));
    if let Some(url) = download {
        let _ = writeln!(out, "Download: {url}");
    }
    out
}

/// `yyyy-MM-dd HH:mm` in UTC, the header's date form.
fn minute(date: OffsetDateTime) -> String {
    let utc = date.to_offset(wiki_tool_sdk::time::UtcOffset::UTC);
    format!(
        "{:04}-{:02}-{:02} {:02}:{:02}",
        utc.year(),
        u8::from(utc.month()),
        utc.day(),
        utc.hour(),
        utc.minute()
    )
}

/// Where to get a file that is not shown.
fn download_advice(download: Option<&str>) -> String {
    match download {
        Some(_) => "Use the Download: link above to fetch it.".to_owned(),
        None => "No download link is given: links are off for this call (an administrator turns \
                 them on with the wiki's links setting; a client can ask for them per call), or \
                 the server has no public URL (--public-url)."
            .to_owned(),
    }
}

/// The route of a media type (parameters such as `; charset=` ignored).
fn route(media_type: &str) -> Route {
    let essence = media_type
        .split(';')
        .next()
        .unwrap_or_default()
        .trim()
        .to_ascii_lowercase();
    match essence.as_str() {
        "application/pdf" => Route::Pdf,
        "image/png" | "image/jpeg" | "image/gif" | "image/webp" => Route::Image,
        "text/rtf" => Route::Download,
        "image/svg+xml"
        | "application/json"
        | "application/xml"
        | "application/javascript"
        | "application/x-javascript"
        | "application/x-yaml"
        | "application/yaml"
        | "application/x-sh"
        | "application/toml" => Route::Text,
        other if other.starts_with("text/") => Route::Text,
        other if other.ends_with("+json") || other.ends_with("+xml") => Route::Text,
        _ => Route::Download,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn routes_follow_the_reference() {
        for text in [
            "text/plain",
            "text/markdown",
            "text/csv; charset=utf-8",
            "application/json",
            "application/ld+json",
            "application/atom+xml",
            "image/svg+xml",
            "application/x-sh",
            "application/x-yaml",
        ] {
            assert_eq!(route(text), Route::Text, "{text}");
        }
        assert_eq!(route("application/pdf"), Route::Pdf);
        for image in ["image/png", "image/jpeg", "image/gif", "image/webp"] {
            assert_eq!(route(image), Route::Image, "{image}");
        }
        for other in [
            "text/rtf",
            "image/tiff",
            "application/zip",
            "application/octet-stream",
            "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        ] {
            assert_eq!(route(other), Route::Download, "{other}");
        }
    }

    #[test]
    fn dates_are_printed_to_the_minute_in_utc() {
        let date = time::macros::datetime!(2026-11-30 10:05:59 +01:00);
        assert_eq!(minute(date), "2026-11-30 09:05");
    }
}
