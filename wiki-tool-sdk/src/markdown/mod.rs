//! Our Markdown dialect, and the bounds a page must meet before it is rendered: what the
//! rendering tools (get_document) and the signed view page (`http/pages.rs`) share, so both
//! parse the same dialect and neither renders what the other refuses.

mod headings;
pub mod limits;
pub mod links;

pub use headings::{Heading, headings};
/// The Markdown dialect of our content: CommonMark with the GitHub extensions, the dialect the
/// store's link extraction parses.
pub use wiki_store::links::markdown_options as options;
