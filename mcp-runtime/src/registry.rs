//! The registry: every `#[mcp_tool]` linked into the binary, collected by `inventory`.
//!
//! A crate of contributed tools joins by being linked (a dependency plus `use other_tools as _;`
//! so the linker keeps it); the runtime needs no change. Conflicts are refused, never resolved:
//! two declarations of one id, or a contributed tool taking an id the runtime keeps for its own
//! tools ([`RESERVED_IDS`]), make [`Registry::load`] fail naming both sides, and the server
//! refuses to start. Last-wins or a silent skip would change which tool an agent runs depending
//! on link order.

use std::sync::OnceLock;

use crate::declaration::ToolDeclaration;
use crate::definition::ToolDefinition;
use crate::error::Error;
use crate::schema::check_schema;

/// Ids of the runtime's own tools (`man`, `list_wikis`): only a declaration from this crate may
/// use them.
pub const RESERVED_IDS: &[&str] = &["list_wikis", "man"];

/// This crate's module path root, as `module_path!()` reports it.
const RUNTIME_CRATE: &str = "mcp_runtime";

/// Every linked tool, sorted by id, each with its definitions built at most once.
#[derive(Debug)]
pub struct Registry {
    tools: Vec<RegisteredTool>,
}

/// One tool of the [`Registry`]: its declaration and its two advertised definitions (with and
/// without cross-wiki reach), each built and checked on first use, then shared.
#[derive(Debug)]
pub struct RegisteredTool {
    declaration: &'static ToolDeclaration,
    local: OnceLock<Result<ToolDefinition, Error>>,
    cross_wiki: OnceLock<Result<ToolDefinition, Error>>,
}

/// The registry of the running binary, loaded on first call. `Err` names the conflicting
/// declarations; a server must refuse to start on it.
pub fn registry() -> Result<&'static Registry, Error> {
    static REGISTRY: OnceLock<Result<Registry, Error>> = OnceLock::new();
    REGISTRY
        .get_or_init(Registry::load)
        .as_ref()
        .map_err(Clone::clone)
}

impl Registry {
    /// Collects every declaration linked into the binary.
    pub fn load() -> Result<Self, Error> {
        Self::from_declarations(inventory::iter::<ToolDeclaration>())
    }

    /// A registry of exactly `declarations` (sorted by id here; `inventory`'s order is
    /// unspecified), refusing duplicate ids and contributed tools with a reserved id.
    pub fn from_declarations(
        declarations: impl IntoIterator<Item = &'static ToolDeclaration>,
    ) -> Result<Self, Error> {
        let mut declarations: Vec<_> = declarations.into_iter().collect();
        declarations.sort_by_key(|declaration| (declaration.id, declaration.module_path));
        // Reserved ids first: a contributed `man` is also a duplicate of the runtime's own,
        // and "reserved" is the message that tells its author what to do.
        if let Some(contributed) = declarations
            .iter()
            .find(|d| RESERVED_IDS.contains(&d.id) && !is_runtime_module(d.module_path))
        {
            // Name the runtime's own declaration when it is linked (it always is in a server).
            let owner = declarations
                .iter()
                .find(|d| d.id == contributed.id && is_runtime_module(d.module_path))
                .map_or(RUNTIME_CRATE, |own| own.module_path);
            return Err(Error::ReservedTool {
                id: contributed.id,
                module: contributed.module_path,
                owner,
            });
        }
        for pair in declarations.windows(2) {
            if let [first, second] = pair
                && first.id == second.id
            {
                return Err(Error::DuplicateTool {
                    id: first.id,
                    first: first.module_path,
                    second: second.module_path,
                });
            }
        }
        Ok(Self {
            tools: declarations
                .into_iter()
                .map(|declaration| RegisteredTool {
                    declaration,
                    local: OnceLock::new(),
                    cross_wiki: OnceLock::new(),
                })
                .collect(),
        })
    }

    /// Every tool, sorted by id.
    pub fn tools(&self) -> &[RegisteredTool] {
        &self.tools
    }

    /// The tool named `id`, if linked.
    pub fn get(&self, id: &str) -> Option<&RegisteredTool> {
        self.tools
            .binary_search_by(|tool| tool.declaration.id.cmp(id))
            .ok()
            .and_then(|index| self.tools.get(index))
    }
}

fn is_runtime_module(module_path: &str) -> bool {
    module_path
        .strip_prefix(RUNTIME_CRATE)
        .is_some_and(|rest| rest.is_empty() || rest.starts_with("::"))
}

impl RegisteredTool {
    /// The tool's id (its advertised name).
    pub fn id(&self) -> &'static str {
        self.declaration.id
    }

    /// The static declaration `#[mcp_tool]` generated.
    pub fn declaration(&self) -> &'static ToolDeclaration {
        self.declaration
    }

    /// The definition advertised on an endpoint with or without cross-wiki reach: built once
    /// (first call), meta-validated as JSON Schema 2020-12 and checked flat. `Err` means this
    /// tool must not be served; the caller decides whether that skips the tool or fails.
    pub fn definition(&self, cross_wiki_reach: bool) -> Result<&ToolDefinition, Error> {
        let cell = if cross_wiki_reach {
            &self.cross_wiki
        } else {
            &self.local
        };
        cell.get_or_init(|| {
            let definition = ToolDefinition::build(self.declaration, cross_wiki_reach);
            check_schema(&definition.input_schema).map_err(|problem| Error::InvalidSchema {
                id: self.declaration.id,
                variant: if cross_wiki_reach {
                    "with cross-wiki reach"
                } else {
                    "without cross-wiki reach"
                },
                problem,
            })?;
            Ok(definition)
        })
        .as_ref()
        .map_err(Clone::clone)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::declaration::BoxFuture;
    use crate::param::JsonObject;
    use crate::tool::{ToolContext, ToolOutput, ToolResult};

    fn invoke<'a>(_: &'a ToolContext, _: &'a JsonObject) -> BoxFuture<'a, ToolResult> {
        Box::pin(async { Ok(ToolOutput::text("ok")) })
    }

    const fn declaration(id: &'static str, module_path: &'static str) -> ToolDeclaration {
        ToolDeclaration {
            id,
            title: None,
            summary: "A tool.",
            description: "A tool.",
            category: "General",
            write: false,
            man: None,
            module_path,
            params: &[],
            invoke,
        }
    }

    static ZETA: ToolDeclaration = declaration("zeta", "tools_a::zeta");
    static ALPHA: ToolDeclaration = declaration("alpha", "tools_b::alpha");
    static ALPHA_AGAIN: ToolDeclaration = declaration("alpha", "tools_a::alpha");
    static OWN_MAN: ToolDeclaration = declaration("man", "mcp_runtime::man");
    static CONTRIBUTED_MAN: ToolDeclaration = declaration("man", "mcp_runtime_extras::man");
    static CONTRIBUTED_LIST: ToolDeclaration = declaration("list_wikis", "tools_a::list_wikis");

    fn ids(registry: &Registry) -> Vec<&'static str> {
        registry.tools().iter().map(RegisteredTool::id).collect()
    }

    #[test]
    fn tools_are_sorted_by_id_and_found_by_id() {
        let registry = Registry::from_declarations([&ZETA, &OWN_MAN, &ALPHA]);
        let registry = registry.as_ref().map(ids);
        assert_eq!(registry, Ok(vec!["alpha", "man", "zeta"]));
        let registry = Registry::from_declarations([&ZETA, &ALPHA]).ok();
        let found = registry
            .as_ref()
            .and_then(|r| r.get("zeta"))
            .map(|t| t.declaration().module_path);
        assert_eq!(found, Some("tools_a::zeta"));
        assert!(registry.as_ref().is_some_and(|r| r.get("nope").is_none()));
    }

    #[test]
    fn duplicates_are_refused_naming_both_modules() {
        assert_eq!(
            Registry::from_declarations([&ALPHA, &ZETA, &ALPHA_AGAIN]).map(|r| ids(&r)),
            Err(Error::DuplicateTool {
                id: "alpha",
                first: "tools_a::alpha",
                second: "tools_b::alpha",
            })
        );
    }

    #[test]
    fn reserved_ids_belong_to_the_runtime() {
        assert!(Registry::from_declarations([&OWN_MAN]).is_ok());
        assert_eq!(
            Registry::from_declarations([&OWN_MAN, &CONTRIBUTED_MAN]).map(|r| ids(&r)),
            Err(Error::ReservedTool {
                id: "man",
                module: "mcp_runtime_extras::man",
                owner: "mcp_runtime::man",
            })
        );
        for contributed in [&CONTRIBUTED_MAN, &CONTRIBUTED_LIST] {
            assert_eq!(
                Registry::from_declarations([contributed]).map(|r| ids(&r)),
                Err(Error::ReservedTool {
                    id: contributed.id,
                    module: contributed.module_path,
                    owner: "mcp_runtime",
                })
            );
        }
    }

    #[test]
    fn a_definition_is_built_once_per_reach() {
        let registry = Registry::from_declarations([&ALPHA]);
        let tool = registry.as_ref().ok().and_then(|r| r.get("alpha"));
        let first = tool
            .and_then(|t| t.definition(false).ok())
            .map(|d| d as *const _);
        let again = tool
            .and_then(|t| t.definition(false).ok())
            .map(|d| d as *const _);
        let other = tool
            .and_then(|t| t.definition(true).ok())
            .map(|d| d as *const _);
        assert!(first.is_some() && first == again && first != other);
    }
}
