//! `man`: the server's manual tool, generated from the same declarations that give
//! the advertised schemas, so it cannot drift from what a client sees.
//!
//! Without arguments it prints the catalog (tools grouped by category, `name - summary`, then the
//! reference pages); with a name, that tool's page (NAME, SYNOPSIS, OPTIONS, DESCRIPTION, then the
//! tool's `man` prose) or a reference page. It lists only what this wiki serves to this caller:
//! a guest never reads about a write tool it cannot call. The prose follows the endpoint's
//! reach as the schemas do (`for_caller`): without cross-wiki reach, a page says nothing of
//! other wikis, and its SEE ALSO names only tools the caller is served.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use mcp_runtime::param::JsonObject;
use mcp_runtime::prelude::*;
use mcp_runtime::{ServedTool, ToolSet};
use serde_json::Value;
use wiki_tool_sdk::untrusted::fragment;

use crate::confirm::{CONFIRM_ALWAYS_NOTE, CONFIRM_NOTE, CONFIRM_WRITES_NOTE};
use crate::server::{confirms_writes, served_tools};
use wiki_tool_sdk::WikiContext;
use wiki_tool_sdk::categories;

mod markdown_syntax;

/// The reference pages `man` serves besides the tools: (name, summary, text).
const REFERENCE_PAGES: &[(&str, &str, &str)] = &[(
    "markdown-syntax",
    "the content syntax: CommonMark + GFM with wiki links",
    markdown_syntax::PAGE,
)];

/// Show the manual: the catalog of tools and reference pages, or one page.
#[mcp_tool(
    id = "man",
    category = categories::HELP,
    title = "Manual",
    output = ManOutput,
    man = "NOTES
    Without `tool`, lists every tool this endpoint offers you, by category, and the reference
    pages. With `tool`, shows that tool's manual page (synopsis, options, description, notes
    and examples) or a reference page such as \"markdown-syntax\".

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
    /// A tool or reference page; omit it for the catalog.
    tool: Option<String>,
}

/// What `man` returns, structured: which page it showed; the text is the page.
#[mcp_output]
pub struct ManOutput {
    /// The page shown: a tool's or a reference page's name; absent for the catalog.
    page: Option<String>,
    /// With the catalog: the tools this endpoint offers you, sorted.
    tools: Option<Vec<String>>,
    /// With the catalog: the reference pages.
    references: Option<Vec<String>>,
}

impl ManOutput {
    fn catalog(tools: &ToolSet) -> Self {
        Self {
            page: None,
            tools: Some(tools.iter().map(|served| served.id().to_owned()).collect()),
            references: Some(
                REFERENCE_PAGES
                    .iter()
                    .map(|(name, _, _)| (*name).to_owned())
                    .collect(),
            ),
        }
    }

    fn page(name: &str) -> Self {
        Self {
            page: Some(name.trim().to_owned()),
            tools: None,
            references: None,
        }
    }
}

impl Execute<Structured<ManOutput>> for Man {
    async fn execute(self, ctx: &ToolContext) -> ToolResult<Structured<ManOutput>> {
        let tools = served_tools(ctx).unwrap_or_default();
        let tools = &*tools;
        let confirm_writes = confirms_writes(ctx);
        match self.tool {
            None if confirm_writes && tools.iter().any(|served| served.writes()) => {
                Ok(Structured::new(
                    ManOutput::catalog(tools),
                    format!("{}\n{CONFIRM_WRITES_NOTE}\n", catalog(tools)),
                ))
            }
            None => Ok(Structured::new(ManOutput::catalog(tools), catalog(tools))),
            Some(name) => {
                let text = page(tools, &name, ctx.reach())?;
                let note = tools
                    .get(name.trim())
                    .filter(|served| served.writes())
                    .and_then(|served| {
                        if confirm_writes {
                            Some(CONFIRM_NOTE)
                        } else {
                            served
                                .tool
                                .declaration()
                                .confirm
                                .then_some(CONFIRM_ALWAYS_NOTE)
                        }
                    });
                let text = match note {
                    Some(note) => format!("{text}\nCONFIRMATION\n    {note}\n"),
                    None => text,
                };
                Ok(Structured::new(ManOutput::page(&name), text))
            }
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

/// One manual page: a tool this caller can use, or a reference page; `reach` is whether this
/// endpoint has cross-wiki reach.
pub fn page(tools: &ToolSet, name: &str, reach: bool) -> Result<String, ToolError> {
    let name = name.trim();
    if let Some(served) = tools.get(name) {
        return Ok(tool_page(served, tools, reach));
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
    ))
    .with_kind(ErrorKind::NotFound))
}

/// NAME, SYNOPSIS, OPTIONS (only with parameters), DESCRIPTION, then the `man` prose. Reads the
/// advertised schema, tolerating a malformed one (a contributed tool's schema is data).
fn tool_page(served: ServedTool, tools: &ToolSet, reach: bool) -> String {
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
            let capped = declaration
                .params
                .iter()
                .any(|param| param.spec.name == option.name && param.spec.clamp);
            if let Some(limits) = limits(&option.schema, capped) {
                let _ = writeln!(out, "        {limits}");
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
        out.push_str(for_caller(man, tools, reach).trim_end());
        out.push('\n');
    }
    out
}

/// What marks a sentence of man prose as about other wikis.
const REACH_MARK: &str = "cross-wiki reach";

/// A tool's `man` prose as this caller may use it. Sections start at an unindented line
/// (`NOTES`, `EXAMPLES`, `SEE ALSO`). Without reach: prose sentences naming cross-wiki reach
/// are left out (a paragraph left empty goes with them; one that lost a sentence is re-wrapped),
/// and so are EXAMPLES lines with a `wiki=` argument. Always: SEE ALSO keeps only the tools
/// this caller is served and the reference pages, so a page never points to a tool (such as
/// list_wikis, or a write tool for the guest) the caller cannot call.
fn for_caller(man: &str, tools: &ToolSet, reach: bool) -> String {
    let mut out = String::new();
    let mut section = "";
    let mut paragraph: Vec<&str> = Vec::new();
    let flush = |out: &mut String, paragraph: &mut Vec<&str>, section: &str| {
        if !paragraph.is_empty() {
            out.push_str(&section_paragraph(section, paragraph, tools, reach));
            paragraph.clear();
        }
    };
    for line in man.lines() {
        if !line.is_empty() && !line.starts_with(' ') {
            flush(&mut out, &mut paragraph, section);
            section = line.trim();
            out.push_str(line);
            out.push('\n');
        } else if line.trim().is_empty() {
            flush(&mut out, &mut paragraph, section);
            if !out.ends_with("\n\n") && !out.is_empty() {
                out.push('\n');
            }
        } else {
            paragraph.push(line);
        }
    }
    flush(&mut out, &mut paragraph, section);
    // A SEE ALSO left without entries goes too.
    let kept = out.trim_end();
    match kept.strip_suffix("SEE ALSO") {
        Some(before) if before.is_empty() || before.ends_with('\n') => before.to_owned(),
        _ => out,
    }
}

/// One paragraph of `section`, filtered as [`for_caller`] says; empty when nothing is left.
fn section_paragraph(section: &str, lines: &[&str], tools: &ToolSet, reach: bool) -> String {
    let kept: Vec<String> = match section {
        "EXAMPLES" => lines
            .iter()
            .filter(|line| reach || !line.contains(" wiki="))
            .map(|line| (*line).to_owned())
            .collect(),
        "SEE ALSO" => see_also(lines, tools),
        _ if reach || !joined(lines).contains(REACH_MARK) => {
            lines.iter().map(|line| (*line).to_owned()).collect()
        }
        _ => without_reach_sentences(lines),
    };
    kept.iter().map(|line| format!("{line}\n")).collect()
}

/// The SEE ALSO entries (comma-separated, each starting with a name) whose name is a tool this
/// caller is served or a reference page, on one indented line.
fn see_also(lines: &[&str], tools: &ToolSet) -> Vec<String> {
    let indent = leading_spaces(lines.first().copied().unwrap_or_default());
    let text = joined(lines);
    let entries: Vec<&str> = text
        .split(", ")
        .map(str::trim)
        .filter(|entry| {
            let name = entry.split_whitespace().next().unwrap_or_default();
            tools.get(name).is_some() || REFERENCE_PAGES.iter().any(|(page, _, _)| *page == name)
        })
        .collect();
    if entries.is_empty() {
        return Vec::new();
    }
    wrap(&entries.join(", "), indent)
}

/// A prose paragraph without its sentences about cross-wiki reach, re-wrapped at its indent.
fn without_reach_sentences(lines: &[&str]) -> Vec<String> {
    let indent = leading_spaces(lines.first().copied().unwrap_or_default());
    let text = joined(lines);
    let mut kept = String::new();
    let mut rest = text.as_str();
    while !rest.is_empty() {
        // A sentence ends at ". " (or the text's end); `e.g. ` does not end one.
        let mut end = rest.len();
        let mut from = 0;
        while let Some(at) = rest[from..].find(". ") {
            let at = from + at;
            if rest[..at].ends_with("e.g") || rest[..at].ends_with("i.e") {
                from = at + 2;
                continue;
            }
            end = at + 1;
            break;
        }
        let sentence = &rest[..end];
        if !sentence.contains(REACH_MARK) {
            if !kept.is_empty() {
                kept.push(' ');
            }
            kept.push_str(sentence.trim());
        }
        rest = rest[end..].trim_start();
    }
    if kept.is_empty() {
        return Vec::new();
    }
    wrap(&kept, indent)
}

/// Width man prose is wrapped to, as the declarations are written.
const WRAP_COLUMNS: usize = 96;

/// `text` wrapped at word boundaries to [`WRAP_COLUMNS`], each line indented by `indent` spaces.
fn wrap(text: &str, indent: usize) -> Vec<String> {
    let pad = " ".repeat(indent);
    let mut lines = Vec::new();
    let mut line = pad.clone();
    for word in text.split_whitespace() {
        if line.len() > indent && line.len() + 1 + word.len() > WRAP_COLUMNS {
            lines.push(std::mem::replace(&mut line, pad.clone()));
        }
        if line.len() > indent {
            line.push(' ');
        }
        line.push_str(word);
    }
    if line.len() > indent {
        lines.push(line);
    }
    lines
}

/// A paragraph's lines as one line of text (a phrase may be wrapped across two lines).
fn joined(lines: &[&str]) -> String {
    lines
        .iter()
        .map(|line| line.trim())
        .collect::<Vec<_>>()
        .join(" ")
}

fn leading_spaces(line: &str) -> usize {
    line.len() - line.trim_start_matches(' ').len()
}

struct OptionLine {
    name: String,
    kind: String,
    required: bool,
    description: String,
    /// The property's schema, for [`limits`].
    schema: Value,
}

/// What the schema says of a parameter's values besides its description, in words (the
/// listing gives it as `enum`, `default`, `minimum` and `maximum`): "One of: a, b. Default 10;
/// 1 to 25 (larger values are capped)." `capped`: the parameter lowers a value above its
/// maximum instead of refusing it.
fn limits(schema: &Value, capped: bool) -> Option<String> {
    let mut said = Vec::new();
    if let Some(Value::Array(values)) = schema.get("enum") {
        let values: Vec<String> = values
            .iter()
            .map(|value| {
                value
                    .as_str()
                    .map_or_else(|| value.to_string(), str::to_owned)
            })
            .collect();
        said.push(format!("One of: {}.", values.join(", ")));
    }
    let mut bounds = Vec::new();
    if let Some(default) = schema.get("default") {
        bounds.push(format!("default {default}"));
    }
    match (schema.get("minimum"), schema.get("maximum")) {
        (Some(low), Some(high)) if capped => {
            bounds.push(format!("{low} to {high} (larger values are capped)"));
        }
        (Some(low), Some(high)) => bounds.push(format!("{low} to {high}")),
        (Some(low), None) => bounds.push(format!("at least {low}")),
        (None, Some(high)) => bounds.push(format!("at most {high}")),
        (None, None) => {}
    }
    if !bounds.is_empty() {
        let text = bounds.join("; ");
        let mut chars = text.chars();
        let first = chars.next().map(|c| c.to_ascii_uppercase());
        said.push(format!(
            "{}{}.",
            first.map(String::from).unwrap_or_default(),
            chars.as_str()
        ));
    }
    (!said.is_empty()).then(|| said.join(" "))
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
        schema: property.clone(),
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
