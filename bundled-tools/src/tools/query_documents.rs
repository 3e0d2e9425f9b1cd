//! `query_documents`: full-text search and browsing, through the search door.
//!
//! The door sets the wiki scope (`wiki`, `all` only with reach) and hands the store a predicate
//! (reach, space filter, view right) that the store applies to every candidate BEFORE counting
//! and paging: totals and pages only ever reflect documents the caller may view, so a denied
//! page leaves no countable trace, and no page of results comes back empty for rights reasons.
//! The agent's words never reach the index as syntax (the store quotes each word).

mod hits;
mod range;

use std::fmt::Write as _;

use mcp_runtime::output::result::budgeted_result;
use wiki_tool_sdk::instant::iso_instant;
use wiki_tool_sdk::prelude::*;
use wiki_tool_sdk::store::model::search::{
    SearchCandidate, SearchHit, SearchQuery, SearchResults, SearchSort,
};
use wiki_tool_sdk::store::model::wiki::WikiId;
use wiki_tool_sdk::store::reference::SpacePath;
use wiki_tool_sdk::time::{Duration, OffsetDateTime};
use wiki_tool_sdk::untrusted::{fragment, single_line};

use self::hits::{SearchOutput, SearchOutputHit, shown_title};
use self::range::{RangeError, parse_range};
use crate::seams::counted::count;
use crate::seams::one_line::one_line;
use crate::seams::paging::offset_past_end;
use crate::seams::translation::locale_argument;
use crate::seams::urls::{Target, link};

/// Results per page when `limit` is absent.
const DEFAULT_LIMIT: usize = 10;

/// The most results per page; a larger `limit` is capped, with a note.
const MAX_LIMIT: usize = 25;

/// Authorized matches counted at most per search; past it the total is a lower bound.
const SCAN_LIMIT: usize = 2000;

/// Characters of a browse snippet before `...` marks that the content goes on.
const BROWSE_SNIPPET_CHARS: usize = 200;

/// Search the wiki's documents by words (every word must occur), or browse them with filters.
#[mcp_tool(
    id = "query_documents",
    category = categories::SEARCH_AND_NAVIGATION,
    title = "Search documents",
    output = SearchOutput,
    man = "NOTES
    Each result's Reference is what get_document takes; page with offset as the footer says.
    Filters: space, author, locale, modifiedWithin or modifiedRange, includeHidden; all of them must
    hold. Only documents you may view are counted and returned. sort is relevance (best match
    first), newest or oldest (by last change) or title.

    Words: every word of query must occur in the title or the content, in any form of the same
    English stem (plan finds plans and planning), ignoring case and accents. Search syntax is
    NOT interpreted: quotes, *, :, (), NEAR, AND/OR/NOT are plain words, and punctuation-only
    queries match nothing. A match in the title weighs more than one in the content. Without
    query the call browses: newest first unless sort says else.

    Results are separated by `---`. Each has Title, Reference (wiki:Space.Page: pass it to
    get_document as is), Language (with `(translation)` for a translation row), URL (when the
    server has a public URL), Modified (ISO-8601 UTC, by whom), Rank (relevance order only:
    the result's place among the matches you may view, 1 is the best) and Snippet (around the
    matched words, or the first 200 characters). No raw relevance score is printed: it is
    computed over the whole index, documents you cannot view included.

    Counting: only documents you may view count, so the total is exact, and it is computed
    before paging. At most 2000 matches you may view are counted per call (or fewer when the
    search runs out of time): past that the footer says `at least`, and narrowing the query or
    adding filters reaches the rest. limit is 1-25 (larger
    values are capped, with a note); an offset at or past the total is an error.

    Filters: space=\"Sales\" keeps Sales and its nested spaces (Sales.Europe…). With cross-wiki
    reach, a wiki prefix (space=\"dev:Docs\") searches that wiki, as wiki=\"dev\" would. author
    is a user name (the prefixes of a user reference such as main:XWiki.alice are dropped).
    locale keeps rows in that language (a translation, or a default row written in it).
    modifiedWithin=day|week|month|year counts back from now (24 hours, 7, 30 or 365 days).
    modifiedRange takes exactly one range `[<from> TO <to>]`, each side `*`, NOW with date math
    (NOW-7DAYS, NOW/DAY, NOW-1MONTH/DAY) or an instant such as 2026-01-31T00:00:00Z; with
    modifiedWithin as well the call is refused, as one of them would have no effect. Hidden
    documents are left out unless includeHidden=true. The endpoint's space filter always applies.

    wiki searches another wiki, or every wiki with wiki=\"all\", only when this endpoint has
    cross-wiki reach (see list_wikis).

EXAMPLES
    query_documents query=\"release checklist\"
    query_documents query=\"invoice\" space=\"Sales\" sort=\"newest\" limit=25
    query_documents modifiedWithin=\"week\" author=\"alice\"
    query_documents query=\"roadmap\" wiki=\"all\" offset=10
    query_documents modifiedRange=\"[NOW-1MONTH/DAY TO NOW]\" includeHidden=true

SEE ALSO
    get_document, get_tree, query_objects, list_wikis"
)]
struct QueryDocuments {
    /// Words to find, literally; omit to browse.
    query: Option<String>,
    /// Another wiki, or "all" (list_wikis).
    #[param(extended)]
    wiki: Option<String>,
    /// A space, nested spaces included, e.g. "Sales".
    space: Option<String>,
    /// Last changed by this user.
    author: Option<String>,
    /// Rows in this language.
    locale: Option<String>,
    /// Changed within this last period.
    #[param(rename = "modifiedWithin")]
    modified_within: Option<Within>,
    /// Changed in a range, e.g. "[NOW-7DAYS TO NOW]"; not with modifiedWithin.
    #[param(rename = "modifiedRange")]
    modified_range: Option<String>,
    /// Default: relevance with query, newest without.
    sort: Option<Sort>,
    /// Results per page, 1-25 (default 10).
    limit: Option<usize>,
    /// Results to skip, for the next page.
    #[param(default = 0)]
    offset: usize,
    /// Include hidden (technical) documents.
    #[param(rename = "includeHidden")]
    include_hidden: bool,
}

/// A recent period, counted back from now.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ParamEnum)]
enum Within {
    // The last 24 hours.
    Day,
    // The last 7 days.
    Week,
    // The last 30 days.
    Month,
    // The last 365 days.
    Year,
}

/// Result order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ParamEnum)]
enum Sort {
    // Best match first.
    Relevance,
    // Most recently changed first.
    Newest,
    // Least recently changed first.
    Oldest,
    // By title.
    Title,
}

impl Execute<Structured<SearchOutput>> for QueryDocuments {
    async fn execute(self, ctx: &ToolContext) -> ToolResult<Structured<SearchOutput>> {
        let (limit, capped) = self.limit()?;
        let offset = self.offset;
        let doors = ctx.doors()?;
        let (space_wiki, space) = self.space()?;
        let wiki = self.wiki_with(space_wiki)?;
        let mut query = SearchQuery::new(
            self.query.clone(),
            doors.search_wikis(wiki.as_deref()).await?,
        );
        query.space = space;
        query.author = self.author();
        query.locale = locale_argument(self.locale.as_deref())?;
        (query.modified_from, query.modified_to) = self.modified(OffsetDateTime::now_utc())?;
        query.include_hidden = self.include_hidden;
        query.sort = self.sort();
        query.offset = offset;
        query.limit = limit;
        query.scan_limit = SCAN_LIMIT;
        let results = search(ctx, doors, query).await?;
        let mut value = SearchOutput {
            hits: Vec::new(),
            total: count(results.total),
            total_capped: results.total_capped,
            offset: count(offset),
            next_offset: None,
        };
        if results.total == 0 {
            return Ok(Structured::new(value, self.nothing_found()));
        }
        if offset >= results.total {
            let count = format!(
                "{} matching documents{}",
                results.total,
                if results.total_capped { " or more" } else { "" }
            );
            return Err(offset_past_end(offset, results.total, "result", &count));
        }
        let relevance = self.query.is_some() && self.sort() == SearchSort::Relevance;
        let searched = !results.terms.is_empty();
        let mut blocks = Vec::with_capacity(results.hits.len());
        for (index, hit) in results.hits.iter().enumerate() {
            let rank = relevance.then_some(offset + index + 1);
            let candidate = &hit.candidate;
            let target = Target::View {
                reference: &candidate.reference,
                locale: candidate.locale.as_ref(),
            };
            let url = link(ctx, target);
            let snippet = snippet(hit, searched);
            blocks.push(result_block(hit, url.as_deref(), rank, &snippet));
            value
                .hits
                .push(SearchOutputHit::new(hit, url, rank, snippet));
        }
        let body = blocks.join("\n---\n");
        let next = offset + results.hits.len();
        value.next_offset = (next < results.total).then(|| count(next));
        let footer = footer(
            results.total,
            results.total_capped,
            offset,
            results.hits.len(),
            capped,
        );
        Ok(budgeted_result(&body, &format!("\n{footer}"))?.structured(value))
    }
}

/// Runs `query` through the store, each candidate authorized by the search door's predicate:
/// the candidates authorized are reported as progress, and once the call is cancelled every
/// further candidate is refused (so the scan ends at the store's pace with nothing counted;
/// its result is never read).
async fn search(
    ctx: &ToolContext,
    doors: &Doors,
    query: SearchQuery,
) -> Result<SearchResults, ToolError> {
    let mut scan = ctx.scan_signals("candidates authorized");
    let authorizer = doors.clone();
    doors
        .blocking(move |store| {
            let mut visible = authorizer.search_predicate();
            let mut accept = |candidate: &SearchCandidate| scan.step() && visible(candidate);
            let results = store.search(&query, &mut accept);
            scan.finish();
            results
        })
        .await?
        .map_err(|error| store_failure("search the wiki", &error))
}

impl QueryDocuments {
    /// The page size, capped at 25, and whether it was capped; a limit of 0 asks for nothing
    /// and is refused.
    fn limit(&self) -> Result<(usize, bool), ToolError> {
        match self.limit {
            None => Ok((DEFAULT_LIMIT, false)),
            Some(0) => Err(ToolError::new(format!(
                "Error: 'limit' must be at least 1 (got 0): it is how many results to show; \
                 omit it for {DEFAULT_LIMIT}."
            ))
            .with_kind(ErrorKind::BadArgument)),
            Some(asked) if asked > MAX_LIMIT => Ok((MAX_LIMIT, true)),
            Some(asked) => Ok((asked, false)),
        }
    }

    /// The `space` filter, and the wiki its `wiki:` prefix names, if it has one
    /// (`space="dev:Docs"` is space Docs of wiki dev, as a reference would say).
    fn space(&self) -> Result<(Option<String>, Option<SpacePath>), ToolError> {
        let Some(space) = self.space.as_deref() else {
            return Ok((None, None));
        };
        let (wiki, path) = match space.split_once(':') {
            Some((prefix, rest))
                if !prefix.contains(['.', '\\']) && WikiId::new(prefix).is_ok() =>
            {
                (Some(prefix.to_owned()), rest)
            }
            _ => (None, space),
        };
        let path = SpacePath::parse(path).map_err(|error| {
            ToolError::new(format!(
                "Error: 'space' must be a space name such as \"Sales\" or \"Sales.Europe\" (got \
                 \"{}\": {error}).",
                fragment(space)
            ))
            .with_kind(ErrorKind::BadArgument)
        })?;
        Ok((wiki, Some(path)))
    }

    /// The `wiki` argument, or the wiki a `space` prefix names; both must agree.
    fn wiki_with(&self, space_wiki: Option<String>) -> Result<Option<String>, ToolError> {
        match (self.wiki.as_deref(), space_wiki) {
            (None, prefix) => Ok(prefix),
            (Some(wiki), Some(prefix)) if wiki.trim() != prefix => Err(ToolError::new(format!(
                "Error: 'space' names wiki \"{}\" but 'wiki' is \"{}\": drop the prefix from \
                 space or the wiki argument.",
                fragment(&prefix),
                fragment(wiki)
            ))
            .with_kind(ErrorKind::BadArgument)),
            (Some(wiki), _) => Ok(Some(wiki.to_owned())),
        }
    }

    /// The author as stored: a user name, without the `wiki:` and `XWiki.` prefixes an agent
    /// may copy from a user reference (`main:XWiki.alice`); users are farm-wide, so any wiki's
    /// prefix names the same user.
    fn author(&self) -> Option<String> {
        let author = self.author.as_deref()?.trim();
        let author = match author.split_once(':') {
            Some((prefix, user)) if WikiId::new(prefix).is_ok() => user,
            _ => author,
        };
        Some(author.strip_prefix("XWiki.").unwrap_or(author).to_owned())
    }

    /// `modifiedRange` if given (strict grammar), else `modifiedWithin`, else no date filter.
    fn modified(
        &self,
        now: OffsetDateTime,
    ) -> Result<(Option<OffsetDateTime>, Option<OffsetDateTime>), ToolError> {
        if let Some(text) = self.modified_range.as_deref() {
            if self.modified_within.is_some() {
                return Err(ToolError::new(
                    "Error: give 'modifiedWithin' or 'modifiedRange', not both: the range alone \
                     decides the dates. Drop one of them.",
                )
                .with_kind(ErrorKind::BadArgument));
            }
            return parse_range(text, now).map_err(|error| {
                ToolError::new(match error {
                    RangeError::Malformed => format!(
                        "Error: 'modifiedRange' must be exactly one range such as \"[NOW-7DAYS \
                         TO NOW]\" or \"[2026-01-01T00:00:00Z TO *]\": each side *, NOW with \
                         date math (NOW-1MONTH/DAY) or an ISO instant ending in Z (got \"{}\").",
                        fragment(text)
                    ),
                    RangeError::Reversed => format!(
                        "Error: 'modifiedRange' starts after it ends (got \"{}\"); put the \
                         earlier instant first.",
                        fragment(text)
                    ),
                })
                .with_kind(ErrorKind::BadArgument)
            });
        }
        let days = match self.modified_within {
            None => return Ok((None, None)),
            Some(Within::Day) => 1,
            Some(Within::Week) => 7,
            Some(Within::Month) => 30,
            Some(Within::Year) => 365,
        };
        Ok((Some(now - Duration::days(days)), None))
    }

    /// Relevance with words; newest when browsing, unless sort says else.
    fn sort(&self) -> SearchSort {
        match (self.sort, self.query.is_some()) {
            (Some(Sort::Relevance), _) | (None, true) => SearchSort::Relevance,
            (Some(Sort::Newest), _) | (None, false) => SearchSort::Newest,
            (Some(Sort::Oldest), _) => SearchSort::Oldest,
            (Some(Sort::Title), _) => SearchSort::Title,
        }
    }

    /// `No documents found matching "<q>".` and the filters that were active.
    fn nothing_found(&self) -> String {
        let mut out = match &self.query {
            Some(query) if several_words(query) => format!(
                "No documents found matching \"{}\": every word must occur in a page. Try fewer \
                 words, or search_collections (when this endpoint offers it) to search by meaning.",
                fragment(query)
            ),
            Some(query) => format!("No documents found matching \"{}\".", fragment(query)),
            None => "No documents found.".to_owned(),
        };
        let filters = self.active_filters();
        if !filters.is_empty() {
            // The aggregated echo is stripped, not capped.
            let _ = write!(
                out,
                " Active filters: {}.",
                single_line(&filters.join(", "))
            );
        }
        out
    }

    fn active_filters(&self) -> Vec<String> {
        let mut filters = Vec::new();
        let named = [
            ("wiki", self.wiki.as_deref()),
            ("space", self.space.as_deref()),
            ("author", self.author.as_deref()),
            ("locale", self.locale.as_deref()),
            ("modifiedRange", self.modified_range.as_deref()),
        ];
        for (name, value) in named {
            if let Some(value) = value {
                filters.push(format!("{name}={value}"));
            }
        }
        if let (Some(within), None) = (self.modified_within, &self.modified_range) {
            filters.push(format!("modifiedWithin={}", within.wire()));
        }
        if self.include_hidden {
            filters.push("includeHidden=true".to_owned());
        }
        filters
    }
}

/// Whether `query` holds more than one word, as the search splits it (at anything that is not a
/// letter or a digit): only then can a page hold some of its words and still not match.
fn several_words(query: &str) -> bool {
    query
        .split(|c: char| !c.is_alphanumeric())
        .filter(|word| !word.is_empty())
        .nth(1)
        .is_some()
}

impl Within {
    fn wire(self) -> &'static str {
        match self {
            Within::Day => "day",
            Within::Week => "week",
            Within::Month => "month",
            Within::Year => "year",
        }
    }
}

/// One result: Title, Reference, Language, URL, Modified, Rank (in relevance order), Snippet.
///
/// The rank is the result's place among the authorized matches, never the backend's score:
/// bm25 (and `ts_rank`'s normalization) is computed over the whole index, so a score would move
/// when documents the caller cannot view are added, and measure how many of them hold a word.
fn result_block(hit: &SearchHit, url: Option<&str>, rank: Option<usize>, snippet: &str) -> String {
    let candidate = &hit.candidate;
    let title = shown_title(hit);
    let mut out = format!(
        "Title: {}\nReference: {}\nLanguage: {}{}",
        fragment(title),
        fragment(&candidate.reference.to_string()),
        candidate.language,
        if candidate.locale.is_some() {
            " (translation)"
        } else {
            ""
        }
    );
    if let Some(url) = url {
        let _ = write!(out, "\nURL: {url}");
    }
    let _ = write!(
        out,
        "\nModified: {} by {}",
        iso_instant(candidate.updated),
        fragment(&candidate.author)
    );
    if let Some(rank) = rank {
        let _ = write!(out, "\nRank: {rank}");
    }
    let _ = write!(out, "\nSnippet: {snippet}");
    out
}

/// The store's excerpt on one line (its highlight ranges are dropped: the text is plain); a
/// browse excerpt that fills its 200 characters gets `...` since the content goes on.
fn snippet(hit: &SearchHit, searched: bool) -> String {
    let text = one_line(&hit.snippet.text);
    if !searched && hit.snippet.text.chars().count() >= BROWSE_SNIPPET_CHARS {
        format!("{}...", text.trim_end_matches('…'))
    } else {
        text
    }
}

/// The paging footer.
fn footer(
    total: usize,
    capped_scan: bool,
    offset: usize,
    shown: usize,
    limit_capped: bool,
) -> String {
    let mut out = if offset == 0 && shown == total && !capped_scan {
        format!("Found {total} matching documents.")
    } else {
        let mut out = format!(
            "Found {}{total} matching documents. Showing {shown} from offset {offset}.",
            if capped_scan { "at least " } else { "" }
        );
        let next = offset + shown;
        if next < total {
            let _ = write!(out, " Continue with offset={next}.");
        }
        if capped_scan {
            let _ = write!(
                out,
                " Counting stopped after {total} matches (at most {SCAN_LIMIT} are counted per \
                 call): narrow the query or add filters to reach the rest."
            );
        }
        out
    };
    if limit_capped {
        let _ = write!(out, " Note: 'limit' was capped to {MAX_LIMIT}.");
    }
    out
}
