//! Our Markdown dialect, and the bounds a page must meet before it is rendered: what the
//! rendering tools (get_document) and the signed view page (`http/pages.rs`) share, so both
//! parse the same dialect and neither renders what the other refuses.

pub mod limits;
pub mod links;

use pulldown_cmark::Options;

/// The Markdown dialect of our content: CommonMark with the GitHub extensions the store's link
/// extraction also parses.
pub fn options() -> Options {
    Options::ENABLE_TABLES
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_TASKLISTS
        | Options::ENABLE_FOOTNOTES
        | Options::ENABLE_GFM
}
