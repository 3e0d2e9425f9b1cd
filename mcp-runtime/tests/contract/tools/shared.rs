//! Parameter types shared by the test tools.

use mcp_runtime::prelude::*;

/// How to show a page.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ParamEnum)]
pub(crate) enum Mode {
    /// The stored source.
    Source,
    /// The rendered text.
    Rendered,
    /// A two-word variant, to see the snake_case wire value.
    RenderedHtml,
}

/// Paging, shared by tools as top-level parameters (`#[param(flatten)]`).
#[derive(Debug, Clone, PartialEq, Eq, ParamObject)]
pub(crate) struct Page {
    /// The first item, 0-based.
    #[param(default = 0)]
    pub(crate) start: usize,
    /// Items per page (1 to 50).
    #[param(default = 10, range = 1..=50, clamp)]
    pub(crate) count: u32,
}

/// A field filter.
#[derive(Debug, Clone, PartialEq, Eq, ParamObject)]
pub(crate) struct Filter {
    /// The field name.
    pub(crate) field: String,
    /// The value to match.
    pub(crate) value: Option<String>,
    /// At most this many matches.
    pub(crate) max: Option<i64>,
}
