//! The categories `man` groups its catalog by, spelled once.
//!
//! `man` makes one group per distinct category string, so two spellings of one category
//! ("Structured data", "Structured Data") print it twice. Every tool this server ships names one
//! of these constants (`#[mcp_tool(category = categories::AUTHORING)]`), and a contributed tool
//! crate should too when its tools belong to one of them; a crate with a group of its own
//! declares its own constant. The spellings are the reference's, except "Search and Navigation"
//! (the reference writes "&"), kept as the catalog has always printed it.

/// Tools that create, change or delete documents and attachments.
pub const AUTHORING: &str = "Authoring";
/// The manual.
pub const HELP: &str = "Help";
/// Tools that find and read content: documents, history, links, attachments, the tree, wikis.
pub const SEARCH_AND_NAVIGATION: &str = "Search and Navigation";
/// Tools on classes and objects: schemas, object queries and object writes.
pub const STRUCTURED_DATA: &str = "Structured Data";
/// Tools on the semantic (embedding) index.
pub const SEMANTIC_SEARCH: &str = "Semantic Search";

/// Every category above.
pub const ALL: &[&str] = &[
    AUTHORING,
    HELP,
    SEARCH_AND_NAVIGATION,
    STRUCTURED_DATA,
    SEMANTIC_SEARCH,
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_two_categories_differ_only_in_case_or_spacing() {
        let folded: std::collections::HashSet<String> = ALL
            .iter()
            .map(|category| {
                category
                    .split_whitespace()
                    .collect::<Vec<_>>()
                    .join(" ")
                    .to_lowercase()
            })
            .collect();
        assert_eq!(folded.len(), ALL.len(), "{ALL:?}");
        assert!(ALL.iter().all(|category| category.trim() == *category));
    }
}
