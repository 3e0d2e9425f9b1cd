//! `list_collections`: the collection ids the caller may pass to
//! search_collections.

use wiki_tool_sdk::prelude::*;

use super::scope::offered;

/// List the collections you can search with search_collections, one id per line.
#[mcp_tool(
    id = "list_collections",
    category = categories::SEMANTIC_SEARCH,
    title = "List collections",
    output = CollectionList,
    man = "NOTES
    Every wiki you can search has a default collection named by its id (the whole wiki);
    administrators define narrower ones over some of its spaces. The first id is this wiki's default
    collection. Defined collections of this wiki are listed by their ids; with cross-wiki reach,
    other wikis you may view add their default collection (their wiki id) and their defined ones as
    wiki:id. Results of a search are still only pages you may view, whatever the collection.

EXAMPLES
    list_collections
    search_collections query=\"how do I install it\" collections=[\"guides\"]

SEE ALSO
    search_collections, query_documents"
)]
struct ListCollections {}

/// What `list_collections` returns, structured.
#[mcp_output]
struct CollectionList {
    /// This wiki's default collection first, as the text lists them.
    collections: Vec<ListedCollection>,
}

/// One collection of [`CollectionList`].
#[mcp_output]
struct ListedCollection {
    /// The id to pass to search_collections.
    id: String,
    /// The wiki it searches.
    wiki: String,
    /// The spaces it covers; absent for a wiki's default collection (the whole wiki).
    spaces: Option<Vec<String>>,
}

impl Execute<Structured<CollectionList>> for ListCollections {
    async fn execute(self, ctx: &ToolContext) -> ToolResult<Structured<CollectionList>> {
        let offered = offered(ctx).await?;
        let text = if offered.is_empty() {
            "No collections found.".to_owned()
        } else {
            let ids: Vec<&str> = offered.iter().map(|o| o.id.as_str()).collect();
            ids.join("\n")
        };
        let collections = offered
            .iter()
            .map(|o| ListedCollection {
                id: o.id.clone(),
                wiki: o.wiki.as_str().to_owned(),
                spaces: o
                    .spaces
                    .as_ref()
                    .map(|spaces| spaces.iter().map(ToString::to_string).collect()),
            })
            .collect();
        Ok(Structured::new(CollectionList { collections }, text))
    }
}
