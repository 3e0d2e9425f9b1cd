//! The framework's error type (developer- and operator-facing; agents never see it).

use crate::schema::{SchemaProblem, SchemaVariant};

/// Why the framework refuses a set of tools or a tool's definition.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// Two linked crates declare the same tool id; serving either silently would hide the other.
    #[error(
        "duplicate tool id `{id}`: declared in `{first}` and in `{second}`; rename one of them \
         (an id is the name clients call a tool by, so it must be unique in the binary)"
    )]
    DuplicateTool {
        /// The shared id.
        id: &'static str,
        /// Module path of one declaration.
        first: &'static str,
        /// Module path of the other.
        second: &'static str,
    },
    /// A contributed tool claims an id a server keeps for its own tool ([`crate::Reserved`]).
    #[error(
        "tool id `{id}` is reserved for the server's own tool (`{owner}`), but `{module}` \
         declares it: choose another id"
    )]
    ReservedTool {
        /// The reserved id.
        id: &'static str,
        /// Module path of the contributed declaration.
        module: &'static str,
        /// The module of the server's own tool of that id (the owning crate when not linked).
        owner: &'static str,
    },
    /// A tool's generated input schema is not advertisable.
    #[error("tool `{id}` has an unusable input schema ({variant} variant): {problem}")]
    InvalidSchema {
        /// The tool id.
        id: &'static str,
        /// The schema variant that was being built.
        variant: SchemaVariant,
        /// What is wrong.
        problem: SchemaProblem,
    },
    /// A tool's output type gives an output schema that is not advertisable.
    #[error(
        "tool `{id}` declares `output = {type_name}`, whose output schema is unusable: {problem} \
         (an output type must serialize to an object and be flat: no recursive types)"
    )]
    InvalidOutputSchema {
        /// The tool id.
        id: &'static str,
        /// The declared output type.
        type_name: &'static str,
        /// What is wrong.
        problem: SchemaProblem,
    },
}
