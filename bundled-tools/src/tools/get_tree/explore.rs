//! The explore: the pages under a root, breadth first (so a line budget is shared fairly between
//! branches), printed in tree order. Children are authorized through the row door inside the
//! store query, before they are paged or counted, and a nested space shows only through a page
//! in it the caller may view; the whole walk runs in one store call off the async workers.
//!
//! A space named as root opens as far as the caller could see it listed one level up: when its
//! home page is denied, the space still opens through the pages in it the caller may view, and
//! its line shows no title or markers, exactly like its untitled node in the parent's tree.

use std::collections::VecDeque;
use std::fmt::Write as _;

use wiki_tool_sdk::access::{Doors, store_failure};
use wiki_tool_sdk::prelude::*;
use wiki_tool_sdk::store::StoreError;
use wiki_tool_sdk::store::reference::DocumentReference;
use wiki_tool_sdk::store::rights::Right;
use wiki_tool_sdk::untrusted::fragment;

use super::output::{self, TreeMode, TreeOutput, TreePage};
use super::{Shape, bracketed, no_home, node_text, title_part};
use crate::seams::counted::{count, counted};
use crate::seams::paging::offset_past_end;

/// Lines (nodes below the root) one explore shows at most.
const NODE_BUDGET: usize = 300;

/// Authorized children read per node at most, before paging.
const CHILD_FETCH: usize = 2000;

/// Classes whose objects are bookkeeping, not content: left out of the markers.
const NOISE_CLASSES: &[&str] = &[
    "TagClass",
    "XWikiComments",
    "XWikiRights",
    "XWikiGlobalRights",
    "XWikiPreferences",
    "WatchListClass",
];

/// Characters of a `{...}` marker at most, cut at an item boundary.
const MARKERS_MAX_CHARS: usize = 120;

/// One node of the walk.
struct Node {
    reference: DocumentReference,
    title: Option<String>,
    hidden: bool,
    has_children: bool,
    level: usize,
    children: Vec<usize>,
    /// Whether its children were read (else, with `has_children`, it shows `⋯`).
    expanded: bool,
    /// Visible children in all, when more exist than were shown.
    more_than_shown: Option<usize>,
    /// The classes of its objects (noise left out) and its attachment count, read only for
    /// a page the caller may view (one with a title).
    classes: Vec<String>,
    attachments: usize,
}

/// The explore's body, footer and structured value. The walk reports the pages it listed as
/// progress and stops early when the call is cancelled (its result is then never read).
pub(super) async fn explore(
    ctx: &ToolContext,
    doors: &Doors,
    root: &str,
    wiki: Option<&str>,
    shape: Shape,
) -> Result<(String, String, TreeOutput), ToolError> {
    let authorized = doors.authorize(root, wiki, Right::View)?;
    let asked = authorized.reference().clone();
    let root = match fallback_home(&asked) {
        // A missing page whose name is a space: its home, through the door as well.
        Some(home) if !exists(doors, &asked).await? => space_root(doors, &asked, home),
        _ => Root::Page(asked.clone()),
    };
    let walker = doors.clone();
    let walked = root.clone();
    let mut scan = ctx.scan_signals("pages checked");
    let walk = doors
        .blocking(move |store| {
            let walk = walk(store, &walker, walked, shape, &mut scan);
            scan.finish();
            walk
        })
        .await?
        .map_err(|error| store_failure("read the page tree", &error))?;
    let Some(walk) = walk else {
        return Err(ToolError::new(format!(
            "No such document: \"{}\". Call get_tree without root to see the spaces.",
            fragment(&asked.to_string())
        ))
        .with_kind(ErrorKind::NotFound));
    };
    if walk.root_children > 0 && shape.offset >= walk.root_children {
        let count = counted(walk.root_children, "direct child", "direct children");
        return Err(offset_past_end(
            shape.offset,
            walk.root_children,
            "child",
            &count,
        ));
    }
    let (body, footer) = print(&walk, root.reference(), shape);
    Ok((body, footer, structured(&walk, root.reference(), shape)))
}

/// The walk as [`TreeOutput`]: its nodes in the order the lines print them.
fn structured(walk: &Walk, root: &DocumentReference, shape: Shape) -> TreeOutput {
    let mut pages = Vec::with_capacity(walk.nodes.len());
    let mut stack = vec![0usize];
    while let Some(index) = stack.pop() {
        let node = &walk.nodes[index];
        let named = node.title.is_some() || !node.reference.is_home();
        pages.push(TreePage {
            reference: named.then(|| output::reference(&node.reference)),
            space: node.reference.space().to_string(),
            name: leaf_name(&node.reference).to_owned(),
            title: node.title.clone(),
            level: count(node.level),
            has_children: node.has_children,
            expanded: node.expanded,
            classes: node.classes.clone(),
            attachments: count(node.attachments),
            hidden: node.hidden,
        });
        stack.extend(node.children.iter().rev());
    }
    let end = shape.offset + walk.nodes[0].children.len();
    TreeOutput {
        wiki: root.wiki().to_string(),
        mode: TreeMode::Explore,
        root: Some(output::reference(root)),
        spaces: Vec::new(),
        pages,
        total: count(walk.root_children),
        sampled: false,
        next_offset: (end < walk.root_children).then(|| count(end)),
    }
}

/// The name a node shows: a space home shows its space's last name.
fn leaf_name(reference: &DocumentReference) -> &str {
    if reference.is_home() {
        reference.space().last()
    } else {
        reference.name()
    }
}

/// Where the walk starts.
#[derive(Debug, Clone)]
enum Root {
    /// A page that passed the document door: its own row gives the root line's title.
    Page(DocumentReference),
    /// The home of a space the caller reaches and the filter exposes, but whose home page the
    /// caller may not view (its rights, or a filter entry for it alone): only the children are
    /// read (each through the row door), never the home's row, so its title, hidden flag,
    /// objects and existence stay unsaid.
    DeniedHome(DocumentReference),
}

impl Root {
    fn reference(&self) -> &DocumentReference {
        match self {
            Self::Page(reference) | Self::DeniedHome(reference) => reference,
        }
    }
}

/// The root for `asked`, a missing page whose name is the space of `home`. The home goes
/// through the door (reach, rights, filter). Refused on its rights, or by a filter entry for
/// that page alone, the space still opens through the pages the row door passes, provided the
/// wiki is reachable and the filter exposes something in the space (the listing one level up
/// shows the space on the same terms); otherwise the walk starts at `asked`, which has no
/// children.
fn space_root(doors: &Doors, asked: &DocumentReference, home: DocumentReference) -> Root {
    match doors.authorize(&home.to_string(), None, Right::View) {
        Ok(home) => Root::Page(home.reference().clone()),
        Err(_)
            if doors.can_reach(home.wiki()) && doors.exposes_space(home.wiki(), home.space()) =>
        {
            Root::DeniedHome(home)
        }
        Err(_) => Root::Page(asked.clone()),
    }
}

/// `Space.Page` -> `Space.Page.WebHome`; none for a home page.
fn fallback_home(reference: &DocumentReference) -> Option<DocumentReference> {
    if reference.is_home() {
        return None;
    }
    let space = reference.space().child(reference.name()).ok()?;
    Some(space.home(reference.wiki()))
}

async fn exists(doors: &Doors, reference: &DocumentReference) -> Result<bool, ToolError> {
    let reference = reference.clone();
    doors
        .blocking(move |store| store.document_locales(&reference))
        .await?
        .map(|locales| locales.is_some())
        .map_err(|error| store_failure("read the page tree", &error))
}

/// The walk's result: the arena (root at 0), the root's visible children in all, and how many
/// branches the node budget left unexpanded.
struct Walk {
    nodes: Vec<Node>,
    root_children: usize,
    unexpanded: usize,
}

/// Walks breadth first from `root`: `None` when the root neither exists (or may not be read)
/// nor has visible children (a space without a home page still has a tree).
fn walk(
    store: &StoreReader<'_>,
    doors: &Doors,
    root: Root,
    shape: Shape,
    scan: &mut ScanSignals,
) -> wiki_tool_sdk::store::Result<Option<Walk>> {
    let (root, root_row) = match root {
        Root::Page(reference) => {
            let row = store.document(&reference, None)?;
            (reference, row)
        }
        Root::DeniedHome(reference) => (reference, None),
    };
    let mut nodes = vec![Node {
        has_children: root.is_home(),
        title: root_row.as_ref().map(|row| row.title.clone()),
        hidden: root_row.as_ref().is_some_and(|row| row.hidden),
        reference: root,
        level: 0,
        children: Vec::new(),
        expanded: false,
        more_than_shown: None,
        classes: Vec::new(),
        attachments: 0,
    }];
    let mut queue = VecDeque::from([0usize]);
    let mut shown = 0usize;
    let mut root_children = 0usize;
    while let Some(index) = queue.pop_front() {
        if scan.is_cancelled() {
            break;
        }
        let node = &nodes[index];
        if !node.has_children || node.level >= shape.depth || shown >= NODE_BUDGET {
            continue;
        }
        // The store asks the row door about every page before it lists or counts it, and
        // builds a nested space's node only from pages the caller may view.
        let visible = store
            .children(
                &node.reference,
                shape.show_hidden,
                0,
                CHILD_FETCH,
                &mut |page| scan.step() && doors.row_visible(page),
            )?
            .nodes;
        let skip = if index == 0 {
            root_children = visible.len();
            shape.offset
        } else {
            0
        };
        let level = node.level + 1;
        let room = shape.limit.min(NODE_BUDGET - shown);
        let taken: Vec<_> = visible.iter().skip(skip).take(room).cloned().collect();
        let more = visible.len().saturating_sub(skip) > taken.len();
        nodes[index].expanded = true;
        if more && index != 0 {
            nodes[index].more_than_shown = Some(visible.len());
        }
        for child in taken {
            shown += 1;
            nodes.push(Node {
                reference: child.reference,
                title: child.title,
                hidden: child.hidden,
                has_children: child.has_children,
                level,
                children: Vec::new(),
                expanded: false,
                more_than_shown: None,
                classes: Vec::new(),
                attachments: 0,
            });
            let child_index = nodes.len() - 1;
            nodes[index].children.push(child_index);
            queue.push_back(child_index);
        }
    }
    if root_row.is_none() && nodes.len() == 1 && root_children == 0 {
        return Ok(None);
    }
    for node in &mut nodes {
        if node.title.is_some() {
            (node.classes, node.attachments) = contents(store, &node.reference)?;
        }
    }

    let unexpanded = nodes
        .iter()
        .filter(|node| node.has_children && !node.expanded && node.level < shape.depth)
        .count();
    Ok(Some(Walk {
        nodes,
        root_children,
        unexpanded,
    }))
}

/// The classes of a page's objects (noise left out, each once) and its attachment count.
fn contents(
    store: &StoreReader<'_>,
    reference: &DocumentReference,
) -> wiki_tool_sdk::store::Result<(Vec<String>, usize)> {
    let mut classes: Vec<String> = Vec::new();
    for object in store.objects(reference)? {
        let short = object.class.rsplit('.').next().unwrap_or(&object.class);
        if !NOISE_CLASSES.contains(&short) && !classes.contains(&object.class) {
            classes.push(object.class);
        }
    }
    let attachments = match store.attachments(reference) {
        Ok(attachments) => attachments.len(),
        Err(StoreError::NotFound { .. }) => 0,
        Err(error) => return Err(error),
    };
    Ok((classes, attachments))
}

/// ` {Class, …, att:N}` for a page with objects or attachments (or hidden, when shown).
fn markers(node: &Node) -> String {
    if node.title.is_none() {
        return String::new();
    }
    let mut items: Vec<String> = Vec::new();
    for class in &node.classes {
        let class = node_text(class);
        if !items.contains(&class) {
            items.push(class);
        }
    }
    if node.attachments > 0 {
        items.push(format!("att:{}", node.attachments));
    }
    if node.hidden {
        items.push("hidden".to_owned());
    }
    if items.is_empty() {
        return String::new();
    }
    let mut out = String::from(" {");
    for (index, item) in items.iter().enumerate() {
        let separator = if index == 0 { "" } else { ", " };
        // Room for this item, and for ", …}" should a later one not fit.
        if out.chars().count() + separator.len() + item.chars().count() + 4 > MARKERS_MAX_CHARS {
            out.push_str(separator);
            out.push('…');
            break;
        }
        out.push_str(separator);
        out.push_str(item);
    }
    out.push('}');
    out
}

/// The header, the lines in tree order, and the paging or budget footer.
fn print(walk: &Walk, root: &DocumentReference, shape: Shape) -> (String, String) {
    let shown = walk.nodes.len() - 1;
    let mut out = format!(
        "Tree: root={} ({}), depth={} — {shown} page{} shown\n",
        fragment(&root.to_string()),
        if root.is_home() { "space" } else { "page" },
        shape.depth,
        if shown == 1 { "" } else { "s" }
    );
    let mut stack = vec![0usize];
    while let Some(index) = stack.pop() {
        let node = &walk.nodes[index];
        out.push_str(&node_line(node));
        out.push('\n');
        if let Some(total) = node.more_than_shown {
            let _ = writeln!(
                out,
                "{}({} of {total} children shown; explore with root=\"{}\")",
                "  ".repeat(node.level + 1),
                node.children.len(),
                fragment(&node.reference.local())
            );
        }
        stack.extend(node.children.iter().rev());
    }
    if walk.root_children == 0 {
        out.push_str(if root.is_home() {
            "No child pages.\n"
        } else {
            "This is a terminal page: it has no child pages.\n"
        });
    }
    let mut footer = String::new();
    let root_shown = walk.nodes[0].children.len();
    let end = shape.offset + root_shown;
    if end < walk.root_children {
        let _ = writeln!(
            footer,
            "More direct children exist (showing {}-{end} of {}); re-call with offset={end}.",
            shape.offset + 1,
            walk.root_children
        );
    }
    if walk.unexpanded > 0 {
        let _ = writeln!(
            footer,
            "Node budget of {NODE_BUDGET} lines reached: {} branch{} marked ⋯ not expanded; \
             explore one with root=<its reference>.",
            walk.unexpanded,
            if walk.unexpanded == 1 { "" } else { "es" }
        );
    }
    (out, footer)
}

/// `<indent><name>[/]  [<ref>]  "<title>"[ ⋯][ {markers}]`. A space node without a title is
/// one whose home page is missing or not viewable (alike, so a denied home is not told from a
/// missing one): it names no page, since get_document could not open it, but how to explore it.
fn node_line(node: &Node) -> String {
    let name = node_text(leaf_name(&node.reference));
    let slash = if node.has_children { "/" } else { "" };
    let hidden_children = node.has_children && !node.expanded;
    let target = match &node.title {
        None if node.reference.is_home() => no_home(node.reference.space()),
        _ => bracketed(&node.reference),
    };
    format!(
        "{}{name}{slash}  {target}{}{}{}",
        "  ".repeat(node.level),
        title_part(&name, node.title.as_deref()),
        if hidden_children { " ⋯" } else { "" },
        markers(node)
    )
}
