//! The survey: top-level spaces with counts, from at most [`FETCH_CEILING`] page rows, each
//! authorized through the row door before it is counted.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use wiki_server::access::{Doors, store_failure};
use wiki_server::prelude::*;
use wiki_server::store::model::hierarchy::{SpaceSummary, TreeNode};
use wiki_server::store::model::wiki::WikiId;
use wiki_server::store::reference::{DocumentReference, SpacePath};
use wiki_server::time::OffsetDateTime;

use super::{Shape, age, bracketed, node_text, title_part};

/// Page rows read at most; past it counts are a sample (`N+`) and nothing is inlined.
const FETCH_CEILING: usize = 2000;

/// A space of at most this many shown pages is expanded inline.
const INLINE_MAX_PAGES: usize = 8;

/// Inline lines in all, across the spaces of one survey.
const INLINE_BUDGET: usize = 100;

/// Rows probed per space beyond the sample, to find one the caller may view.
const PROBE_ROWS: usize = 20;

/// What the survey knows of one top-level space.
struct Space {
    home: DocumentReference,
    home_title: Option<String>,
    /// Visible (non-hidden) pages counted.
    pages: u64,
    /// Hidden pages counted.
    hidden: u64,
    /// The newest change among the shown pages.
    newest: Option<OffsetDateTime>,
    /// The shown pages, for inlining.
    rows: Vec<TreeNode>,
    /// Listed from the space index only: beyond the sample, not counted.
    unsampled: bool,
}

/// The survey's body and footer. The scan reports the pages it authorized as progress and
/// stops early when the call is cancelled (its result is then never read).
pub(super) async fn survey(
    ctx: &ToolContext,
    doors: &Doors,
    wiki: Option<&str>,
    shape: Shape,
    now: OffsetDateTime,
) -> Result<(String, String), ToolError> {
    let wiki = doors.single_wiki(wiki)?;
    let read = wiki.clone();
    let authorizer = doors.clone();
    let scan = Scan {
        progress: ctx.progress_reporter(),
        cancellation: ctx.cancellation().clone(),
    };
    let (spaces, sampled) = doors
        .blocking(move |store| read_spaces(store, &authorizer, &read, shape.show_hidden, &scan))
        .await?
        .map_err(|error| store_failure("read the page tree", &error))?;

    let total = spaces.len();
    let mut out = format!(
        "Spaces of wiki \"{wiki}\": {total} top-level space{}",
        if total == 1 { "" } else { "s" }
    );
    if sampled {
        let _ = write!(
            out,
            " (counts sampled from the first {FETCH_CEILING} pages)"
        );
    }
    out.push('\n');
    if total == 0 {
        out.push_str("No visible spaces.\n");
        return Ok((out, String::new()));
    }
    if shape.offset >= total {
        let footer = format!(
            "No spaces at offset {}: there are {total}; use a smaller offset.",
            shape.offset
        );
        return Ok((out, footer));
    }
    let end = shape.offset.saturating_add(shape.limit).min(total);
    let mut inline_left = INLINE_BUDGET;
    for (path, space) in spaces.iter().skip(shape.offset).take(end - shape.offset) {
        out.push_str(&space_line(path, space, sampled, now));
        out.push('\n');
        if !sampled && !space.unsampled {
            inline(&mut out, path, space, &mut inline_left);
        }
    }
    let footer = if end < total {
        format!(
            "More spaces exist (showing {}-{end} of {total}); re-call with offset={end}.",
            shape.offset + 1
        )
    } else {
        String::new()
    };
    Ok((out, footer))
}

/// The authorized spaces, and whether the ceiling cut the sample. Past the ceiling, the
/// space index adds the spaces the sample never reached.
fn read_spaces(
    store: &StoreReader<'_>,
    doors: &Doors,
    wiki: &WikiId,
    show_hidden: bool,
    scan: &Scan,
) -> wiki_server::store::Result<(BTreeMap<SpacePath, Space>, bool)> {
    let mut rows = store.pages(wiki, None, true, 0, FETCH_CEILING + 1)?;
    let sampled = rows.len() > FETCH_CEILING;
    rows.truncate(FETCH_CEILING);
    let mut spaces = count(doors, rows, show_hidden, scan);
    if sampled {
        for summary in store.top_level_spaces(wiki, show_hidden)? {
            if spaces.contains_key(&summary.space) {
                continue;
            }
            let probe = store.pages(wiki, Some(&summary.space), show_hidden, 0, PROBE_ROWS)?;
            if probe.iter().any(|node| doors.row_visible(&node.reference)) {
                add_unsampled(doors, &mut spaces, summary);
            }
        }
    }
    Ok((spaces, sampled))
}

/// The call's signals, for the blocking scan.
struct Scan {
    progress: ProgressReporter,
    cancellation: CancellationToken,
}

/// Counts the authorized rows per top-level space; denied rows are not counted anywhere.
fn count(
    doors: &Doors,
    rows: Vec<TreeNode>,
    show_hidden: bool,
    scan: &Scan,
) -> BTreeMap<SpacePath, Space> {
    let mut spaces: BTreeMap<SpacePath, Space> = BTreeMap::new();
    let total = u64::try_from(rows.len()).unwrap_or(u64::MAX);
    for (index, node) in rows.into_iter().enumerate() {
        if scan.cancellation.is_cancelled() {
            break;
        }
        let done = u64::try_from(index + 1).unwrap_or(u64::MAX);
        scan.progress.report(done, Some(total), || {
            format!("{done} of {total} pages surveyed")
        });
        if !doors.row_visible(&node.reference) {
            continue;
        }
        let top = node.reference.space().top();
        let space = spaces.entry(top.clone()).or_insert_with(|| Space {
            home: top.home(node.reference.wiki()),
            home_title: None,
            pages: 0,
            hidden: 0,
            newest: None,
            rows: Vec::new(),
            unsampled: false,
        });
        if node.reference == space.home {
            space.home_title.clone_from(&node.title);
        }
        if node.hidden {
            space.hidden += 1;
        } else {
            space.pages += 1;
        }
        if !node.hidden || show_hidden {
            space.newest = space.newest.max(node.updated);
            space.rows.push(node);
        }
    }
    spaces.retain(|_, space| !space.rows.is_empty());
    spaces
}

/// A space beyond the sample, listed (not counted) because a probe of its first rows found one
/// the caller may view; its home's title only when the home itself is visible.
fn add_unsampled(doors: &Doors, spaces: &mut BTreeMap<SpacePath, Space>, summary: SpaceSummary) {
    let home_title = summary
        .home_title
        .filter(|_| doors.row_visible(&summary.home));
    spaces.insert(
        summary.space,
        Space {
            home: summary.home,
            home_title,
            pages: 0,
            hidden: 0,
            newest: None,
            rows: Vec::new(),
            unsampled: true,
        },
    );
}

/// `Sales/  [main:Sales.WebHome]  "Sales Home"  — 2 pages + 1 hidden, 3d ago`.
fn space_line(path: &SpacePath, space: &Space, sampled: bool, now: OffsetDateTime) -> String {
    let name = node_text(path.last());
    let mut line = format!(
        "{name}/  {}{}  — ",
        bracketed(&space.home),
        title_part(&name, space.home_title.as_deref())
    );
    if space.unsampled {
        let _ = write!(
            line,
            "not counted (beyond the first {FETCH_CEILING} pages); explore it as root"
        );
        return line;
    }
    let plus = if sampled { "+" } else { "" };
    let _ = write!(
        line,
        "{}{plus} page{}",
        space.pages,
        if space.pages == 1 && !sampled {
            ""
        } else {
            "s"
        }
    );
    if space.hidden > 0 {
        let _ = write!(line, " + {}{plus} hidden", space.hidden);
    }
    if let Some(newest) = space.newest {
        let _ = write!(line, ", {}", age(now, newest));
    }
    line
}

/// The pages of a small space, two spaces in, while the inline budget lasts.
fn inline(out: &mut String, path: &SpacePath, space: &Space, budget: &mut usize) {
    let mut pages: Vec<&TreeNode> = space
        .rows
        .iter()
        .filter(|node| node.reference != space.home)
        .collect();
    // A nested space's home first, then its pages.
    pages.sort_by_key(|node| {
        let reference = &node.reference;
        (reference.space(), !reference.is_home(), reference.name())
    });
    if pages.is_empty() || pages.len() > INLINE_MAX_PAGES || pages.len() > *budget {
        return;
    }
    *budget -= pages.len();
    for node in pages {
        let reference = &node.reference;
        let leaf = if reference.is_home() {
            reference.space().last()
        } else {
            reference.name()
        };
        let _ = writeln!(
            out,
            "  {}  {}{}",
            relative_name(path, reference),
            bracketed(reference),
            title_part(&node_text(leaf), node.title.as_deref())
        );
    }
}

/// A page's name below its top-level space: `Guide`, `Nested/Deep`, or `Nested/` for a nested
/// space's home.
fn relative_name(top: &SpacePath, reference: &DocumentReference) -> String {
    let mut name = String::new();
    for space in reference.space().names().iter().skip(top.depth()) {
        name.push_str(&node_text(space));
        name.push('/');
    }
    if !reference.is_home() {
        name.push_str(&node_text(reference.name()));
    }
    name
}
