//! The survey: top-level spaces with counts, from at most [`FETCH_CEILING`] page rows the caller
//! may view. Rows are read in batches and each is authorized through the row door before it is
//! counted, until that many are counted (the store's [`AuthorizedScan`]): pages the caller may
//! not view neither use up the sample nor make it read as sampled.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use wiki_tool_sdk::access::{Doors, store_failure};
use wiki_tool_sdk::prelude::*;
use wiki_tool_sdk::store::model::hierarchy::{SpaceSummary, TreeNode};
use wiki_tool_sdk::store::model::wiki::WikiId;
use wiki_tool_sdk::store::reference::{DocumentReference, SpacePath};
use wiki_tool_sdk::store::scan::{AuthorizedScan, Offered};
use wiki_tool_sdk::time::OffsetDateTime;

use crate::seams::counted::{count as output_count, counted};
use crate::seams::paging::offset_past_end;

use super::output::{self, TreeMode, TreeOutput, TreePage, TreeSpace};
use super::{Shape, age, bracketed, no_home, node_text, title_part};

/// Viewable page rows counted at most; past it counts are a sample (`N+`) and nothing is
/// inlined.
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
    /// The home page's title, when the home page exists and the caller may view it: only then
    /// is its reference printed (every printed reference must open).
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
) -> Result<(String, String, TreeOutput), ToolError> {
    let wiki = doors.existing_wiki(wiki).await?;
    let read = wiki.clone();
    let authorizer = doors.clone();
    let mut scan = ctx.scan_signals("pages checked");
    let (spaces, sampled) = doors
        .blocking(move |store| {
            let spaces = read_spaces(store, &authorizer, &read, shape.show_hidden, &mut scan);
            scan.finish();
            spaces
        })
        .await?
        .map_err(|error| store_failure("read the page tree", &error))?;

    let total = spaces.len();
    let mut out = format!(
        "Spaces of wiki \"{wiki}\": {}",
        counted(total, "top-level space", "top-level spaces")
    );
    if sampled {
        let _ = write!(
            out,
            " (counts sampled from the first {FETCH_CEILING} pages)"
        );
    }
    out.push('\n');
    let mut value = TreeOutput {
        wiki: wiki.to_string(),
        mode: TreeMode::Survey,
        root: None,
        spaces: Vec::new(),
        pages: Vec::new(),
        total: output_count(total),
        sampled,
        next_offset: None,
    };
    if total == 0 {
        out.push_str("No visible spaces.\n");
        return Ok((out, String::new(), value));
    }
    if shape.offset >= total {
        let count = counted(total, "top-level space", "top-level spaces");
        return Err(offset_past_end(shape.offset, total, "space", &count));
    }
    let end = shape.offset.saturating_add(shape.limit).min(total);
    let mut inline_left = INLINE_BUDGET;
    for (path, space) in spaces.iter().skip(shape.offset).take(end - shape.offset) {
        out.push_str(&space_line(path, space, sampled, now));
        out.push('\n');
        value.spaces.push(space_value(path, space));
        if !sampled && !space.unsampled {
            inline(&mut out, &mut value.pages, path, space, &mut inline_left);
        }
    }
    value.next_offset = (end < total).then(|| output_count(end));
    let footer = if end < total {
        format!(
            "More spaces exist (showing {}-{end} of {total}); re-call with offset={end}.",
            shape.offset + 1
        )
    } else {
        String::new()
    };
    Ok((out, footer, value))
}

/// A space as [`TreeSpace`]: what its line says.
fn space_value(path: &SpacePath, space: &Space) -> TreeSpace {
    let counted = |n: u64| (!space.unsampled).then_some(n);
    TreeSpace {
        space: path.to_string(),
        reference: space
            .home_title
            .as_ref()
            .map(|_| output::reference(&space.home)),
        title: space.home_title.clone(),
        pages: counted(space.pages),
        hidden: counted(space.hidden),
        updated: space.newest.map(iso_instant),
    }
}

/// The authorized spaces, and whether the ceiling cut the sample. Past the ceiling, the
/// space index adds the spaces the sample never reached.
fn read_spaces(
    store: &StoreReader<'_>,
    doors: &Doors,
    wiki: &WikiId,
    show_hidden: bool,
    signals: &mut ScanSignals,
) -> wiki_tool_sdk::store::Result<(BTreeMap<SpacePath, Space>, bool)> {
    let batch = FETCH_CEILING + 1;
    let mut scan = AuthorizedScan::new(0, FETCH_CEILING, FETCH_CEILING);
    let mut rows = Vec::new();
    let mut read = 0;
    'batches: loop {
        let nodes = store.pages(wiki, None, true, read, batch)?;
        read += nodes.len();
        let full = nodes.len() >= batch;
        for node in nodes {
            if !signals.step() {
                break 'batches;
            }
            match scan.offer(|| doors.row_visible(&node.reference)) {
                Offered::OnPage => rows.push(node),
                Offered::Passed => {}
                Offered::Stop => break,
            }
        }
        if scan.stopped() || !full {
            break;
        }
    }
    let sampled = scan.cut();
    let mut spaces = count(rows, show_hidden);
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

/// Counts authorized rows per top-level space.
fn count(rows: Vec<TreeNode>, show_hidden: bool) -> BTreeMap<SpacePath, Space> {
    let mut spaces: BTreeMap<SpacePath, Space> = BTreeMap::new();
    for node in rows {
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
            space.home_title = Some(node.title.clone().unwrap_or_default());
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

/// `Sales/  [main:Sales.WebHome]  "Sales Home"  — 2 pages + 1 hidden, 3d ago`; a space whose
/// home page is missing or not viewable names no page (a missing home and a denied one read
/// alike) but says how to open the space.
fn space_line(path: &SpacePath, space: &Space, sampled: bool, now: OffsetDateTime) -> String {
    let name = node_text(path.last());
    let mut line = match &space.home_title {
        Some(title) => format!(
            "{name}/  {}{}  — ",
            bracketed(&space.home),
            title_part(&name, Some(title))
        ),
        None => format!("{name}/  {}  — ", no_home(path)),
    };
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
fn inline(
    out: &mut String,
    values: &mut Vec<TreePage>,
    path: &SpacePath,
    space: &Space,
    budget: &mut usize,
) {
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
        values.push(TreePage {
            reference: Some(output::reference(reference)),
            space: reference.space().to_string(),
            name: leaf.to_owned(),
            title: node.title.clone(),
            level: 1,
            has_children: reference.is_home(),
            expanded: false,
            classes: Vec::new(),
            attachments: 0,
            hidden: node.hidden,
        });
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
