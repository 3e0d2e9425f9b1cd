//! The page tree's rules, for every backend: how stored spaces fold into top-level totals, how a
//! nested-space node is built from the pages the caller may view, and how children sort and page.
//!
//! Spaces are not stored on their own: a space exists while a document lives in it or below it.
//! A backend reads default rows per stored space (counts for the totals; for children, the
//! authorized pages and, per nested space, the newest page the caller may view) and leaves the
//! rest to these functions.

use std::collections::BTreeMap;

use crate::Result;
use crate::model::hierarchy::{ChildrenPage, SpaceSummary, TreeNode};
use crate::model::wiki::WikiId;
use crate::reference::{DocumentReference, SpacePath};
use crate::scan::Pager;
use crate::stored::from_ms;

/// Page counts of one top-level space's subtree, not authorized: what the space holds, not what
/// one caller may see of it.
#[derive(Debug, Default)]
pub(crate) struct Counts {
    pub(crate) visible: u64,
    pub(crate) hidden: u64,
    newest_visible: Option<i64>,
    newest_any: Option<i64>,
}

impl Counts {
    /// Adds `count` default rows with this hidden flag, the newest updated at `newest` (stored
    /// milliseconds).
    pub(crate) fn add(&mut self, hidden: bool, count: u64, newest: i64) {
        if hidden {
            self.hidden += count;
        } else {
            self.visible += count;
            self.newest_visible = self.newest_visible.max(Some(newest));
        }
        self.newest_any = self.newest_any.max(Some(newest));
    }

    /// The newest update among the counted pages (hidden ones only when asked for).
    pub(crate) fn newest(&self, include_hidden: bool) -> Option<i64> {
        if include_hidden {
            self.newest_any
        } else {
            self.newest_visible
        }
    }
}

/// Folds per-stored-space counts `(space, hidden, count, newest)` into their top-level spaces,
/// sorted by space.
pub(crate) fn top_level_counts(
    rows: impl IntoIterator<Item = (SpacePath, bool, u64, i64)>,
) -> BTreeMap<SpacePath, Counts> {
    let mut out: BTreeMap<SpacePath, Counts> = BTreeMap::new();
    for (space, hidden, count, newest) in rows {
        out.entry(space.top())
            .or_default()
            .add(hidden, count, newest);
    }
    out
}

/// The top-level spaces as listed, from their folded counts: a space holding only hidden pages is
/// left out unless `include_hidden`; `home_title` reads a home page's title (`None`: missing).
pub(crate) fn space_summaries(
    wiki: &WikiId,
    counts: BTreeMap<SpacePath, Counts>,
    include_hidden: bool,
    mut home_title: impl FnMut(&DocumentReference) -> Result<Option<String>>,
) -> Result<Vec<SpaceSummary>> {
    let mut out = Vec::new();
    for (space, counts) in counts {
        if counts.visible == 0 && !include_hidden {
            continue;
        }
        let home = space.home(wiki);
        out.push(SpaceSummary {
            home_title: home_title(&home)?,
            space,
            home,
            pages: counts.visible,
            hidden_pages: counts.hidden,
            last_modified: counts.newest(include_hidden).map(from_ms),
        });
    }
    Ok(out)
}

/// The children of a page that cannot have any: only a space home (`Space.WebHome`) has
/// children; for any other page this is the (empty) answer, and a backend reads nothing.
pub(crate) fn childless(parent: &DocumentReference) -> Option<ChildrenPage> {
    (!parent.is_home()).then(|| ChildrenPage {
        nodes: Vec::new(),
        total: 0,
    })
}

/// A page's node in a listing; a space home may have children.
pub(crate) fn page_node(
    reference: DocumentReference,
    title: String,
    hidden: bool,
    updated_ms: i64,
) -> TreeNode {
    TreeNode {
        has_children: reference.is_home(),
        reference,
        title: Some(title),
        hidden,
        updated: Some(from_ms(updated_ms)),
    }
}

/// The newest page the caller may view in each hidden state of one nested space's subtree.
#[derive(Debug, Default, Clone, Copy)]
pub(crate) struct Newest {
    pub(crate) visible: Option<i64>,
    pub(crate) hidden: Option<i64>,
}

impl Newest {
    /// Notes a viewable page with this hidden flag, updated at `updated` (stored milliseconds).
    pub(crate) fn note(&mut self, hidden: bool, updated: i64) {
        let slot = if hidden {
            &mut self.hidden
        } else {
            &mut self.visible
        };
        *slot = (*slot).max(Some(updated));
    }
}

/// A nested space's node on its home page, from what the caller may view of it: its home page's
/// state `(title, hidden)` when the caller may view that page, and the newest viewable pages.
/// The title is the home page's, only when viewable; the hidden flag is the home page's then,
/// else whether every page they may view in it is hidden; the update is the newest page they
/// may view in it (hidden ones only when `include_hidden`).
pub(crate) fn space_node(
    home: DocumentReference,
    viewable_home: Option<(String, bool)>,
    newest: Newest,
    include_hidden: bool,
) -> TreeNode {
    let hidden = match &viewable_home {
        Some((_, hidden)) => *hidden,
        None => newest.visible.is_none(),
    };
    let updated = if include_hidden {
        newest.visible.max(newest.hidden)
    } else {
        newest.visible
    };
    TreeNode {
        title: viewable_home.map(|(title, _)| title),
        reference: home,
        hidden,
        has_children: true,
        updated: updated.map(from_ms),
    }
}

/// The name a child sorts by: a page's name, a nested space's last segment.
pub(crate) fn sort_name(node: &TreeNode) -> &str {
    if node.has_children && node.reference.is_home() {
        node.reference.space().last()
    } else {
        node.reference.name()
    }
}

/// Sorts children by name (case-insensitive, then exactly) and pages them; hidden nodes count
/// only when `include_hidden`. Every node must already be one the caller may view.
pub(crate) fn children_page(
    mut nodes: Vec<TreeNode>,
    include_hidden: bool,
    offset: usize,
    limit: usize,
) -> ChildrenPage {
    nodes.sort_by_cached_key(|node| {
        let name = sort_name(node);
        (name.to_lowercase(), name.to_owned())
    });
    let mut pager = Pager::new(offset, limit);
    let nodes = pager.page(nodes, |node| include_hidden || !node.hidden);
    ChildrenPage {
        nodes,
        total: pager.total() as u64,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::wiki::WikiId;

    fn space(path: &str) -> SpacePath {
        SpacePath::parse(path).unwrap_or_else(|e| panic!("{e}"))
    }

    fn page(reference: &str, hidden: bool) -> TreeNode {
        TreeNode {
            reference: DocumentReference::parse(reference, &WikiId::main())
                .unwrap_or_else(|e| panic!("{e}")),
            title: None,
            hidden,
            has_children: false,
            updated: None,
        }
    }

    #[test]
    fn nested_spaces_fold_into_their_top_level_space() {
        let counts = top_level_counts([
            (space("A"), false, 2, 10),
            (space("A.B"), true, 1, 30),
            (space("A.B"), false, 1, 20),
            (space("C"), true, 4, 5),
        ]);
        let a = &counts[&space("A")];
        assert_eq!((a.visible, a.hidden), (3, 1));
        assert_eq!((a.newest(false), a.newest(true)), (Some(20), Some(30)));
        assert_eq!(counts[&space("C")].newest(false), None);
    }

    #[test]
    fn a_space_node_says_only_what_its_viewable_pages_say() {
        let home = DocumentReference::parse("A.B.WebHome", &WikiId::main())
            .unwrap_or_else(|e| panic!("{e}"));
        let mut newest = Newest::default();
        newest.note(true, 50);
        let node = space_node(home.clone(), None, newest, false);
        assert_eq!((node.title, node.hidden, node.updated), (None, true, None));
        newest.note(false, 40);
        let node = space_node(home, Some(("B".into(), false)), newest, true);
        assert_eq!(node.title.as_deref(), Some("B"));
        assert_eq!(node.updated, Some(from_ms(50)));
        assert!(!node.hidden);
    }

    #[test]
    fn children_sort_case_insensitively_and_hidden_ones_are_not_counted() {
        let nodes = vec![
            page("S.beta", false),
            page("S.Alpha", true),
            page("S.gamma", false),
            page("S.Beta", false),
        ];
        let shown = children_page(nodes.clone(), false, 0, 10);
        let names: Vec<&str> = shown.nodes.iter().map(|n| n.reference.name()).collect();
        assert_eq!(names, ["Beta", "beta", "gamma"]);
        assert_eq!(shown.total, 3);
        let all = children_page(nodes, true, 1, 2);
        let names: Vec<&str> = all.nodes.iter().map(|n| n.reference.name()).collect();
        assert_eq!((names, all.total), (vec!["Beta", "beta"], 4));
    }
}
