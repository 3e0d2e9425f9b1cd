//! `list_collections`: the collection ids the caller may pass to
//! search_collections.

use wiki_tool_sdk::prelude::*;

use super::scope::offered;

/// List the collections you can search with search_collections, one id per line.
///
/// Every wiki you can search has a default collection named by its id (the whole wiki);
/// administrators define narrower ones over some of its spaces.
#[mcp_tool(
    id = "list_collections",
    category = categories::SEMANTIC_SEARCH,
    man = "NOTES
    The first id is this wiki's default collection. Defined collections of this wiki are listed
    by their ids; with cross-wiki reach, other wikis you may view add their default collection
    (their wiki id) and their defined ones as wiki:id. Results of a search are still only pages
    you may view, whatever the collection.

EXAMPLES
    list_collections
    search_collections query=\"how do I install it\" collections=[\"guides\"]

SEE ALSO
    search_collections, query_documents"
)]
struct ListCollections {}

impl Execute for ListCollections {
    async fn execute(self, ctx: &ToolContext) -> ToolResult {
        let offered = offered(ctx).await?;
        if offered.is_empty() {
            return Ok(ToolOutput::text("No collections found."));
        }
        let ids: Vec<&str> = offered.iter().map(|o| o.id.as_str()).collect();
        Ok(ToolOutput::text(ids.join("\n")))
    }
}
