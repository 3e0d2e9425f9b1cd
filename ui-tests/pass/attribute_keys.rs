//! Every `#[mcp_tool]` key, and what each one sets in the declaration and the definition.

use mcp_runtime::prelude::*;

/// Replace a page's content. This first sentence is not the summary: `summary` overrides it.
///
/// More detail for the description.
#[mcp_tool(
    id = "write-page",
    name = "write-page",
    write,
    category = "Pages",
    summary = "Write a page",
    man = "Long prose for man, kept out of the definition.",
    title = "Write page",
    rename_all = "camelCase"
)]
pub struct WritePage {
    /// The page to write.
    page_reference: String,
    /// The new content, kept exactly as sent.
    #[param(raw)]
    new_content: String,
}

impl Execute for WritePage {
    async fn execute(self, _ctx: &ToolContext) -> ToolResult {
        Ok(ToolOutput::text(format!(
            "{} {}",
            self.page_reference, self.new_content
        )))
    }
}

/// Read a page, e.g. the home page. Also reads translations.
#[mcp_tool(id = "read_page")]
pub struct ReadPage;

impl Execute for ReadPage {
    async fn execute(self, _ctx: &ToolContext) -> ToolResult {
        Ok(ToolOutput::text(""))
    }
}

fn main() {
    let registry = mcp_runtime::registry().expect("no duplicate ids");
    let tool = registry.get("write-page").expect("registered");
    let declaration = tool.declaration();
    assert_eq!(declaration.id, "write-page");
    assert!(declaration.write);
    assert_eq!(declaration.category, "Pages");
    assert_eq!(declaration.summary, "Write a page");
    assert_eq!(
        declaration.man,
        Some("Long prose for man, kept out of the definition.")
    );
    assert_eq!(declaration.title, Some("Write page"));
    assert_eq!(
        declaration.description,
        "Replace a page's content. This first sentence is not the summary: `summary` overrides \
         it.\n\nMore detail for the description."
    );
    let wires: Vec<&str> = declaration.params.iter().map(|p| p.spec.name).collect();
    assert_eq!(wires, ["pageReference", "newContent"]);
    assert!(declaration.params[1].spec.raw);
    let definition = tool.definition(mcp_runtime::SchemaVariant::Standard).expect("valid schema");
    assert_eq!(definition.title, Some("Write page"));
    assert!(!definition.annotations.read_only_hint);

    let defaults = registry.get("read_page").expect("registered").declaration();
    assert_eq!(defaults.category, "General");
    assert_eq!(defaults.summary, "Read a page, e.g. the home page.");
    assert_eq!(defaults.title, None);
    assert_eq!(defaults.man, None);
    assert!(!defaults.write);
}
