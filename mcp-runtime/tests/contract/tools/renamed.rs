use std::collections::BTreeMap;

use mcp_runtime::prelude::*;

/// Write object fields: a write tool with renamed parameters and a required map.
#[mcp_tool(
    id = "renamed",
    write,
    category = "Fixtures",
    title = "Renamed parameters",
    rename_all = "camelCase"
)]
pub(crate) struct Renamed {
    /// The document holding the object.
    document_reference: String,
    /// Include hidden objects.
    #[param(rename = "showHidden")]
    include_hidden: bool,
    /// The field values to set.
    #[param(required)]
    field_values: BTreeMap<String, String>,
}

impl Execute for Renamed {
    async fn execute(self, _ctx: &ToolContext) -> ToolResult {
        Ok(ToolOutput::text(format!(
            "{} {} {:?}",
            self.document_reference, self.include_hidden, self.field_values
        )))
    }
}
