//! The bundled content tools of wiki-mcp: one `#[mcp_tool]` per file in `tools`, named by its
//! id, and the seams two or more of them share in `seams` (line windows, locale routing,
//! history, URLs). A binary serves them by linking this crate: `use bundled_tools as _;`.
//!
//! Every tool reaches content only through the wiki server's doors (`ctx.doors()`), echoes
//! values only through the framework's guards, and cuts long output with the framework's
//! budget.

mod seams;
mod tools;

/// The line window exactly as the tools print it (numbered lines, then the footer), or the
/// agent-facing error for a bad `offset`/`limit`: the entry of the fuzz target that checks the
/// window grammar (`fuzz/fuzz_targets/line_window.rs`). Not API.
#[doc(hidden)]
pub fn __fuzz_line_window(
    text: &str,
    offset: Option<usize>,
    limit: Option<usize>,
) -> Result<String, String> {
    seams::window::line_window(text, offset, limit, "document")
        .map(|window| window.with_footer())
        .map_err(|error| error.message().to_owned())
}
