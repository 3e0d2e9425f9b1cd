//! The bundled content tools of wiki-mcp: one `#[mcp_tool]` per file in [`tools`], named by its
//! id, and the seams two or more of them share in [`seams`] (line windows, locale routing,
//! history, URLs). A binary serves them by linking this crate: `use bundled_tools as _;`.
//!
//! Every tool reaches content only through the wiki server's doors (`ctx.doors()`), echoes
//! values only through the framework's guards, and cuts long output with the framework's
//! budget.

mod seams;
mod tools;
