//! The space filter: which part of the farm an endpoint exposes, from the SOURCE
//! wiki's configuration only (the target wiki's own filter is never consulted).
//!
//! Filters scope what an agent sees; they are not secrecy (the distinct refusal reveals that an
//! entry exists). Rights are checked before the filter, so a filter can only narrow.

use tracing::warn;
use wiki_store::model::mcp_config::{McpConfig, SpaceFilterMode};
use wiki_store::model::wiki::WikiId;
use wiki_store::reference::{DocumentReference, HOME_PAGE, RelativeReference, SpacePath};

/// A wiki's space filter, parsed once per server build (entries are configuration, not input).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SpaceFilter {
    rule: Rule,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Rule {
    /// Everything passes (no filter, or a whitelist with both lists empty).
    Unrestricted,
    /// Nothing passes: the configuration could not be read.
    Nothing,
    /// Only matching references pass (every entry malformed: nothing passes).
    Only(Entries),
    /// Matching references are refused (every entry malformed: everything passes).
    Except(Entries),
}

#[derive(Debug, Clone, PartialEq, Eq, Default)]
struct Entries {
    spaces: Vec<(WikiId, SpacePath)>,
    documents: Vec<DocumentReference>,
}

impl Entries {
    fn matches(&self, reference: &DocumentReference) -> bool {
        self.spaces
            .iter()
            .any(|(wiki, space)| wiki == reference.wiki() && space.contains(reference.space()))
            || self.documents.iter().any(|document| document == reference)
    }
}

impl SpaceFilter {
    /// A filter that lets everything through.
    pub fn unrestricted() -> Self {
        Self {
            rule: Rule::Unrestricted,
        }
    }

    /// Parses the filter of `config`, the configuration of `source`. Unqualified entries target
    /// `source`; `other:Space` targets wiki `other`. A malformed entry is skipped with a WARN
    /// naming it (which widens a blacklist and narrows a whitelist, as in the reference).
    pub fn from_config(source: &WikiId, config: &McpConfig) -> Self {
        let entries = || Entries {
            spaces: config
                .space_filter_spaces
                .iter()
                .filter_map(|entry| parse_space_entry(source, entry))
                .collect(),
            documents: config
                .space_filter_documents
                .iter()
                .filter_map(|entry| parse_document_entry(source, entry))
                .collect(),
        };
        let rule = match config.space_filter_mode {
            SpaceFilterMode::None => Rule::Unrestricted,
            SpaceFilterMode::DenyAll => Rule::Nothing,
            SpaceFilterMode::Whitelist
                if config.space_filter_spaces.is_empty()
                    && config.space_filter_documents.is_empty() =>
            {
                Rule::Unrestricted
            }
            SpaceFilterMode::Whitelist => Rule::Only(entries()),
            SpaceFilterMode::Blacklist => Rule::Except(entries()),
        };
        Self { rule }
    }

    /// Whether this endpoint exposes `reference`.
    pub fn allows(&self, reference: &DocumentReference) -> bool {
        match &self.rule {
            Rule::Unrestricted => true,
            Rule::Nothing => false,
            Rule::Only(entries) => entries.matches(reference),
            Rule::Except(entries) => !entries.matches(reference),
        }
    }

    /// Whether this endpoint exposes some page that may live in `space` of `wiki` or below it:
    /// a whitelisted space at, above or below it, or a whitelisted document inside it; for a
    /// blacklist, no blacklisted space at or above it (a blacklisted document hides that page,
    /// not its space). For views that show a space through the pages that pass the filter one
    /// by one.
    pub fn exposes_space(&self, wiki: &WikiId, space: &SpacePath) -> bool {
        match &self.rule {
            Rule::Unrestricted => true,
            Rule::Nothing => false,
            Rule::Only(entries) => {
                entries.spaces.iter().any(|(entry_wiki, entry)| {
                    entry_wiki == wiki && (entry.contains(space) || space.contains(entry))
                }) || entries
                    .documents
                    .iter()
                    .any(|document| document.wiki() == wiki && space.contains(document.space()))
            }
            Rule::Except(entries) => !entries
                .spaces
                .iter()
                .any(|(entry_wiki, entry)| entry_wiki == wiki && entry.contains(space)),
        }
    }
}

/// `[wiki:]Space[.Sub…]`: parsed as the reference of the space's home page, so escapes and the
/// wiki prefix follow the one reference grammar.
fn parse_space_entry(source: &WikiId, entry: &str) -> Option<(WikiId, SpacePath)> {
    let entry = entry.trim();
    let trailing_backslashes = entry.chars().rev().take_while(|&c| c == '\\').count();
    let parsed = if trailing_backslashes % 2 == 1 {
        None
    } else {
        RelativeReference::parse(&format!("{entry}.{HOME_PAGE}")).ok()
    };
    match parsed {
        Some(reference) if reference.name == HOME_PAGE => Some((
            reference.wiki.unwrap_or_else(|| source.clone()),
            reference.space,
        )),
        _ => {
            warn!(wiki = %source, entry, "skipping a malformed space entry of the space filter");
            None
        }
    }
}

fn parse_document_entry(source: &WikiId, entry: &str) -> Option<DocumentReference> {
    match DocumentReference::parse(entry.trim(), source) {
        Ok(reference) => Some(reference),
        Err(error) => {
            warn!(wiki = %source, entry, %error, "skipping a malformed document entry of the space filter");
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wiki(id: &str) -> WikiId {
        WikiId::new(id).unwrap_or_else(|error| panic!("{id}: {error}"))
    }

    fn reference(text: &str) -> DocumentReference {
        DocumentReference::parse(text, &wiki("main"))
            .unwrap_or_else(|error| panic!("{text}: {error}"))
    }

    fn filter(mode: SpaceFilterMode, spaces: &[&str], documents: &[&str]) -> SpaceFilter {
        let config = McpConfig {
            space_filter_mode: mode,
            space_filter_spaces: spaces.iter().map(|s| (*s).to_owned()).collect(),
            space_filter_documents: documents.iter().map(|s| (*s).to_owned()).collect(),
            ..McpConfig::default()
        };
        SpaceFilter::from_config(&wiki("main"), &config)
    }

    #[test]
    fn a_whitelist_exposes_its_spaces_nested_spaces_and_documents_only() {
        let filter = filter(
            SpaceFilterMode::Whitelist,
            &["Sales", "second:Sandbox"],
            &["Help.Faq"],
        );
        assert!(filter.allows(&reference("Sales.WebHome")));
        assert!(filter.allows(&reference("Sales.Europe.Plan")));
        assert!(filter.allows(&reference("Help.Faq")));
        assert!(filter.allows(&reference("second:Sandbox.Test")));
        assert!(!filter.allows(&reference("Help.Other")));
        assert!(!filter.allows(&reference("SalesX.Page")));
        assert!(!filter.allows(&reference("Sandbox.Test")));
    }

    #[test]
    fn a_blacklist_exposes_everything_else() {
        let filter = filter(
            SpaceFilterMode::Blacklist,
            &["Private.Deep"],
            &["Main.Secret"],
        );
        assert!(!filter.allows(&reference("Private.Deep.Page")));
        assert!(!filter.allows(&reference("Main.Secret")));
        assert!(filter.allows(&reference("Private.Page")));
        assert!(filter.allows(&reference("Main.WebHome")));
    }

    #[test]
    fn empty_lists_and_malformed_entries_follow_the_reference() {
        assert!(filter(SpaceFilterMode::Whitelist, &[], &[]).allows(&reference("A.B")));
        let malformed = ["a..b", "Bad:Wiki", "trailing\\"];
        assert!(!filter(SpaceFilterMode::Whitelist, &malformed, &[".x"]).allows(&reference("A.B")));
        assert!(filter(SpaceFilterMode::Blacklist, &malformed, &[".x"]).allows(&reference("A.B")));
        assert!(filter(SpaceFilterMode::None, &["A"], &[]).allows(&reference("A.B")));
        let closed = SpaceFilter::from_config(&wiki("main"), &McpConfig::fail_closed());
        assert!(!closed.allows(&reference("A.B")));
    }

    #[test]
    fn a_space_is_exposed_when_some_page_in_it_can_pass() {
        let space =
            |text: &str| SpacePath::parse(text).unwrap_or_else(|error| panic!("{text}: {error}"));
        let main = wiki("main");
        let white = filter(SpaceFilterMode::Whitelist, &["Sales.Europe"], &["Help.Faq"]);
        assert!(
            white.exposes_space(&main, &space("Sales")),
            "a whitelisted subspace"
        );
        assert!(white.exposes_space(&main, &space("Sales.Europe.Paris")));
        assert!(
            white.exposes_space(&main, &space("Help")),
            "a whitelisted document"
        );
        assert!(!white.exposes_space(&main, &space("Help.Deep")));
        assert!(!white.exposes_space(&main, &space("Other")));
        assert!(!white.exposes_space(&wiki("second"), &space("Sales")));
        let black = filter(SpaceFilterMode::Blacklist, &["Private"], &["Help.WebHome"]);
        assert!(!black.exposes_space(&main, &space("Private")));
        assert!(!black.exposes_space(&main, &space("Private.Deep")));
        assert!(
            black.exposes_space(&main, &space("Help")),
            "only its home is hidden"
        );
        assert!(black.exposes_space(&wiki("second"), &space("Private")));
    }

    #[test]
    fn escaped_dots_stay_inside_a_space_name() {
        let filter = filter(SpaceFilterMode::Whitelist, &["v1\\.0"], &[]);
        assert!(filter.allows(&reference("v1\\.0.Notes")));
        assert!(!filter.allows(&reference("v1.Notes")));
    }
}
