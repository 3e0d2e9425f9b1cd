//! `get_document`: a document's source with numbered lines, its outline when it is
//! too large for one result, line windows, translations, and a rendered (read-only) view.
//!
//! Order of checks: the door (reach, view right, space filter), then existence, then locale
//! routing, then the argument combinations, then the rendered gate, then output. Nothing about a
//! page the caller may not view is said before the door answers.

mod output;

use std::fmt::Write as _;

use mcp_runtime::output::budget::{CHARS_PER_TOKEN, MAX_OUTPUT_CHARS, TRUNCATION_NOTE};
use mcp_runtime::output::guard::{fence_for, fenced};
use mcp_runtime::output::lines::normalize_line_endings;
use mcp_runtime::output::result::budgeted_result;
use mcp_runtime::output::size::human_size;
use wiki_tool_sdk::access::{Doors, store_failure};
use wiki_tool_sdk::prelude::*;
use wiki_tool_sdk::store::model::attachment::AttachmentInfo;
use wiki_tool_sdk::store::model::class::ClassDefinition;
use wiki_tool_sdk::store::model::document::Document;
use wiki_tool_sdk::store::model::locale::Locale;
use wiki_tool_sdk::store::model::object::ObjectRecord;
use wiki_tool_sdk::untrusted::fragment;

use self::output::{DocumentOutput, Shows, WindowOutput};
use crate::seams::attachment_meta::AttachmentMeta;
use crate::seams::counted::{count, counted};
use crate::seams::lookup::{Found, find_document};
use crate::seams::outline::{headings, outline_lines};
use crate::seams::render::{PageLinks, Rendering};
use crate::seams::rendered_pages::rendered_page;
use crate::seams::translation::{locale_argument, route, translations_line};
use crate::seams::urls::{Target, link};
use crate::seams::window::{line_window_at, numbered_whole, split_lines};
use wiki_tool_sdk::markdown::limits::TooComplex;

/// How many attachments the header names before "+K more".
const ATTACHMENTS_SHOWN: usize = 10;

/// Read a document's Markdown source as numbered lines (never copy a number or TAB into an
/// edit), or a rendered read-only view.
///
/// Over 24,000 characters you get its OUTLINE: read parts with offset and limit.
#[mcp_tool(
    output = DocumentOutput,
    id = "get_document",
    category = categories::SEARCH_AND_NAVIGATION,
    title = "Read a document",
    man = "NOTES
    The header gives the reference, title, version (pass it as base_version when you edit),
    translations, attachments and size.

    Source mode (the default) prints the Markdown exactly as stored: CommonMark with the GitHub
    extensions; a link whose destination is a wiki reference ([label](Space.Page)) is a wiki
    link (see `man markdown-syntax`). CR and CRLF are shown as LF. Lines are numbered `cat -n`
    style: six columns, a TAB, the line. Never copy the number or the TAB into an edit.

    Size: a source of at most 24,000 characters (~6,000 tokens) is printed whole. A larger one
    is replaced by its heading OUTLINE (`L<line>: <title>`, indented two spaces per level): it is
    NOT the content; read a part with offset=<line> and limit=<lines>. A large page with fewer
    than two headings has no useful outline: its head is printed instead, cut at the budget,
    with the offset that continues it. Every window ends with `Showing lines a-b of n.` and,
    when the budget stopped it early, `continue with offset=<b+1>`. A single line longer than
    the budget is cut inside: the footer then says `continue with offset=<b> column=<c>`, and
    column=<c> starts the window at that character of the line, so all of it can be read.

    Lines end at LF and at the other Unicode line terminators (VT, FF, NEL, U+2028, U+2029),
    so every line of the output starts with its number. A line that ends with one of those
    instead of LF is named in the footer: quote that character, not a line break, in an edit.

    Translations: locale picks exactly one row. The default language (see the Translations line)
    reads the default row; another locale reads that translation only, never a fallback; a
    missing one is an error listing the existing translations. Rights are the same for every
    row.

    Rendered mode (rendered=true): the Markdown rendered by a CommonMark renderer, as plain text
    (format=plain, the default; stack traces collapsed) or as HTML (format=html) cleaned by an
    allow-list sanitizer: no scripts, event handlers, styles or javascript: links survive.
    detail=stripped (default) keeps only structure, link targets and image sources;
    detail=full keeps the safe attributes, each shortened to 100 characters. A rendered page is
    cut into sections at its headings; anchors are GitHub-style (#install, #install-1 for a
    repeat) and #(intro) is the text before the first heading. outline=true lists the sections
    with their sizes; section=<anchor> prints one section with its subsections. HTML is printed
    between fence lines (```html, or ~~~html when the page has runs of backticks), longer than
    any run inside, so nothing in the page can pass for a line of the tool's output. The
    RENDERED VIEW is read-only: never form edit strings from it. offset and limit apply to
    rendered plain text, not to HTML. An administrator can turn rendered content off for an
    endpoint (the wiki's MCP configuration, allow_rendered; on by default).

    Rendering has bounds, checked before it starts: at most 500,000 characters, lists and
    block quotes nested at most 32 deep, HTML elements at most 128 deep. A page past one is
    shown as its SOURCE instead (numbered lines, or its heading outline), under a note that
    says which bound it passed; read it by parts with offset and limit. Renders run a few at a
    time; when all are busy for 5 seconds the call says so: retry it shortly.

    A document with no text of its own says so and points at its objects, if it holds any.

EXAMPLES
    get_document reference=\"Sandbox.WebHome\"
    get_document reference=\"Help.Guide\" offset=120 limit=80
    get_document reference=\"Logs.Dump\" offset=3 column=23993
    get_document reference=\"Help.Guide\" outline=true
    get_document reference=\"Help.Guide\" locale=\"fr\"
    get_document reference=\"Help.Guide\" rendered=true format=html outline=true
    get_document reference=\"Help.Guide\" rendered=true format=html section=\"#install\"

SEE ALSO
    get_history (older versions and diffs), get_links, get_attachment, query_objects,
    edit_document, man markdown-syntax"
)]
struct GetDocument {
    /// The document, e.g. "Sandbox.WebHome"; a space name means its home page.
    reference: String,
    /// A translation, e.g. "fr".
    locale: Option<String>,
    /// The first line to show.
    #[param(range = 1..)]
    offset: Option<usize>,
    /// Lines to show from offset.
    #[param(range = 1..)]
    limit: Option<usize>,
    /// The first line's character to start at.
    #[param(range = 1..)]
    column: Option<usize>,
    /// Only the heading outline.
    outline: bool,
    /// The page as readers see it (read-only), not its source.
    rendered: bool,
    /// With rendered (default plain).
    format: Option<Format>,
    /// With rendered: one section by its anchor, e.g. "#install".
    section: Option<String>,
    /// With format=html: stripped (default) or full attributes.
    detail: Option<Detail>,
    /// Another wiki (list_wikis).
    #[param(extended)]
    wiki: Option<String>,
}

/// The rendered output format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ParamEnum)]
enum Format {
    // Plain text.
    Plain,
    // Sanitized HTML.
    Html,
}

/// How much of the HTML's presentation is kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ParamEnum)]
enum Detail {
    // Structure, link targets and image sources only.
    Stripped,
    // The sanitizer's safe attributes, long values shortened.
    Full,
}

impl Execute<Structured<DocumentOutput>> for GetDocument {
    async fn execute(self, ctx: &ToolContext) -> ToolResult<Structured<DocumentOutput>> {
        let doors = ctx.doors()?;
        let found = find_document(doors, &self.reference, self.wiki.as_deref()).await?;
        let requested = locale_argument(self.locale.as_deref())?;
        let row = route(&found.locales, requested, found.reference())?;
        let mode = self.mode()?;
        let rendered = matches!(mode, Mode::Rendered(_));
        let loaded = load(doors, &found, row, rendered).await?;
        let (header, url) = header(ctx, &found, &loaded);
        let mut value = metadata(&found, &loaded, url);
        let document = &loaded.document;
        let output = match mode {
            Mode::Source => self.source(header, document, &mut value)?,
            Mode::Rendered(_) if !loaded.rendered_allowed => {
                return Err(ToolError::new(
                    "Error: rendered content is turned off for this endpoint by its \
                     administrator. Read the source instead (omit 'rendered').",
                )
                .with_kind(ErrorKind::Forbidden));
            }
            Mode::Rendered(rendering) => {
                let links = ctx.link_signer().map(|signer| PageLinks {
                    page: found.reference().clone(),
                    signer,
                });
                self.rendered(ctx, header, document, rendering, links, &mut value)
                    .await?
            }
        };
        Ok(output.structured(value))
    }
}

/// What the arguments ask for, once their combinations are checked.
enum Mode {
    Source,
    Rendered(Rendering),
}

impl GetDocument {
    /// The argument combinations the facts refuse, each with the fix.
    fn mode(&self) -> Result<Mode, ToolError> {
        let windowed = self.windowed();
        if !self.rendered {
            for (given, name) in [
                (self.format.is_some(), "format"),
                (self.section.is_some(), "section"),
                (self.detail.is_some(), "detail"),
            ] {
                if given {
                    return Err(ToolError::new(format!(
                        "Error: '{name}' applies only to the rendered view; add rendered=true, or \
                         drop '{name}' to read the source."
                    ))
                    .with_kind(ErrorKind::BadArgument));
                }
            }
        }
        if self.section.is_some() && self.outline {
            return Err(ToolError::new(
                "Error: 'section' and 'outline' cannot be combined: use outline=true to list the \
                 sections, then section=<anchor> to read one.",
            )
            .with_kind(ErrorKind::BadArgument));
        }
        if self.outline && windowed {
            return Err(ToolError::new(
                "Error: 'outline' shows only the headings; drop offset, limit and column, or \
                 drop outline to read lines.",
            )
            .with_kind(ErrorKind::BadArgument));
        }
        if self.section.is_some() && windowed {
            return Err(ToolError::new(
                "Error: 'section' prints one whole section; drop offset, limit and column.",
            )
            .with_kind(ErrorKind::BadArgument));
        }
        let html = self.format == Some(Format::Html);
        if self.detail.is_some() && !html {
            return Err(ToolError::new(
                "Error: 'detail' applies only to format=\"html\"; add it or drop 'detail'.",
            )
            .with_kind(ErrorKind::BadArgument));
        }
        if html && windowed {
            return Err(ToolError::new(
                "Error: offset, limit and column apply to the source and to rendered plain text, \
                 not to HTML; use outline=true and section=<anchor> to read HTML by parts.",
            )
            .with_kind(ErrorKind::BadArgument));
        }
        Ok(match (self.rendered, html, self.detail) {
            (false, _, _) => Mode::Source,
            (true, false, _) => Mode::Rendered(Rendering::Plain),
            (true, true, Some(Detail::Full)) => Mode::Rendered(Rendering::HtmlFull),
            (true, true, _) => Mode::Rendered(Rendering::HtmlStripped),
        })
    }

    /// Whether a line window was asked for.
    fn windowed(&self) -> bool {
        self.offset.is_some() || self.limit.is_some() || self.column.is_some()
    }

    /// Source mode: whole, outline, window, or a budget-capped head.
    fn source(
        &self,
        mut out: String,
        document: &Document,
        value: &mut DocumentOutput,
    ) -> ToolResult {
        let content = normalize_line_endings(&document.content);
        if self.windowed() {
            let window =
                line_window_at(&content, self.offset, self.column, self.limit, "document")?;
            out.push('\n');
            out.push_str(&window.with_footer());
            value.window = Some(WindowOutput::new(&window));
            return Ok(ToolOutput::text(out));
        }
        if content.is_empty() {
            // The header already says the page is empty, and what it holds instead.
            let trimmed = out.trim_end().len();
            out.truncate(trimmed);
            value.shows = Shows::Empty;
            return Ok(ToolOutput::text(out));
        }
        let chars = content.chars().count();
        if !self.outline && chars <= MAX_OUTPUT_CHARS {
            out.push('\n');
            out.push_str(&numbered_whole(&content));
            value.window = Some(WindowOutput::whole(split_lines(&content).len()));
            return Ok(ToolOutput::text(out));
        }
        // Only an outline needs the CommonMark parse of the whole page.
        let found = headings(&content);
        value.shows = Shows::Outline;
        if self.outline {
            out.push_str("\nOUTLINE (headings with their line numbers; NOT the content):\n");
            if found.is_empty() {
                out.push_str("This document has no headings.");
            } else {
                out.push_str(&outline_lines(&found));
            }
            return budgeted_result(&out, "");
        }
        if found.len() >= 2 {
            let _ = write!(
                out,
                "\nThis document is too large to show whole ({chars} characters, ~{} tokens). \
                 Below is its heading OUTLINE, NOT its content: read a part with \
                 offset=<line> limit=<lines>.\n",
                chars / CHARS_PER_TOKEN
            );
            out.push_str(&outline_lines(&found));
            return budgeted_result(&out, "");
        }
        let window = line_window_at(&content, None, None, None, "document")?;
        out.push('\n');
        out.push_str(&window.with_footer());
        value.shows = Shows::Lines;
        value.window = Some(WindowOutput::new(&window));
        Ok(ToolOutput::text(out))
    }

    /// Rendered mode: banner, header, then the outline, a section, or the page. Rendering runs
    /// off the async workers, a few at a time; a page past the bounds is shown as its source.
    async fn rendered(
        &self,
        ctx: &ToolContext,
        header: String,
        document: &Document,
        rendering: Rendering,
        links: Option<PageLinks>,
        value: &mut DocumentOutput,
    ) -> ToolResult {
        let rendered = rendered_page(ctx, document, rendering, links).await?;
        let page = match &*rendered {
            Ok(page) => page,
            Err(reason) => return self.not_rendered(header, document, *reason, value),
        };
        value.rendered = true;
        let mut out = banner(rendering, &document.reference.to_string());
        out.push_str(&header);
        out.push('\n');
        if self.outline {
            value.shows = Shows::Outline;
            out.push_str("RENDERED OUTLINE (sections with their sizes; NOT the content):\n");
            out.push_str(&page.outline());
            return budgeted_result(&out, "");
        }
        let text = match &self.section {
            Some(section) => page.section_by_argument(section)?,
            None => page.text(),
        };
        if rendering == Rendering::Plain {
            let window =
                line_window_at(&text, self.offset, self.column, self.limit, "rendered text")?;
            out.push_str(&window.with_footer());
            value.window = Some(WindowOutput::new(&window));
            return Ok(ToolOutput::text(out));
        }
        if self.section.is_none() && text.chars().count() > MAX_OUTPUT_CHARS {
            let _ = writeln!(
                out,
                "The rendered HTML is too large to show whole ({} characters). Below is its \
                 OUTLINE, NOT its content: read one part with section=<anchor>.",
                text.chars().count()
            );
            out.push_str(&page.outline());
            value.shows = Shows::Outline;
            return budgeted_result(&out, "");
        }
        value.shows = Shows::Html;
        // Fenced: the page's HTML cannot pass for a line of this tool's output.
        let (html, cut) = html_window(&text);
        out.push_str(&fenced(html, "html"));
        if cut {
            let _ = write!(
                out,
                "\n{TRUNCATION_NOTE}\nThis section is larger than one result; its subsections can \
                 be read one by one (outline=true lists them)."
            );
        }
        Ok(ToolOutput::text(out))
    }
}

/// As much of the rendered `html` as fits the budget with its fence, cut at a line end, and
/// whether it was cut.
fn html_window(html: &str) -> (&str, bool) {
    // Room for the fence lines and the truncation notes; a fence longer than 32 characters
    // (long runs of backticks and tildes) gets a third of the budget for the text instead.
    let mut room = MAX_OUTPUT_CHARS - 300;
    loop {
        let (shown, cut) = match html.char_indices().nth(room) {
            None => (html, false),
            Some((limit, _)) => match html[..limit].rfind('\n') {
                Some(line_feed) if line_feed > 0 => (&html[..line_feed], true),
                _ => (&html[..limit], true),
            },
        };
        if fence_for(shown).len() <= 32 || room < 3 {
            return (shown, cut);
        }
        room /= 3;
    }
}

impl GetDocument {
    /// A page past the renderer's bounds: its source (window, whole, outline or head, as source
    /// mode shows it for these arguments) under a note that says why and how to read it.
    fn not_rendered(
        &self,
        header: String,
        document: &Document,
        reason: TooComplex,
        value: &mut DocumentOutput,
    ) -> ToolResult {
        let mut out = header;
        let _ = writeln!(
            out,
            "NOT RENDERED: {reason}. Below is the page's SOURCE (Markdown as stored, numbered \
             lines), not what readers see; read it by parts with offset=<line> limit=<lines>, \
             as without rendered=true."
        );
        self.source(out, document, value)
    }
}

/// The row and what its header shows, read in ONE trip to the store: each trip is a hop to a
/// blocking thread, and on a loaded machine the hops, not the reads, dominate a call.
struct Loaded {
    document: Document,
    attachments: Vec<AttachmentInfo>,
    /// Only read for a page with no text of its own (the provenance note).
    objects: Vec<ObjectRecord>,
    /// The class this document defines, if any; only read for a page with no text of its own.
    class: Option<ClassDefinition>,
    /// The default row's title, for a translation without a title of its own.
    default_title: Option<String>,
    /// The rendered gate: whether the administrator of the ENDPOINT's wiki (not the page's)
    /// allows rendered content. Only read when rendering was asked for.
    rendered_allowed: bool,
}

/// Reads the routed row of the door-authorized document (never a reference parsed here), its
/// attachments and, for an empty page, its objects.
async fn load(
    doors: &Doors,
    found: &Found,
    row: Option<Locale>,
    rendered: bool,
) -> Result<Loaded, ToolError> {
    let reference = found.reference().clone();
    let endpoint = doors.wiki().clone();
    let loaded = doors
        .blocking(
            move |store| -> wiki_tool_sdk::store::Result<Option<Loaded>> {
                let Some(document) = store.document(&reference, row.as_ref())? else {
                    return Ok(None);
                };
                let attachments = store.attachments(&reference)?;
                let (objects, class) = if document.content.trim().is_empty() {
                    (store.objects(&reference)?, store.class(&reference)?)
                } else {
                    (Vec::new(), None)
                };
                let default_title = if document.locale.is_some() && document.title.trim().is_empty()
                {
                    store
                        .document(&reference, None)?
                        .map(|default| default.title)
                        .filter(|title| !title.trim().is_empty())
                } else {
                    None
                };
                let rendered_allowed = rendered && store.mcp_config(&endpoint).allow_rendered;
                Ok(Some(Loaded {
                    document,
                    attachments,
                    objects,
                    class,
                    default_title,
                    rendered_allowed,
                }))
            },
        )
        .await?
        .map_err(|error| store_failure("read the document", &error))?;
    // Deleted between the existence check and this read.
    loaded.ok_or_else(|| {
        ToolError::new(format!(
            "No such document: \"{}\".",
            fragment(&found.reference().to_string())
        ))
        .with_kind(ErrorKind::NotFound)
    })
}

/// The document's metadata as [`DocumentOutput`], its text shown as numbered lines until the
/// mode says otherwise.
fn metadata(found: &Found, loaded: &Loaded, url: Option<String>) -> DocumentOutput {
    let document = &loaded.document;
    let content = normalize_line_endings(&document.content);
    let title = match (&loaded.default_title, document.title.trim().is_empty()) {
        (Some(default), true) => default.clone(),
        (None, true) => document.reference.name().to_owned(),
        (_, false) => document.title.clone(),
    };
    DocumentOutput {
        reference: document.reference.to_string(),
        locale: document.locale.as_ref().map(ToString::to_string),
        default_locale: document.default_locale.to_string(),
        translations: (found.locales.translations.iter())
            .map(ToString::to_string)
            .collect(),
        title,
        syntax: document.syntax.clone(),
        version: document.version.to_string(),
        author: document.author.clone(),
        modified: iso_instant(document.updated),
        hidden: document.hidden,
        url,
        lines: count(split_lines(&content).len()),
        chars: count(content.chars().count()),
        attachments: loaded.attachments.iter().map(AttachmentMeta::new).collect(),
        rendered: false,
        shows: Shows::Lines,
        window: None,
    }
}

/// The header lines shared by every mode, and the document's URL (the `URL:` line).
fn header(ctx: &ToolContext, found: &Found, loaded: &Loaded) -> (String, Option<String>) {
    let document = &loaded.document;
    let reference = found.reference();
    let mut out = String::new();
    let _ = writeln!(out, "Reference: {}", fragment(&reference.to_string()));
    let view = Target::View {
        reference,
        locale: document.locale.as_ref(),
    };
    let url = link(ctx, view);
    if let Some(url) = &url {
        let _ = writeln!(out, "URL: {url}");
    }
    // A translation saved without a title reads as the page reads in its default language.
    match (&loaded.default_title, document.title.trim().is_empty()) {
        (Some(default), true) => {
            let _ = writeln!(
                out,
                "Title: {} (the default language's: this translation has no title of its own)",
                fragment(default)
            );
        }
        (None, true) => {
            let _ = writeln!(out, "Title: {}", fragment(reference.name()));
        }
        (_, false) => {
            let _ = writeln!(out, "Title: {}", fragment(&document.title));
        }
    }
    let _ = writeln!(out, "Syntax: {}", fragment(&document.syntax));
    let _ = writeln!(out, "Version: {}", document.version);
    if let Some(locale) = &document.locale {
        let _ = writeln!(out, "Language: {locale}");
    }
    if let Some(line) = translations_line(&found.locales) {
        let _ = writeln!(out, "{line}");
    }
    if document.hidden {
        out.push_str("Hidden: yes (left out of trees and searches unless asked for)\n");
    }
    if let Some(line) = attachments_line(&loaded.attachments) {
        let _ = writeln!(out, "{line}");
    }
    let content = normalize_line_endings(&document.content);
    let chars = content.chars().count();
    let _ = writeln!(
        out,
        "Size: {} · {} · ~{}",
        counted(split_lines(&content).len(), "line", "lines"),
        counted(chars, "char", "chars"),
        counted(chars / CHARS_PER_TOKEN, "token", "tokens")
    );
    if content.trim().is_empty() {
        out.push_str(&empty_note(&loaded.objects, loaded.class.as_ref()));
    }
    (out, url)
}

/// `Attachments: a (3 KB, text/plain) · b (…) · +K more`, or `None` without attachments.
fn attachments_line(attachments: &[AttachmentInfo]) -> Option<String> {
    if attachments.is_empty() {
        return None;
    }
    let mut parts: Vec<String> = attachments
        .iter()
        .take(ATTACHMENTS_SHOWN)
        .map(|attachment| {
            format!(
                "{} ({}, {})",
                fragment(&attachment.name),
                human_size(i64::try_from(attachment.size).unwrap_or(i64::MAX)),
                fragment(attachment.media.effective())
            )
        })
        .collect();
    if attachments.len() > ATTACHMENTS_SHOWN {
        parts.push(format!("+{} more", attachments.len() - ATTACHMENTS_SHOWN));
    }
    Some(format!("Attachments: {}", parts.join(" · ")))
}

/// What an empty page is made of: the class it defines (a class document reads as an empty
/// page, its fields live elsewhere), its objects, if it holds any.
fn empty_note(objects: &[ObjectRecord], class: Option<&ClassDefinition>) -> String {
    if let Some(class) = class.filter(|class| !class.enabled_names().is_empty()) {
        let name = fragment(&class.name);
        let fields = class.enabled_names().len();
        return format!(
            "This document has no text of its own: it defines the class {name} ({}). Read its \
             fields with get_schema class=\"{name}\", its objects with query_objects \
             class=\"{name}\".\n",
            counted(fields, "field", "fields")
        );
    }
    if objects.is_empty() {
        return "This document has no content.\n".to_owned();
    }
    let mut classes: Vec<&str> = objects.iter().map(|object| object.class.as_str()).collect();
    classes.dedup();
    format!(
        "This document has no text of its own; it holds {} object(s) of {}: read them with \
         query_objects, their fields with get_schema.\n",
        objects.len(),
        classes
            .iter()
            .map(|class| fragment(class).into_owned())
            .collect::<Vec<_>>()
            .join(", ")
    )
}

/// The banner every rendered result starts with, ending in the read-only warning.
fn banner(rendering: Rendering, reference: &str) -> String {
    let kind = match rendering {
        Rendering::Plain => "plain text",
        Rendering::HtmlStripped | Rendering::HtmlFull => "sanitized HTML",
    };
    format!(
        "RENDERED VIEW ({kind}) of {}: what readers see, not the source. It is read-only: never \
         form edit strings from it; edit against the source (get_document without rendered).\n",
        fragment(reference)
    )
}
