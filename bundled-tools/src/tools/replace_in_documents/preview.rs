//! The preview: the pages the search door selects, read in title order, and for each one that
//! contains the text its replacement count, its version and whether the caller may edit it.
//! Nothing is written; nothing the caller cannot view is read.

use wiki_tool_sdk::access::write::reserved::is_configuration;
use wiki_tool_sdk::prelude::*;
use wiki_tool_sdk::store::model::search::{SearchQuery, SearchSort, WikiScope};
use wiki_tool_sdk::untrusted::fragment;

use super::replace::occurrences;
use super::{
    MAX_PAGES, PageOutcome, ReplaceInDocuments, Replaced, Status, page_name, replacements,
};
use crate::seams::counted::{count, counted};

/// The most selected pages one preview reads.
const SCAN_PAGES: usize = 200;

/// A selected page that contains the text.
struct Found {
    reference: DocumentReference,
    locale: Option<Locale>,
    version: Version,
    replacements: usize,
}

pub(super) async fn preview(
    ctx: &ToolContext,
    tool: &ReplaceInDocuments,
) -> ToolResult<Structured<Replaced>> {
    let doors = ctx.doors()?;
    let wiki = doors.existing_wiki(tool.write.wiki.as_deref()).await?;
    let offset = tool.offset.unwrap_or(0);
    let mut query = SearchQuery::new(tool.query.clone(), WikiScope::Only(vec![wiki]));
    query.space = tool.space.as_deref().map(space_argument).transpose()?;
    query.sort = SearchSort::Title;
    query.offset = offset;
    query.limit = SCAN_PAGES;
    let results = doors.search(query).await?;
    let rows: Vec<(DocumentReference, Option<Locale>)> = results
        .hits
        .into_iter()
        .map(|hit| (hit.candidate.reference, hit.candidate.locale))
        .collect();
    let find = tool.find.clone();
    let cancelled = ctx.cancellation().clone();
    let (found, read) = doors
        .blocking(move |store| {
            let mut found = Vec::new();
            let mut read = 0;
            for (reference, locale) in rows {
                if cancelled.is_cancelled() || found.len() == MAX_PAGES {
                    break;
                }
                read += 1;
                // A row deleted since the search is simply no longer selected.
                let Some(row) = store.document(&reference, locale.as_ref())? else {
                    continue;
                };
                let replacements = occurrences(&row.content, &find);
                if replacements > 0 {
                    found.push(Found {
                        reference,
                        locale,
                        version: row.version,
                        replacements,
                    });
                }
            }
            Ok::<_, StoreError>((found, read))
        })
        .await?
        .map_err(|error| store_failure("read the selected pages", &error))?;
    let scanned = offset + read;
    let more = scanned < results.total || (scanned == results.total && results.total_capped);
    let next_offset = more.then_some(scanned);

    let mut pages = Vec::with_capacity(found.len());
    for page in &found {
        let editable =
            doors.has_right(&page.reference, Right::Edit) && !is_configuration(&page.reference);
        pages.push(PageOutcome {
            reference: page.reference.to_string(),
            locale: page.locale.as_ref().map(ToString::to_string),
            base_version: page.version.to_string(),
            version: None,
            replacements: count(page.replacements),
            status: if editable {
                Status::Matches
            } else {
                Status::Refused
            },
            error: (!editable).then(|| "you may view it but not edit it".to_owned()),
        });
    }
    let text = report(&pages, read, next_offset);
    let value = Replaced {
        pages,
        next_offset: next_offset.map(count),
    };
    Ok(Structured::new(value, text))
}

/// `space`, as query_documents takes it.
fn space_argument(space: &str) -> Result<SpacePath, ToolError> {
    SpacePath::parse(space).map_err(|error| {
        ToolError::new(format!(
            "Error: 'space' must be a space name such as \"Sales\" or \"Sales.Europe\" (got \
             \"{}\": {error}).",
            fragment(space)
        ))
        .with_kind(ErrorKind::BadArgument)
    })
}

/// The preview as the agent reads it, ending with the `pages` argument that applies it.
fn report(pages: &[PageOutcome], read: usize, next_offset: Option<usize>) -> String {
    let editable: Vec<&PageOutcome> = pages
        .iter()
        .filter(|page| page.status == Status::Matches)
        .collect();
    let total: u64 = editable.iter().map(|page| page.replacements).sum();
    let mut out = vec![format!(
        "Preview, nothing written: {} of the {} contain the text; {} in the {} you may edit.",
        counted(pages.len(), "page", "pages"),
        counted(read, "selected page read", "selected pages read"),
        replacements(total),
        counted(editable.len(), "page", "pages"),
    )];
    for page in pages {
        let mut line = format!(
            "- {} (version {}): {}",
            page_name(&page.reference, page.locale.as_deref()),
            page.base_version,
            replacements(page.replacements)
        );
        if let Some(error) = &page.error {
            line.push_str(&format!("; refused: {error}"));
        }
        out.push(line);
    }
    if !editable.is_empty() {
        let listed: Vec<String> = editable.iter().map(|page| page_argument(page)).collect();
        out.push(format!(
            "To apply, call replace_in_documents with the same find and replace and \
             pages=[{}]",
            listed.join(", ")
        ));
    }
    if let Some(offset) = next_offset {
        out.push(format!(
            "More selected pages may contain the text: preview with offset={offset} for the \
             next ones."
        ));
    }
    out.join("\n")
}

/// One page of the `pages` argument, as JSON.
fn page_argument(page: &PageOutcome) -> String {
    let locale = page.locale.as_deref().map_or_else(String::new, |locale| {
        format!(", \"locale\": {}", json_string(locale))
    });
    format!(
        "{{\"reference\": {}{locale}, \"base_version\": \"{}\"}}",
        json_string(&page.reference),
        page.base_version
    )
}

/// `text` as a JSON string: quotes and backslashes escaped (a reference holds no control
/// character the result would not escape anyway).
fn json_string(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for character in text.chars() {
        if matches!(character, '"' | '\\') {
            out.push('\\');
        }
        out.push(character);
    }
    out.push('"');
    out
}
