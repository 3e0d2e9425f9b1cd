//! Rendered pages kept per document row and version, rendering, and the holder their links are
//! signed for: ten calls rendering one page render it once (the others wait for that render
//! without taking a heavy slot), and a page read section by section is rendered once.
//!
//! The key holds everything the rendering depends on: the row's content is fixed by its
//! version ([`PageVersion`]), and the links a rendering carries are signed for one caller through one endpoint
//! within a few minutes ([`SignedFor`]), so no caller is handed another's links or expired
//! ones. Least recently used renderings go first once they weigh [`MAX_RENDERED_BYTES`].

use std::sync::{Arc, LazyLock};

use mcp_runtime::output::lines::normalize_line_endings;
use wiki_tool_sdk::heavy::{HeavyCache, PageVersion};
use wiki_tool_sdk::links::SignedFor;
use wiki_tool_sdk::markdown::limits::TooComplex;
use wiki_tool_sdk::prelude::*;

use super::render::{PageLinks, Rendered, Rendering, render};

/// The most bytes of rendered pages kept, all together.
pub(crate) const MAX_RENDERED_BYTES: usize = 32 * 1024 * 1024;

/// The bytes an entry costs besides its text (key, bookkeeping).
const ENTRY_OVERHEAD: usize = 256;

/// What a rendering depends on.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct Key {
    page: PageVersion,
    rendering: Rendering,
    links: Option<SignedFor>,
}

/// A page rendered, or why it is not.
type Page = Result<Rendered, TooComplex>;

static RENDERED: LazyLock<HeavyCache<Key, Page>> = LazyLock::new(|| {
    HeavyCache::new(MAX_RENDERED_BYTES, |_, page| {
        ENTRY_OVERHEAD + page.as_ref().map_or(0, Rendered::weight)
    })
});

/// `document` rendered as `rendering` (with `links`, its wiki links signed for the caller):
/// kept, or rendered once in a heavy slot for every call that asks meanwhile, in the caller's
/// turn.
pub(crate) async fn rendered_page(
    ctx: &ToolContext,
    document: &Document,
    rendering: Rendering,
    links: Option<PageLinks>,
) -> Result<Arc<Page>, ToolError> {
    let key = Key {
        page: PageVersion::of(document),
        rendering,
        links: links.as_ref().map(|links| links.signer.signs_for()),
    };
    let content = normalize_line_endings(&document.content).into_owned();
    RENDERED
        .get_or_run(key, &ctx.heavy_share(), ctx.cancellation(), move || {
            render(&content, rendering, links.as_ref())
        })
        .await
        .map_err(|not_run| not_run.tool_error("rendering pages"))
}
