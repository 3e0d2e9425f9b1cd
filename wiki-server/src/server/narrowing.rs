//! How far below its wiki's policy one caller's tools go.
//!
//! The wiki's configuration says which tools its endpoint serves (`policy.rs`); a caller can
//! only ever use fewer. Three things narrow a caller, each on its own, and a tool is usable only
//! when none of them refuses it:
//!
//! - the client, for one request or session (`X-MCP-Readonly` / `?readonly=true`,
//!   `X-MCP-Tools` / `?tools=a,b`: `http/narrowing.rs`), as GitHub's MCP server offers;
//! - an API token created with a scope (`wiki-mcp token create --read-only --tools a,b`, or
//!   the admin page's token form);
//! - an OIDC access token whose scope claim grants reading only.
//!
//! Narrowing never widens: a limit filters the set the policy already chose (the guest's
//! included), so naming a tool the wiki does not serve gives nothing. `man` stays in every
//! narrowed set: it lists exactly the tools the caller has, which is how an agent learns what a
//! narrowed session can do. A refusal names the limit that refused and how to get past it,
//! because the person reading it chose (or was given) that limit, and may not remember.

use std::collections::BTreeSet;
use std::fmt::Write as _;

use mcp_runtime::output::guard::fragment;
use mcp_runtime::toolset::ServedTool;
use mcp_runtime::{Registry, ToolSet};

use super::policy::MAN;

/// Who set a [`Limit`]: it decides what a refusal tells the caller to do.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum NarrowedBy {
    /// The client narrowed its own requests (headers or the endpoint URL).
    Client,
    /// The API token was created with a scope.
    ApiToken,
    /// The OIDC access token's scope claim.
    OidcScope,
}

/// One limit: read-only, a set of tools (ids or category names), or both.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Limit {
    /// Who set it.
    pub by: NarrowedBy,
    /// Only tools that do not change content.
    pub read_only: bool,
    /// Only these tools: ids, or category names (`Authoring`), matched without regard to
    /// case. `None`: any tool.
    pub tools: Option<BTreeSet<String>>,
}

impl Limit {
    /// Whether this limit lets `tool` through.
    fn allows(&self, tool: ServedTool) -> bool {
        if tool.id() == MAN {
            return true;
        }
        if self.read_only && tool.writes() {
            return false;
        }
        self.tools
            .as_ref()
            .is_none_or(|tools| names_tool(tools, tool))
    }

    /// Whether this limit restricts anything at all.
    fn restricts(&self) -> bool {
        self.read_only || self.tools.is_some()
    }

    /// Why `tool` is refused, and how to get past this limit.
    fn refusal(&self, tool: ServedTool) -> String {
        let name = fragment(tool.id());
        let mut text = if self.read_only && tool.writes() {
            format!(
                "Tool '{name}' changes content, and {}.",
                self.read_only_what()
            )
        } else {
            let listed = self
                .tools
                .as_ref()
                .map(|tools| tools.iter().map(String::as_str).collect::<Vec<_>>())
                .unwrap_or_default()
                .join(", ");
            let (what, how) = self.tools_what();
            format!("Tool '{name}' is not among {what}: {listed}{how}.")
        };
        let _ = write!(text, " {}", self.remedy());
        text
    }

    fn read_only_what(&self) -> &'static str {
        match self.by {
            NarrowedBy::Client => {
                "this client's requests are read-only (it asked for that with `X-MCP-Readonly: \
                 true` or `?readonly=true` on the endpoint URL)"
            }
            NarrowedBy::ApiToken => "the API token of this request is read-only",
            NarrowedBy::OidcScope => "the scope of this request's access token grants reading only",
        }
    }

    /// Whose list it is, and how it was set when the reader may not know.
    fn tools_what(&self) -> (&'static str, &'static str) {
        match self.by {
            NarrowedBy::Client => (
                "the tools this client narrowed its requests to",
                " (by `X-MCP-Tools` or `?tools=` on the endpoint URL)",
            ),
            NarrowedBy::ApiToken => ("the tools the API token of this request allows", ""),
            NarrowedBy::OidcScope => (
                "the tools the scope of this request's access token allows",
                "",
            ),
        }
    }

    fn remedy(&self) -> &'static str {
        match self.by {
            NarrowedBy::Client => {
                "Connect without that narrowing (or with the tool listed) to use it."
            }
            NarrowedBy::ApiToken => {
                "A wider token is created by an administrator: `wiki-mcp token create --user \
                 <name>` (add `--read-only` or `--tools` only to narrow it) or the admin page's \
                 Tokens form."
            }
            NarrowedBy::OidcScope => {
                "Ask your identity provider for an access token whose scope grants writing."
            }
        }
    }
}

/// Whether `tools` names `tool`: by id, or by its category, ignoring case.
fn names_tool(tools: &BTreeSet<String>, tool: ServedTool) -> bool {
    let category = tool.tool.declaration().category;
    tools.iter().any(|name| {
        name == tool.id() || (!category.is_empty() && name.eq_ignore_ascii_case(category))
    })
}

/// Every limit on one caller (at most one per [`NarrowedBy`]).
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct Narrowing {
    limits: Vec<Limit>,
}

impl Narrowing {
    /// No limit: the caller gets what the policy serves.
    pub fn none() -> Self {
        Self::default()
    }

    /// These limits and `limit` (a limit that restricts nothing is dropped).
    pub fn with(mut self, limit: Limit) -> Self {
        if limit.restricts() {
            self.limits.retain(|kept| kept.by != limit.by);
            self.limits.push(limit);
        }
        self
    }

    /// Whether nothing narrows the caller.
    pub fn is_none(&self) -> bool {
        self.limits.is_empty()
    }

    /// The limits, in the order they were added.
    pub fn limits(&self) -> &[Limit] {
        &self.limits
    }

    /// The limit that refuses `tool`, if one does.
    pub fn refusing(&self, tool: ServedTool) -> Option<&Limit> {
        self.limits.iter().find(|limit| !limit.allows(tool))
    }

    /// Why `tool` is refused (`None` when every limit allows it).
    pub fn refusal(&self, tool: ServedTool) -> Option<String> {
        self.refusing(tool).map(|limit| limit.refusal(tool))
    }

    /// The part of `tools` these limits allow.
    pub fn apply(&self, tools: &ToolSet) -> ToolSet {
        let kept: BTreeSet<&str> = tools
            .iter()
            .filter(|tool| self.refusing(*tool).is_none())
            .map(|tool| tool.id())
            .collect();
        tools.only(&kept)
    }
}

/// The names of a comma-separated `list`, each a tool id or a category name of `registry`:
/// how a session narrowing, a token's scope and the admin page read a list of tools. `Err`
/// completes a sentence about the list ("names `x`, which is neither a tool …"), listing what
/// is accepted, so a misspelling is caught where it is typed.
pub fn tool_names(list: &str, registry: &Registry) -> Result<BTreeSet<String>, String> {
    let names: BTreeSet<String> = list
        .split(',')
        .map(str::trim)
        .filter(|name| !name.is_empty())
        .map(str::to_owned)
        .collect();
    if names.is_empty() {
        return Err("names no tool; list tool names or categories, separated by commas".into());
    }
    let categories: BTreeSet<&str> = registry
        .tools()
        .iter()
        .map(|tool| tool.declaration().category)
        .filter(|category| !category.is_empty())
        .collect();
    let unknown: Vec<&str> = names
        .iter()
        .map(String::as_str)
        .filter(|name| {
            registry.get(name).is_none()
                && !categories
                    .iter()
                    .any(|category| category.eq_ignore_ascii_case(name))
        })
        .collect();
    if unknown.is_empty() {
        return Ok(names);
    }
    let tools: Vec<&str> = registry.tools().iter().map(|tool| tool.id()).collect();
    Err(format!(
        "names {}, which is neither a tool nor a category of this server. Tools: {}. \
         Categories: {}.",
        unknown
            .iter()
            .map(|name| format!("`{}`", name.chars().take(60).collect::<String>()))
            .collect::<Vec<_>>()
            .join(", "),
        tools.join(", "),
        categories.into_iter().collect::<Vec<_>>().join(", ")
    ))
}

#[cfg(test)]
mod tests {
    use std::sync::OnceLock;

    use mcp_runtime::declaration::ToolDeclaration;

    use super::*;

    const fn declaration(id: &'static str, write: bool, category: &'static str) -> ToolDeclaration {
        ToolDeclaration {
            category,
            ..crate::server::policy::tests::declaration(id, write, "tools")
        }
    }

    static MAN_TOOL: ToolDeclaration = declaration("man", false, "Help");
    static READ: ToolDeclaration = declaration("get_document", false, "Search and Navigation");
    static TREE: ToolDeclaration = declaration("get_tree", false, "Search and Navigation");
    static WRITE: ToolDeclaration = declaration("write_document", true, "Authoring");

    fn set() -> ToolSet {
        static REGISTRY: OnceLock<Registry> = OnceLock::new();
        let registry = REGISTRY.get_or_init(|| {
            Registry::from_declarations([&MAN_TOOL, &READ, &TREE, &WRITE], &[])
                .unwrap_or_else(|error| panic!("{error}"))
        });
        ToolSet::from_registry(registry, mcp_runtime::SchemaVariant::Standard)
            .unwrap_or_else(|error| panic!("{error}"))
    }

    fn limit(by: NarrowedBy, read_only: bool, tools: Option<&[&str]>) -> Limit {
        Limit {
            by,
            read_only,
            tools: tools.map(|tools| tools.iter().map(|t| (*t).to_owned()).collect()),
        }
    }

    fn names(narrowing: &Narrowing) -> String {
        narrowing.apply(&set()).names()
    }

    #[test]
    fn limits_only_ever_remove_tools_and_man_stays() {
        assert_eq!(
            names(&Narrowing::none()),
            "get_document, get_tree, man, write_document"
        );
        let read_only = Narrowing::none().with(limit(NarrowedBy::Client, true, None));
        assert_eq!(names(&read_only), "get_document, get_tree, man");
        let listed = Narrowing::none().with(limit(
            NarrowedBy::Client,
            false,
            Some(&["get_tree", "write_document", "not_served"]),
        ));
        assert_eq!(names(&listed), "get_tree, man, write_document");
        let by_category =
            Narrowing::none().with(limit(NarrowedBy::ApiToken, false, Some(&["authoring"])));
        assert_eq!(names(&by_category), "man, write_document");
        let both = listed.with(limit(NarrowedBy::ApiToken, true, None));
        assert_eq!(names(&both), "get_tree, man");
    }

    #[test]
    fn a_limit_that_restricts_nothing_is_no_limit() {
        let narrowing = Narrowing::none().with(limit(NarrowedBy::Client, false, None));
        assert!(narrowing.is_none());
    }

    #[test]
    fn a_refusal_names_the_limit_that_refused_and_the_way_past_it() {
        let tools = set();
        let write = tools
            .get("write_document")
            .unwrap_or_else(|| panic!("served"));
        let tree = tools.get("get_tree").unwrap_or_else(|| panic!("served"));
        let session = Narrowing::none().with(limit(NarrowedBy::Client, true, None));
        let text = session.refusal(write).unwrap_or_default();
        assert!(text.contains("X-MCP-Readonly"), "{text}");
        assert!(session.refusal(tree).is_none());
        let token =
            Narrowing::none().with(limit(NarrowedBy::ApiToken, false, Some(&["get_document"])));
        let text = token.refusal(tree).unwrap_or_default();
        assert!(
            text.contains("token of this request allows: get_document."),
            "{text}"
        );
        assert!(text.contains("wiki-mcp token create"), "{text}");
        let oidc = Narrowing::none().with(limit(NarrowedBy::OidcScope, true, None));
        let text = oidc.refusal(write).unwrap_or_default();
        assert!(text.contains("identity provider"), "{text}");
    }
}
