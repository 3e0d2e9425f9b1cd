use mcp_runtime::prelude::*;

#[derive(ParamObject)]
#[param(rename_all = "camelCase")]
pub struct Cell {
    /// The column.
    column_name: String,
    /// The same property, renamed by hand.
    #[param(rename = "columnName")]
    name: String,
}

fn main() {}
