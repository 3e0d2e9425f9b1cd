//! The registry: every `#[mcp_tool]` linked into the binary, collected by `inventory`.
//!
//! A crate of contributed tools joins by being linked (a dependency plus `use other_tools as _;`
//! so the linker keeps it); the framework needs no change. Conflicts are refused, never
//! resolved: two declarations of one id, or a contributed tool taking an id a server keeps for
//! its own tools ([`Reserved`]), make [`Registry::load`] fail naming both sides, and the server
//! refuses to start. Last-wins or a silent skip would change which tool an agent runs depending
//! on link order.

use std::sync::{Arc, OnceLock};

use serde_json::Value;

use crate::declaration::ToolDeclaration;
use crate::definition::ToolDefinition;
use crate::error::Error;
use crate::param::JsonObject;
use crate::schema::{SchemaProblem, SchemaVariant, check_output_schema, check_schema};

/// Tool ids a server keeps for the tools it declares itself (the wiki server's `man` and
/// `list_wikis`): only a declaration in the `owner` crate may use them.
///
/// The server states its reservations when it loads the registry, so the framework names no
/// server, and a contributed tool cannot take the place of a server's own under its id.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Reserved {
    /// The owning crate's name as `module_path!()` starts (`env!("CARGO_CRATE_NAME")`).
    pub owner: &'static str,
    /// The ids it keeps.
    pub ids: &'static [&'static str],
}

impl Reserved {
    /// The reservation that owns `id`, if any.
    fn of<'a>(reserved: &'a [Reserved], id: &str) -> Option<&'a Reserved> {
        reserved
            .iter()
            .find(|reservation| reservation.ids.contains(&id))
    }

    /// Whether `module_path` lies in the owning crate.
    fn owns(&self, module_path: &str) -> bool {
        module_path
            .strip_prefix(self.owner)
            .is_some_and(|rest| rest.is_empty() || rest.starts_with("::"))
    }
}

/// Every linked tool, sorted by id, each with its definitions built at most once.
#[derive(Debug)]
pub struct Registry {
    tools: Vec<RegisteredTool>,
}

/// One tool of the [`Registry`]: its declaration and its two advertised definitions (one per
/// [`SchemaVariant`]), each built and checked on first use, then shared.
#[derive(Debug)]
pub struct RegisteredTool {
    declaration: &'static ToolDeclaration,
    standard: OnceLock<Result<ToolDefinition, Error>>,
    extended: OnceLock<Result<ToolDefinition, Error>>,
    output: OnceLock<Result<Option<OutputContract>, Error>>,
}

/// The output schema of a tool declared with `output = T`, checked, and its compiled validator:
/// every structured result is validated against it before it is sent.
#[derive(Debug)]
struct OutputContract {
    schema: Arc<JsonObject>,
    validator: jsonschema::Validator,
}

/// The registry of the running binary with no reserved ids, loaded on first call. `Err` names
/// the conflicting declarations; a server must refuse to start on it. A server that keeps ids
/// for its own tools loads its own registry with [`Registry::load_reserving`] instead.
pub fn registry() -> Result<&'static Registry, Error> {
    static REGISTRY: OnceLock<Result<Registry, Error>> = OnceLock::new();
    REGISTRY
        .get_or_init(Registry::load)
        .as_ref()
        .map_err(Clone::clone)
}

impl Registry {
    /// Collects every declaration linked into the binary, with no reserved ids.
    pub fn load() -> Result<Self, Error> {
        Self::load_reserving(&[])
    }

    /// Collects every declaration linked into the binary, refusing a declaration of a
    /// `reserved` id outside its owner.
    pub fn load_reserving(reserved: &[Reserved]) -> Result<Self, Error> {
        Self::from_declarations(inventory::iter::<ToolDeclaration>(), reserved)
    }

    /// A registry of exactly `declarations` (sorted by id here; `inventory`'s order is
    /// unspecified), refusing duplicate ids and declarations of a `reserved` id outside its
    /// owner.
    pub fn from_declarations(
        declarations: impl IntoIterator<Item = &'static ToolDeclaration>,
        reserved: &[Reserved],
    ) -> Result<Self, Error> {
        let mut declarations: Vec<_> = declarations.into_iter().collect();
        declarations.sort_by_key(|declaration| (declaration.id, declaration.module_path));
        // Reserved ids first: a contributed `man` is also a duplicate of the server's own,
        // and "reserved" is the message that tells its author what to do.
        for contributed in &declarations {
            let Some(reservation) = Reserved::of(reserved, contributed.id) else {
                continue;
            };
            if reservation.owns(contributed.module_path) {
                continue;
            }
            // Name the owner's own declaration when it is linked (it always is in its server).
            let owner = declarations
                .iter()
                .find(|d| d.id == contributed.id && reservation.owns(d.module_path))
                .map_or(reservation.owner, |own| own.module_path);
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
                    standard: OnceLock::new(),
                    extended: OnceLock::new(),
                    output: OnceLock::new(),
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

impl RegisteredTool {
    /// The tool's id (its advertised name).
    pub fn id(&self) -> &'static str {
        self.declaration.id
    }

    /// The static declaration `#[mcp_tool]` generated.
    pub fn declaration(&self) -> &'static ToolDeclaration {
        self.declaration
    }

    /// The definition advertised in `variant`: built once (first call), meta-validated as JSON
    /// Schema 2020-12 and checked flat. `Err` means this tool must not be served; the caller
    /// decides whether that skips the tool or fails.
    pub fn definition(&self, variant: SchemaVariant) -> Result<&ToolDefinition, Error> {
        let cell = match variant {
            SchemaVariant::Standard => &self.standard,
            SchemaVariant::Extended => &self.extended,
        };
        cell.get_or_init(|| {
            let output = self.output()?.map(|contract| Arc::clone(&contract.schema));
            let definition = ToolDefinition::build(self.declaration, variant, output);
            check_schema(&definition.input_schema).map_err(|problem| Error::InvalidSchema {
                id: self.declaration.id,
                variant,
                problem,
            })?;
            Ok(definition)
        })
        .as_ref()
        .map_err(Clone::clone)
    }

    /// Checks `structured` (a result's structured content) against the output schema: `Err`
    /// says where it departs from it (for the log: it may quote the value). A tool without
    /// `output` has no structured content to check.
    pub fn check_output(&self, structured: &Value) -> Result<(), String> {
        match self.output() {
            Ok(Some(contract)) => match contract.validator.iter_errors(structured).next() {
                None => Ok(()),
                Some(error) => Err(format!("at `{}`: {error}", error.instance_path())),
            },
            Ok(None) => Err("the tool declares no output type".to_owned()),
            Err(error) => Err(error.to_string()),
        }
    }

    /// The output contract, derived from the declared type and checked on first use.
    fn output(&self) -> Result<Option<&OutputContract>, Error> {
        self.output
            .get_or_init(|| {
                let Some(output) = self.declaration.output else {
                    return Ok(None);
                };
                let refuse = |problem| Error::InvalidOutputSchema {
                    id: self.declaration.id,
                    type_name: output.type_name,
                    problem,
                };
                let schema = (output.schema)();
                check_output_schema(&schema).map_err(refuse)?;
                let validator = jsonschema::draft202012::new(&Value::Object(schema.clone()))
                    .map_err(|error| refuse(SchemaProblem::Invalid(error.to_string())))?;
                Ok(Some(OutputContract {
                    schema: Arc::new(schema),
                    validator,
                }))
            })
            .as_ref()
            .map(Option::as_ref)
            .map_err(Clone::clone)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::declaration::testing;

    const fn declaration(id: &'static str, module_path: &'static str) -> ToolDeclaration {
        testing::declaration(id, false, module_path)
    }

    static ZETA: ToolDeclaration = declaration("zeta", "tools_a::zeta");
    static ALPHA: ToolDeclaration = declaration("alpha", "tools_b::alpha");
    static ALPHA_AGAIN: ToolDeclaration = declaration("alpha", "tools_a::alpha");
    static OWN_MAN: ToolDeclaration = declaration("man", "a_server::man");
    static CONTRIBUTED_MAN: ToolDeclaration = declaration("man", "a_server_extras::man");
    static CONTRIBUTED_LIST: ToolDeclaration = declaration("list_wikis", "tools_a::list_wikis");

    /// What a server owning `man` and `list_wikis` reserves.
    const SERVER: &[Reserved] = &[Reserved {
        owner: "a_server",
        ids: &["list_wikis", "man"],
    }];

    fn ids(registry: &Registry) -> Vec<&'static str> {
        registry.tools().iter().map(RegisteredTool::id).collect()
    }

    #[test]
    fn tools_are_sorted_by_id_and_found_by_id() {
        let registry = Registry::from_declarations([&ZETA, &OWN_MAN, &ALPHA], SERVER);
        let registry = registry.as_ref().map(ids);
        assert_eq!(registry, Ok(vec!["alpha", "man", "zeta"]));
        let registry = Registry::from_declarations([&ZETA, &ALPHA], &[]).ok();
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
            Registry::from_declarations([&ALPHA, &ZETA, &ALPHA_AGAIN], &[]).map(|r| ids(&r)),
            Err(Error::DuplicateTool {
                id: "alpha",
                first: "tools_a::alpha",
                second: "tools_b::alpha",
            })
        );
    }

    #[test]
    fn reserved_ids_belong_to_the_server_that_reserves_them() {
        assert!(Registry::from_declarations([&OWN_MAN], SERVER).is_ok());
        // A crate whose name merely starts with the owner's is not the owner.
        assert_eq!(
            Registry::from_declarations([&OWN_MAN, &CONTRIBUTED_MAN], SERVER).map(|r| ids(&r)),
            Err(Error::ReservedTool {
                id: "man",
                module: "a_server_extras::man",
                owner: "a_server::man",
            })
        );
        for contributed in [&CONTRIBUTED_MAN, &CONTRIBUTED_LIST] {
            assert_eq!(
                Registry::from_declarations([contributed], SERVER).map(|r| ids(&r)),
                Err(Error::ReservedTool {
                    id: contributed.id,
                    module: contributed.module_path,
                    owner: "a_server",
                })
            );
        }
    }

    #[test]
    fn without_a_reservation_an_id_is_anyones_but_still_unique() {
        let registry = Registry::from_declarations([&CONTRIBUTED_MAN], &[]).map(|r| ids(&r));
        assert_eq!(registry, Ok(vec!["man"]));
        assert_eq!(
            Registry::from_declarations([&OWN_MAN, &CONTRIBUTED_MAN], &[]).map(|r| ids(&r)),
            Err(Error::DuplicateTool {
                id: "man",
                first: "a_server::man",
                second: "a_server_extras::man",
            })
        );
    }

    /// A recursive type: its schema keeps a `$ref`, which the flat check refuses.
    #[derive(serde::Serialize, schemars::JsonSchema)]
    struct Tree {
        children: Vec<Tree>,
    }

    static RECURSIVE: ToolDeclaration = ToolDeclaration {
        output: Some(crate::structured::OutputDecl::of::<Tree>("Tree")),
        ..declaration("tree", "tools_a::tree")
    };
    static NOT_AN_OBJECT: ToolDeclaration = ToolDeclaration {
        output: Some(crate::structured::OutputDecl::of::<Vec<String>>(
            "Vec<String>",
        )),
        ..declaration("names", "tools_a::names")
    };

    #[test]
    fn an_unusable_output_type_is_refused_at_registration_naming_it() {
        let registry = Registry::from_declarations([&RECURSIVE, &NOT_AN_OBJECT], &[]);
        let refusal = |id| {
            let tool = registry.as_ref().ok().and_then(|r| r.get(id));
            tool.map(|t| {
                t.definition(SchemaVariant::Standard)
                    .map(|_| ())
                    .map_err(|e| e.to_string())
            })
        };
        let recursive = refusal("tree").and_then(Result::err).unwrap_or_default();
        assert!(
            recursive.starts_with("tool `tree` declares `output = Tree`")
                && recursive.contains("not flat: a reference"),
            "{recursive}"
        );
        let names = refusal("names").and_then(Result::err).unwrap_or_default();
        assert!(
            names.contains("`output = Vec<String>`") && names.contains("root is not"),
            "{names}"
        );
    }

    #[test]
    fn a_definition_is_built_once_per_variant() {
        let registry = Registry::from_declarations([&ALPHA], &[]);
        let tool = registry.as_ref().ok().and_then(|r| r.get("alpha"));
        let first = tool
            .and_then(|t| t.definition(SchemaVariant::Standard).ok())
            .map(|d| d as *const _);
        let again = tool
            .and_then(|t| t.definition(SchemaVariant::Standard).ok())
            .map(|d| d as *const _);
        let other = tool
            .and_then(|t| t.definition(SchemaVariant::Extended).ok())
            .map(|d| d as *const _);
        assert!(first.is_some() && first == again && first != other);
    }
}
