//! `man`: the server's manual tool (facts §2), generated from the same declarations that give
//! the advertised schemas, so it cannot drift from what a client sees.
//!
//! Without arguments it prints the catalog (tools grouped by category, `name - summary`, then the
//! reference pages); with a name, that tool's page (NAME, SYNOPSIS, OPTIONS, DESCRIPTION, then the
//! tool's `man` prose) or a reference page. It lists only what this wiki serves to this caller:
//! a guest never reads about a write tool it cannot call.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use mcp_runtime::output::guard::fragment;
use mcp_runtime::param::JsonObject;
use mcp_runtime::prelude::*;
use mcp_runtime::{ServedTool, ToolSet};
use serde_json::Value;

use crate::context::served_tools;

mod markdown_syntax;

/// The reference pages `man` serves besides the tools: (name, summary, text).
const REFERENCE_PAGES: &[(&str, &str, &str)] = &[(
    "markdown-syntax",
    "the content syntax: CommonMark + GFM with wiki links",
    markdown_syntax::PAGE,
)];

/// Show the manual: the catalog of tools and reference pages, or one page.
///
/// Without `tool`, lists every tool this endpoint offers you, by category, and the reference
/// pages. With `tool`, shows that tool's manual page (synopsis, options, description, notes and
/// examples) or a reference page such as "markdown-syntax".
#[mcp_tool(
    id = "man",
    category = "Help",
    title = "Manual",
    man = "NOTES
    The catalog and the pages list only what this endpoint offers you: tools this wiki
    enables (write tools only for signed-in users) and the reference pages.

EXAMPLES
    man
    man tool=\"get_document\"
    man tool=\"markdown-syntax\"

SEE ALSO
    markdown-syntax"
)]
pub struct Man {
    /// A tool or reference page name, e.g. "get_document" or "markdown-syntax"; omit it for the
    /// catalog.
    tool: Option<String>,
}

impl Execute for Man {
    async fn execute(self, ctx: &ToolContext) -> ToolResult {
        let empty = ToolSet::default();
        let tools = served_tools(ctx).unwrap_or(&empty);
        match self.tool {
            None => Ok(ToolOutput::text(catalog(tools))),
            Some(name) => page(tools, &name).map(ToolOutput::text),
        }
    }
}

/// The catalog: an intro line, then each category (alphabetical) with its sorted tools, then the
/// reference pages.
pub fn catalog(tools: &ToolSet) -> String {
    let mut by_category: BTreeMap<&str, Vec<(&str, &str)>> = BTreeMap::new();
    for served in tools.iter() {
        let declaration = served.tool.declaration();
        by_category
            .entry(declaration.category)
            .or_default()
            .push((declaration.id, declaration.summary));
    }
    let mut out = String::from(
        "Available tools and reference pages - use `man <name>` for full documentation:\n",
    );
    let reference = REFERENCE_PAGES
        .iter()
        .map(|(name, summary, _)| (*name, *summary))
        .collect();
    for (category, mut entries) in by_category.into_iter().chain([("Reference", reference)]) {
        entries.sort_unstable();
        let _ = write!(out, "\n{category}\n");
        for (name, summary) in entries {
            let _ = writeln!(out, "  {name} - {summary}");
        }
    }
    out
}

/// One manual page: a tool this caller can use, or a reference page.
pub fn page(tools: &ToolSet, name: &str) -> Result<String, ToolError> {
    let name = name.trim();
    if let Some(served) = tools.get(name) {
        return Ok(tool_page(served));
    }
    if let Some((_, _, text)) = REFERENCE_PAGES.iter().find(|(page, _, _)| *page == name) {
        return Ok((*text).to_owned());
    }
    let references: Vec<&str> = REFERENCE_PAGES.iter().map(|(page, _, _)| *page).collect();
    Err(ToolError::new(format!(
        "No manual entry for \"{}\". Available tools: {}. Reference pages: {}.",
        fragment(name),
        tools.names(),
        references.join(", ")
    )))
}

/// NAME, SYNOPSIS, OPTIONS (only with parameters), DESCRIPTION, then the `man` prose. Reads the
/// advertised schema, tolerating a malformed one (a contributed tool's schema is data).
fn tool_page(served: ServedTool) -> String {
    let declaration = served.tool.declaration();
    let options = options(&served.definition.input_schema);
    let mut out = String::new();
    let _ = write!(
        out,
        "NAME\n    {} - {}\n\nSYNOPSIS\n    {}",
        declaration.id, declaration.summary, declaration.id
    );
    for option in &options {
        if option.required {
            let _ = write!(out, " {}=<{}>", option.name, option.kind);
        } else {
            let _ = write!(out, " [{}=<{}>]", option.name, option.kind);
        }
    }
    out.push('\n');
    if !options.is_empty() {
        out.push_str("\nOPTIONS\n");
        for option in &options {
            let _ = writeln!(
                out,
                "    {} ({}, {})",
                option.name,
                option.kind,
                if option.required {
                    "required"
                } else {
                    "optional"
                }
            );
            for line in option.description.lines() {
                let _ = writeln!(out, "        {line}");
            }
        }
    }
    out.push_str("\nDESCRIPTION\n");
    for line in declaration.description.lines() {
        if line.is_empty() {
            out.push('\n');
        } else {
            let _ = writeln!(out, "    {line}");
        }
    }
    if let Some(man) = declaration.man {
        out.push('\n');
        out.push_str(man.trim_end());
        out.push('\n');
    }
    out
}

struct OptionLine {
    name: String,
    kind: String,
    required: bool,
    description: String,
}

/// Parameters in synopsis order: the required ones in `required` order, then the others in
/// schema order.
fn options(schema: &JsonObject) -> Vec<OptionLine> {
    let empty = serde_json::Map::new();
    let properties = schema
        .get("properties")
        .and_then(Value::as_object)
        .unwrap_or(&empty);
    let required: Vec<&str> = schema
        .get("required")
        .and_then(Value::as_array)
        .map(|names| names.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let option = |name: &str, property: &Value, required: bool| OptionLine {
        name: name.to_owned(),
        kind: property
            .get("type")
            .and_then(Value::as_str)
            .unwrap_or("value")
            .to_owned(),
        required,
        description: property
            .get("description")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned(),
    };
    let mut options: Vec<OptionLine> = required
        .iter()
        .filter_map(|name| {
            properties
                .get(*name)
                .map(|property| option(name, property, true))
        })
        .collect();
    options.extend(
        properties
            .iter()
            .filter(|(name, _)| !required.contains(&name.as_str()))
            .map(|(name, property)| option(name, property, false)),
    );
    options
}
