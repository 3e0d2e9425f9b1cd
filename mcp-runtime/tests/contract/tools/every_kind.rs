use std::collections::BTreeMap;

use mcp_runtime::prelude::*;

use super::shared::{Filter, Mode, Page};

/// Exercise every supported parameter type.
///
/// Its output lists every parsed value, so tests can see what the parser kept.
#[mcp_tool(id = "every_kind", category = "Fixtures")]
pub(crate) struct EveryKind {
    /// A required, trimmed, non-blank string.
    reference: String,
    /// Page content, kept exactly as sent.
    #[param(raw)]
    content: String,
    /// An optional string: blank means absent.
    locale: Option<String>,
    /// A comment where an explicit empty value is meaningful.
    comment: Keep<String>,
    /// Rows per page (default 20, 1 to 100).
    #[param(default = 20, range = 1..=100)]
    limit: i64,
    /// Lines of context, clamped into 0 to 10.
    #[param(default = 3, range = 0..=10, clamp)]
    context: i64,
    /// A required integer with no default.
    version: i64,
    /// An optional integer.
    offset: Option<i64>,
    /// An optional size in bytes.
    size: Option<u64>,
    /// A share between 0 and 1.
    #[param(default = 0.5, range = 0.0..=1.0)]
    ratio: f64,
    /// An optional weight.
    weight: Option<f64>,
    /// Paging, declared once for several tools.
    #[param(flatten)]
    page: Page,
    /// A flag: absent means false.
    hidden: bool,
    /// A tri-state flag.
    minor: Option<bool>,
    /// Spaces to search.
    spaces: Vec<String>,
    /// Field values.
    fields: BTreeMap<String, String>,
    /// How to show the page.
    mode: Mode,
    /// How to show the diff, if at all.
    diff_mode: Option<Mode>,
    /// One filter.
    filter: Filter,
    /// More filters.
    filters: Vec<Filter>,
    /// An optional filter.
    extra: Option<Filter>,
    /// Optional source to read from instead of the default one.
    #[param(extended)]
    source: Option<String>,
}

impl Execute for EveryKind {
    async fn execute(self, ctx: &ToolContext) -> ToolResult {
        Ok(ToolOutput::text(format!(
            "by {}: reference={:?} content={:?} locale={:?} comment={:?} limit={} context={} \
             version={} offset={:?} size={:?} ratio={} weight={:?} page={:?} hidden={} \
             minor={:?} spaces={:?} fields={:?} mode={} diff_mode={:?} filter={:?} filters={} \
             extra={:?} source={:?}",
            ctx.user_or_guest(),
            self.reference,
            self.content,
            self.locale,
            self.comment,
            self.limit,
            self.context,
            self.version,
            self.offset,
            self.size,
            self.ratio,
            self.weight,
            self.page,
            self.hidden,
            self.minor,
            self.spaces,
            self.fields,
            self.mode.to_wire(),
            self.diff_mode,
            self.filter,
            self.filters.len(),
            self.extra,
            self.source,
        )))
    }
}
