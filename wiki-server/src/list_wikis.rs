//! `list_wikis`: the wikis an agent can name in `wiki` arguments and reference
//! prefixes. Served only on endpoints with cross-wiki reach.

use std::fmt::Write as _;

use wiki_store::model::wiki::Wiki;

use wiki_tool_sdk::untrusted::fragment;

use wiki_tool_sdk::prelude::*;

/// List the wikis you can reach from this endpoint, with their ids.
#[mcp_tool(
    id = "list_wikis",
    category = categories::SEARCH_AND_NAVIGATION,
    title = "List wikis",
    output = WikiList,
    man = "NOTES
    The current wiki comes first, then every other wiki in which you may view pages, sorted by
    id. Use an id as a tool's `wiki` argument or as a reference prefix (`id:Space.Page`);
    wiki=\"all\" makes query_documents search every wiki at once.

    Offered only where an administrator of the main wiki enabled cross-wiki reach for this
    endpoint. A wiki is listed when you may view it, whatever its own MCP settings.

EXAMPLES
    list_wikis
    query_documents query=\"roadmap\" wiki=\"all\"
    get_document reference=\"dev:Team.WebHome\"

SEE ALSO
    query_documents, get_tree, get_document"
)]
pub struct ListWikis {}

/// What `list_wikis` returns, structured.
#[mcp_output]
pub struct WikiList {
    /// Whether this endpoint may reach other wikis; without reach only this wiki is listed.
    pub reach: bool,
    /// This wiki first, then every other wiki you may view, sorted by id.
    pub wikis: Vec<ListedWiki>,
}

/// One wiki of [`WikiList`].
#[mcp_output]
pub struct ListedWiki {
    /// The id to pass as `wiki` or to prefix a reference with (`id:Space.Page`).
    pub id: String,
    /// Its display name.
    pub name: String,
    /// Whether it is this endpoint's wiki.
    pub current: bool,
}

impl ListedWiki {
    fn new(id: &str, name: &str, current: bool) -> Self {
        Self {
            id: id.to_owned(),
            name: name.to_owned(),
            current,
        }
    }
}

impl Execute<Structured<WikiList>> for ListWikis {
    async fn execute(self, ctx: &ToolContext) -> ToolResult<Structured<WikiList>> {
        let doors = ctx.doors()?;
        // A failed listing (logged by store_call) still shows where the agent is.
        let wikis = ctx
            .store_call("list the wikis", |store| store.list_wikis())
            .await
            .unwrap_or_default();
        let current = doors.wiki().as_str();
        let pretty = wikis
            .iter()
            .find(|wiki| wiki.id.as_str() == current)
            .map_or(current, |wiki| wiki.pretty_name.as_str());
        let mut out = String::new();
        if !doors.reach() {
            let _ = write!(
                out,
                "Cross-wiki reach is not enabled for this endpoint, so only this wiki can be \
                 used. An administrator of the main wiki can enable it in the main wiki's MCP \
                 configuration (`wiki-mcp farm reach`).\n\n  {current} — {} (this endpoint)\n",
                fragment(pretty)
            );
            let wikis = vec![ListedWiki::new(current, pretty, true)];
            return Ok(Structured::new(
                WikiList {
                    reach: false,
                    wikis,
                },
                out,
            ));
        }
        out.push_str(
            "Wiki ids: pass one as `wiki` to query_documents or get_tree, prefix a reference \
             with it (`id:Space.Page`), or use wiki=\"all\" to search every wiki.\n\n",
        );
        let _ = writeln!(out, "  {current} — {} (this endpoint)", fragment(pretty));
        let mut others: Vec<&Wiki> = wikis
            .iter()
            .filter(|wiki| wiki.id.as_str() != current && doors.can_view_wiki(&wiki.id))
            .collect();
        others.sort_by(|a, b| a.id.cmp(&b.id));
        let mut listed = vec![ListedWiki::new(current, pretty, true)];
        for wiki in others {
            let _ = writeln!(out, "  {} — {}", wiki.id, fragment(&wiki.pretty_name));
            listed.push(ListedWiki::new(wiki.id.as_str(), &wiki.pretty_name, false));
        }
        let list = WikiList {
            reach: true,
            wikis: listed,
        };
        Ok(Structured::new(list, out))
    }
}
