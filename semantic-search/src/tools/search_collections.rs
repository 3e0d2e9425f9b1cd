//! `search_collections`: keyword results from the store's full-text search (any
//! of the question's words, function words left out),
//! semantic results by cosine similarity over the index, answered as one list: their fusion by
//! reciprocal rank, one passage per page, each with its score and the retrievals that found it
//! (the two lists on their own only on request: they mostly repeat the fused one). Every
//! candidate of either list is authorized (reach, space filter, view right) and kept within the
//! chosen collections before it is counted.
//!
//! A call embeds its query alone (one text, which the model reads only so far: a bounded cost)
//! and reads what is indexed; it never indexes, since embedding a page's chunks can take
//! seconds and would hold a heavy slot others wait for. The background indexer indexes, at
//! lower priority than calls; the call says how many rows the index is still behind on, found
//! by keywords only until indexed. Without a model it answers keyword results and says how to
//! install the model.

mod output;

use std::collections::HashSet;
use std::fmt::Write as _;

use mcp_runtime::output::budget::{MAX_OUTPUT_CHARS, budgeted};
use wiki_tool_sdk::prelude::*;
use wiki_tool_sdk::store::model::search::{SearchQuery, WikiScope, WordMatch};
use wiki_tool_sdk::untrusted::shown_len;

use self::output::{CollectionMatch, FoundBy, SearchCollectionsOutput, content, section};
use super::scope::{Scope, offered, scope};
use crate::SemanticService;
use crate::collections::covers;
use crate::fuse::{KEYWORD_WEIGHT, scored_fusion};
use crate::index::Nearest;

/// Keyword candidates authorized at most per call. No total is shown, so the scan only has to
/// reach `limit` authorized rows; the store reads candidates in batches of this size plus one,
/// so one read still serves a collection or caller that keeps only one candidate in twenty,
/// while a question that matches most of a wiki costs no more than this many authorizations.
const SCAN_LIMIT: usize = 200;

/// Search collections by meaning and by keywords: one ranked list, one passage per page.
///
/// "how do I install" finds a page that says "set up". Each result's score runs from 0 to 1
/// (1 = first in every list).
#[mcp_tool(
    id = "search_collections",
    output = SearchCollectionsOutput,
    category = categories::SEMANTIC_SEARCH,
    title = "Search collections",
    man = "NOTES
    Finds pages by their words (up to limitKeywordResults) and by meaning (up to
    limitSemanticResults), fused by reciprocal rank. Only pages you may view are returned.

    collections takes ids from list_collections; without it every collection you may query is
    searched. locale keeps rows in that language. limitKeywordResults and limitSemanticResults
    are 0 to 50 (default 10 each); 0 turns that list off.

    The answer is one list, best first: both lists fused by reciprocal rank (the keyword list
    weighs 0.9 against the semantic one), a page's best row only. Its header says which lists
    took part: `Fused results`, or `Keyword results` / `Semantic results` when only one found
    something. Each <result> says:
      found       keyword, semantic or both: which retrieval found the page.
      score       0 to 1: the fused score over the best possible, 1 = first in every list that
                  found something. A page both lists hold in their first ten scores 0.87 or
                  more; a page one list alone holds at most 0.53.
      similarity  the cosine similarity of query and passage (-1 to 1), for pages found by
                  meaning: how close it is, whatever the other results. With the bundled
                  model a page on the question's topic is usually 0.5 or more, an unrelated
                  one under 0.3.
    <reference> is what get_document takes; <content> is the passage that matched (a snippet
    for a page found by keywords only). separateLists=true adds the keyword and the semantic
    list on their own after it (`Keyword results`, `Semantic results`), rows as found.

    The semantic index follows page saves in the background; when it is behind, the output
    says by how many pages, and those pages are found by keywords only until indexed. The
    index holds a page's first 32 passages (about 25,000 characters); the rest of a longer
    page is found by keywords only.

EXAMPLES
    search_collections query=\"how do I install the server\"
    search_collections query=\"quarterly numbers\" collections=[\"finance\"] limitKeywordResults=0
    search_collections query=\"Anmeldung\" locale=\"de\" separateLists=true

SEE ALSO
    list_collections, query_documents, get_document"
)]
struct SearchCollections {
    /// What to look for, in your own words.
    query: String,
    /// Ids from list_collections; default (or empty) all.
    collections: Vec<String>,
    /// Rows in this language, e.g. "fr".
    locale: Option<String>,
    /// Keyword results; 0 turns them off.
    #[param(rename = "limitKeywordResults", default = 10, range = 0..=50)]
    limit_keyword: usize,
    /// Semantic results; 0 turns them off.
    #[param(rename = "limitSemanticResults", default = 10, range = 0..=50)]
    limit_semantic: usize,
    /// Also show the keyword and semantic lists on their own.
    #[param(rename = "separateLists")]
    separate_lists: bool,
}

/// One result row, whichever list found it.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct RowKey {
    reference: DocumentReference,
    locale: Option<Locale>,
}

/// A row as one retrieval found it.
#[derive(Debug, Clone)]
struct Found {
    key: RowKey,
    language: Locale,
    content: String,
    /// The cosine similarity of query and passage, for a row found by meaning.
    similarity: Option<f32>,
}

impl Execute<Structured<SearchCollectionsOutput>> for SearchCollections {
    async fn execute(self, ctx: &ToolContext) -> ToolResult<Structured<SearchCollectionsOutput>> {
        // The parser refused limits outside 0..=50.
        let (keyword_limit, semantic_limit) = (self.limit_keyword, self.limit_semantic);
        if self.query.trim().is_empty() {
            return Err(ToolError::new(
                "Error: 'query' is empty. Say what you are looking for, e.g. query=\"how do I \
                 install the server\".",
            ));
        }
        let locale = match self.locale.as_deref() {
            Some(text) => Some(parse_locale("locale", text)?),
            None => None,
        };
        let offered = offered(ctx).await?;
        let scope = scope(&offered, Some(&self.collections))?;
        let service = ctx.extension::<SemanticService>().cloned();

        let keyword =
            keyword_results(ctx, &self.query, &scope, locale.clone(), keyword_limit).await?;
        let mut notes = Vec::new();
        let semantic = match &service {
            Some(service) if service.index().embedder().is_some() && semantic_limit > 0 => {
                let (found, behind) =
                    semantic_results(ctx, service, &self.query, &scope, locale, semantic_limit)
                        .await?;
                for (wiki, rows) in behind {
                    if rows > 0 {
                        notes.push(format!(
                            "The semantic index of wiki {wiki} is {rows} page{} behind; those \
                             pages are found by keywords only until they are indexed (indexing \
                             goes on in the background).",
                            if rows == 1 { "" } else { "s" }
                        ));
                    }
                }
                found
            }
            Some(_) if semantic_limit > 0 => {
                notes.push(
                    "Semantic results are unavailable: the embedding model is not installed on \
                     this server. An administrator installs it with `wiki-mcp models install` \
                     and restarts the server; keyword results follow."
                        .to_owned(),
                );
                Vec::new()
            }
            None if semantic_limit > 0 => {
                notes.push(
                    "Semantic results are unavailable: this server was started without semantic \
                     search; keyword results follow."
                        .to_owned(),
                );
                Vec::new()
            }
            _ => Vec::new(),
        };

        let ranked = Ranked::new(ctx, &keyword, &semantic);
        let mut output = SearchCollectionsOutput {
            results: ranked.fused(keyword_limit.max(semantic_limit)),
            keyword: self.separate_lists.then(|| ranked.list(&keyword)),
            semantic: self.separate_lists.then(|| ranked.list(&semantic)),
            notes,
        };
        let mut text = render(&output, &keyword, &semantic);
        // Within the budget as shown: the last rows go, the separate lists' first.
        let mut dropped = 0;
        while shown_len(&text) > MAX_OUTPUT_CHARS && drop_last(&mut output) {
            dropped += 1;
            text = render(&output, &keyword, &semantic);
        }
        if dropped > 0 {
            let note = format!(
                "{} left out to stay within the output budget; lower limitKeywordResults or \
                 limitSemanticResults{}.",
                if dropped == 1 {
                    "1 result".to_owned()
                } else {
                    format!("{dropped} results")
                },
                if self.separate_lists {
                    ", or leave separateLists off"
                } else {
                    ""
                }
            );
            output.notes.push(note);
            text = render(&output, &keyword, &semantic);
        }
        Ok(Structured::new(output, budgeted(&text).into_owned()))
    }
}

/// The text of `output`: its notes, then its lists. The header names the lists that took part;
/// the separate lists are shown only when both found something (else they are the one list).
fn render(output: &SearchCollectionsOutput, keyword: &[Found], semantic: &[Found]) -> String {
    let mut body = String::new();
    for note in &output.notes {
        let _ = writeln!(body, "{note}");
    }
    let both = !keyword.is_empty() && !semantic.is_empty();
    let title = match (keyword.is_empty(), semantic.is_empty()) {
        (false, false) => "Fused results (keyword and semantic, by reciprocal rank)",
        (false, true) => "Keyword results",
        _ => "Semantic results",
    };
    section(&mut body, title, &output.results);
    if both {
        section(
            &mut body,
            "Keyword results",
            output.keyword.as_deref().unwrap_or_default(),
        );
        section(
            &mut body,
            "Semantic results",
            output.semantic.as_deref().unwrap_or_default(),
        );
    }
    if output.results.is_empty() {
        let _ = writeln!(
            body,
            "No results. Try other words, fewer collections, or query_documents for an exact \
             keyword search."
        );
    }
    body.trim_end().to_owned()
}

/// Drops the last row of the separate semantic list, else of the keyword list, else of the
/// results; false when nothing is left to drop.
fn drop_last(output: &mut SearchCollectionsOutput) -> bool {
    for list in [output.semantic.as_mut(), output.keyword.as_mut()]
        .into_iter()
        .flatten()
    {
        if list.pop().is_some() {
            return true;
        }
    }
    output.results.pop().is_some()
}

/// Both lists' rows with their fused scores. The keyword list weighs [`KEYWORD_WEIGHT`]
/// against the semantic list's 1.0: on questions in an agent's words the semantic list is the
/// better one, and the keyword list (any word) also holds rows that share a single word with
/// the question.
struct Ranked<'a> {
    ctx: &'a ToolContext,
    /// Every row of either list, best first, with its score.
    order: Vec<(RowKey, f64)>,
    keyword: HashSet<&'a RowKey>,
    semantic: &'a [Found],
    keyword_rows: &'a [Found],
}

impl<'a> Ranked<'a> {
    fn new(ctx: &'a ToolContext, keyword: &'a [Found], semantic: &'a [Found]) -> Self {
        let keys = |list: &[Found]| list.iter().map(|f| f.key.clone()).collect::<Vec<_>>();
        let (semantic_keys, keyword_keys) = (keys(semantic), keys(keyword));
        let order = scored_fusion(
            &[
                (1.0, semantic_keys.as_slice()),
                (KEYWORD_WEIGHT, keyword_keys.as_slice()),
            ],
            usize::MAX,
        )
        .into_iter()
        .map(|fused| (fused.item, fused.score))
        .collect();
        Self {
            ctx,
            order,
            keyword: keyword.iter().map(|f| &f.key).collect(),
            semantic,
            keyword_rows: keyword,
        }
    }

    /// The fused ranking, a page's best row only, at most `limit` rows.
    fn fused(&self, limit: usize) -> Vec<CollectionMatch> {
        let mut pages = HashSet::new();
        self.order
            .iter()
            .filter(|(key, _)| pages.insert(&key.reference))
            .take(limit)
            .filter_map(|(key, _)| self.shown(key))
            .collect()
    }

    /// `list`'s rows as found, each with its fused score.
    fn list(&self, list: &[Found]) -> Vec<CollectionMatch> {
        list.iter()
            .filter_map(|found| self.shown(&found.key))
            .collect()
    }

    /// The row as shown: its semantic passage when it has one (a passage says more than a
    /// snippet), else its snippet.
    fn shown(&self, key: &RowKey) -> Option<CollectionMatch> {
        let by_meaning = self.semantic.iter().find(|f| f.key == *key);
        let by_words = self.keyword.contains(key);
        let found = by_meaning.or_else(|| self.keyword_rows.iter().find(|f| f.key == *key))?;
        let score = self
            .order
            .iter()
            .find(|(k, _)| k == key)
            .map_or(0.0, |(_, score)| *score);
        Some(CollectionMatch {
            reference: key.reference.to_string(),
            locale: key.locale.as_ref().map(ToString::to_string),
            language: found.language.to_string(),
            url: self.ctx.link(
                LinkPage::View {
                    locale: key.locale.clone(),
                },
                &key.reference,
            ),
            found: match (by_meaning.is_some(), by_words) {
                (true, true) => FoundBy::Both,
                (true, false) => FoundBy::Semantic,
                _ => FoundBy::Keyword,
            },
            score: hundredths(score),
            similarity: by_meaning
                .and_then(|f| f.similarity)
                .map(|similarity| hundredths(f64::from(similarity))),
            content: content(&found.content),
        })
    }
}

/// `value` to two decimals: what a score can tell apart, and what the text shows.
fn hundredths(value: f64) -> f64 {
    (value * 100.0).round() / 100.0
}

async fn keyword_results(
    ctx: &ToolContext,
    query: &str,
    scope: &Scope,
    locale: Option<Locale>,
    limit: usize,
) -> Result<Vec<Found>, ToolError> {
    if limit == 0 || scope.is_empty() {
        return Ok(Vec::new());
    }
    let doors = ctx.doors()?.clone();
    let mut search = SearchQuery::new(
        Some(query.to_owned()),
        WikiScope::Only(scope.keys().cloned().collect()),
    );
    search.locale = locale;
    search.limit = limit;
    // A question in an agent's words rarely has all of them on one page: any word counts,
    // rows with more of them first (query_documents keeps the reference's all-words rule).
    search.words = WordMatch::Any;
    search.scan_limit = SCAN_LIMIT;
    let scope = scope.clone();
    let results = ctx
        .store_call("search the collections", move |store| {
            store.search(&search, &mut |candidate| {
                doors.row_visible(&candidate.reference)
                    && scope
                        .get(candidate.reference.wiki())
                        .is_some_and(|spaces| covers(spaces.as_deref(), &candidate.reference))
            })
        })
        .await?;
    Ok(results
        .hits
        .into_iter()
        .map(|hit| Found {
            key: RowKey {
                reference: hit.candidate.reference,
                locale: hit.candidate.locale,
            },
            language: hit.candidate.language,
            content: hit.snippet.text,
            similarity: None,
        })
        .collect())
}

/// The semantic results and, per wiki, how many rows the index is behind on.
async fn semantic_results(
    ctx: &ToolContext,
    service: &SemanticService,
    query: &str,
    scope: &Scope,
    locale: Option<Locale>,
    limit: usize,
) -> Result<(Vec<Found>, Vec<(WikiId, u64)>), ToolError> {
    let doors = ctx.doors()?.clone();
    let query = query.to_owned();
    let scope = scope.clone();
    let searched = service
        .heavy(
            &ctx.heavy_share(),
            ctx.cancellation(),
            move |index, store| -> Result<_, StoreError> {
                let mut behind = Vec::with_capacity(scope.len());
                for wiki in scope.keys() {
                    let rows = index
                        .behind_if_changed(store, wiki)
                        .map_err(crate::Error::into_store)?;
                    behind.push((wiki.clone(), rows));
                }
                let Some(embedder) = index.embedder() else {
                    return Ok((Vec::new(), behind));
                };
                let vector = embedder
                    .embed(&[query.as_str()])
                    .map_err(crate::Error::into_store)?
                    .pop()
                    .unwrap_or_default();
                let mut all: Vec<Nearest> = Vec::new();
                for (wiki, spaces) in &scope {
                    let found = index
                        .nearest(store, wiki, &vector, limit, &mut |row| {
                            !row.hidden
                                && locale.as_ref().is_none_or(|l| *l == row.language)
                                && covers(spaces.as_deref(), &row.reference)
                                && doors.row_visible(&row.reference)
                        })
                        .map_err(crate::Error::into_store)?;
                    all.extend(found);
                }
                all.sort_by(|a, b| b.score.total_cmp(&a.score));
                all.truncate(limit);
                Ok((all, behind))
            },
        )
        .await?
        .map_err(|error| store_failure("search the collections", &error))?;
    let (found, behind) = searched;
    Ok((
        found
            .into_iter()
            .map(|n| Found {
                key: RowKey {
                    reference: n.reference,
                    locale: n.locale,
                },
                language: n.language,
                content: n.text,
                similarity: Some(n.score),
            })
            .collect(),
        behind,
    ))
}
