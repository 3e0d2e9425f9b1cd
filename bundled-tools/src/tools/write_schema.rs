//! `write_schema`: adds, modifies or removes one field of a class, through the
//! write door (view and edit on the class document, base_version, `[AI] ` comments, no-op
//! detection: the store writes nothing for a modification that leaves the field as it is).
//!
//! Order of checks: the arguments (field name grammar, which arguments the operation takes, the
//! type and its attributes) before any store access, then the write door (reach, view and edit,
//! space filter, the configuration) and the sensitive classes, then base_version against the
//! class document as read, then the store, which checks the change against the current class
//! and saves under the compare-and-set.

use std::collections::BTreeMap;

use wiki_tool_sdk::access::write::reserved::refuse_sensitive_class;
use wiki_tool_sdk::prelude::*;
use wiki_tool_sdk::store::model::class::{FIELD_TYPE_NAMES, validate_field_name};
use wiki_tool_sdk::store::model::document::SaveOutcome;
use wiki_tool_sdk::store::model::object::FieldChange;
use wiki_tool_sdk::store::objects::validation::field_spec;
use wiki_tool_sdk::store::rights::Right;
use wiki_tool_sdk::store::{Entity, InvalidInput, StoreError};
use wiki_tool_sdk::untrusted::fragment;

use crate::seams::history::version_argument;
use crate::seams::urls::review_line;
use crate::seams::write_params::WriteParams;
use crate::seams::written::Written;

/// The tail of every refusal.
const NOTHING_SAVED: &str = "Nothing was saved.";

/// Change a class's schema: add, modify or remove one field. Read `man write_schema` first: it
/// affects every object of the class.
#[mcp_tool(
    id = "write_schema",
    write,
    output = Written,
    category = categories::STRUCTURED_DATA,
    title = "Change a class's fields",
    man = "WARNING
    A class's schema is shared by every object of the class in the wiki, and by the pages and
    tools that read them. Check what uses the class (query_objects class=...) before changing
    it, and change one field at a time.

NOTES
    reference is the class document: its full name is the class name.

    operation=add_field adds `field` at the end with its `type`: String, TextArea, Number,
    Boolean, Date, StaticList, Password, Email or Page. The first add_field on a document creates
    the class (the document too if needed). Adding the name of a removed field brings it back,
    with its stored values, under the new type.

    operation=modify_field changes a field's pretty_name (\"\" clears it) and/or attributes; its
    type never changes. A modification that leaves the field as it is (the same attributes, in
    any spelling, and label) saves nothing (\"No changes\").

    operation=remove_field hides the field and its values on every object. Nothing is erased:
    adding a field with the same name again shows the values again.

    attributes are strings; an unknown one is refused with the accepted list. Type-specific:
      Number      number_type: integer (default) or float
      Date        date_only: true or false
      StaticList  values: the allowed values separated by '|' (required to add),
                  multiselect: true or false
    Rules, for every type (Password: validation only):
      default             the value a new object gets when write_object does not name the
                          field; it must be a value the field accepts
      validation_regexp   a regular expression every written value must match (searched
                          anywhere: anchor it with ^...$ to match the whole value; ^.+$ makes
                          the field non-empty); Rust regex syntax, no look-around
      validation_message  what a writer whose value does not match is told
    With modify_field, \"\" clears a rule (clearing validation_regexp clears its message).

    base_version: the class document's version (get_document). Required when the document
    exists, and always for remove_field; omit it when add_field creates the class document. A
    stale base_version is a version conflict and saves nothing, even for a change that would
    change nothing.

    The change is recorded as you with the comment prefixed `[AI] `; minor unless major=true.
    Rights, groups, users and the MCP configuration classes are refused.

FORMAT
    Added field priority (Number) to class Tasks.TaskClass.
    Version: 1.3 -> 1.4
    Compare: <url>

EXAMPLES
    write_schema reference=\"Tasks.TaskClass\" operation=\"add_field\" field=\"due\" type=\"Date\" attributes={\"date_only\": \"true\"} base_version=\"1.3\"
    write_schema reference=\"Tasks.TaskClass\" operation=\"modify_field\" field=\"state\" attributes={\"values\": \"open|done|wontfix\", \"default\": \"open\"} base_version=\"1.4\"
    write_schema reference=\"Tasks.TaskClass\" operation=\"add_field\" field=\"code\" type=\"String\" attributes={\"validation_regexp\": \"^[A-Z]{3}-[0-9]+$\", \"validation_message\": \"Use a ticket id such as ABC-12\"} base_version=\"1.5\"
    write_schema reference=\"Tasks.TaskClass\" operation=\"remove_field\" field=\"legacy\" base_version=\"1.5\"

SEE ALSO
    get_schema, write_object, query_objects"
)]
struct WriteSchema {
    /// The class document.
    reference: String,
    /// What to do with the field.
    operation: Operation,
    /// ASCII letters, digits and '_', not starting with a digit.
    field: String,
    /// add_field only: String, TextArea, Number, Boolean, Date, StaticList, Password, Email or
    /// Page.
    #[param(rename = "type")]
    field_type: Option<String>,
    /// The field's label ("" clears it).
    pretty_name: Keep<String>,
    /// Strings, e.g. {"values": "open|done"} for a StaticList.
    attributes: BTreeMap<String, String>,
    /// Required when the class document exists, and for remove_field.
    base_version: Keep<String>,
    #[param(flatten)]
    write: WriteParams,
}

/// The schema operations.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ParamEnum)]
enum Operation {
    // Add a field (the first one creates the class).
    #[param(rename = "add_field")]
    Add,
    // Change a field's label or attributes.
    #[param(rename = "modify_field")]
    Modify,
    // Hide a field and its values, reversibly.
    #[param(rename = "remove_field")]
    Remove,
}

impl Execute<Structured<Written>> for WriteSchema {
    async fn execute(self, ctx: &ToolContext) -> ToolResult<Structured<Written>> {
        let base = version_argument("base_version", &self.base_version)?;
        validate_field_name(&self.field).map_err(|error| schema_refusal(&error))?;
        let change = self.change()?;
        let door = ctx.doors()?.write()?;
        let target = door
            .target(
                &self.reference,
                self.write.wiki.as_deref(),
                None,
                Right::Edit,
            )
            .await?;
        let class = target.reference().local();
        refuse_sensitive_class(&class)?;
        let rule = match self.operation {
            Operation::Remove => BaseRule::Required,
            Operation::Add | Operation::Modify => BaseRule::RequiredIfExists,
        };
        let retry = "redo the schema change with the class document's version as base_version";
        let base = target.base(base, rule, retry)?;
        let summary = match &change {
            FieldChange::Add { field_type, .. } => {
                format!("Added field {} ({})", self.field, field_type.name())
            }
            FieldChange::Modify { .. } => format!("Modified field {}", self.field),
            FieldChange::Remove { .. } => format!("Removed field {}", self.field),
        };
        let type_name = match &change {
            FieldChange::Add { field_type, .. } => Some(field_type.name()),
            _ => None,
        };
        let comment = Comment::new(self.write.comment.as_deref(), &summary);
        let outcome = door
            .change_class(&target, change, self.write.major, comment, base)
            .await
            .map_err(|failure| match failure.store_error() {
                Some(
                    error @ (StoreError::Invalid(_)
                    | StoreError::AlreadyExists {
                        entity: Entity::Field,
                        ..
                    }
                    | StoreError::NotFound {
                        entity: Entity::Class,
                        ..
                    }),
                ) => schema_refusal(error),
                _ => failure.into(),
            })?;
        let field = fragment(&self.field).into_owned();
        let class_shown = fragment(&class).into_owned();
        if let SaveOutcome::Unchanged { version } = outcome {
            let what = format!(
                "field {field} of class {class_shown} already has these attributes and label"
            );
            let value = Written::unchanged(&target, version);
            return Ok(no_changes(&target, &what, version).structured(value));
        }
        let headline = match (self.operation, &outcome, type_name) {
            (Operation::Add, SaveOutcome::Created { .. }, Some(type_name)) => {
                format!("Created class {class_shown} with field {field} ({type_name}).")
            }
            (Operation::Add, _, type_name) => format!(
                "Added field {field} ({}) to class {class_shown}.",
                type_name.unwrap_or("?")
            ),
            (Operation::Modify, _, _) => {
                format!("Modified field {field} of class {class_shown}.")
            }
            (Operation::Remove, _, _) => format!(
                "Removed field {field} from class {class_shown}. Its values stay stored on \
                 every object, hidden: add a field named {field} again to show them again."
            ),
        };
        let mut lines = vec![headline, version_line(&outcome)];
        lines.extend(review_line(ctx, &target, &outcome));
        let value = Written::saved(&target, &outcome);
        Ok(ToolOutput::text(lines.join("\n")).structured(value))
    }
}

impl WriteSchema {
    /// The store's change from the arguments, refusing those the operation does not take.
    fn change(&self) -> Result<FieldChange, ToolError> {
        let refuse = |message: &str| {
            Err(ToolError::new(format!("Error: {message} {NOTHING_SAVED}"))
                .with_kind(ErrorKind::BadArgument))
        };
        let name = self.field.clone();
        match self.operation {
            Operation::Add => {
                let Some(requested) = self.field_type.as_deref() else {
                    return refuse(
                        "add_field needs 'type': String, TextArea, Number, Boolean, Date, \
                         StaticList, Password, Email or Page.",
                    );
                };
                let type_name = FIELD_TYPE_NAMES
                    .iter()
                    .find(|known| known.eq_ignore_ascii_case(requested.trim()))
                    .copied()
                    .unwrap_or(requested);
                let (field_type, rules) = field_spec(&name, type_name, &self.attributes)
                    .map_err(|error| schema_refusal(&error))?;
                Ok(FieldChange::Add {
                    name,
                    field_type,
                    rules,
                    pretty_name: self.pretty_name.as_deref().map(str::to_owned),
                })
            }
            Operation::Modify => {
                if self.field_type.is_some() {
                    return refuse(
                        "modify_field never changes a field's type; omit 'type' (to change \
                         it, remove the field and add it again).",
                    );
                }
                if self.attributes.is_empty() && !self.pretty_name.is_present() {
                    return refuse("modify_field needs 'pretty_name' or 'attributes' to change.");
                }
                Ok(FieldChange::Modify {
                    name,
                    pretty_name: self.pretty_name.as_deref().map(str::to_owned),
                    attributes: self.attributes.clone(),
                })
            }
            Operation::Remove => {
                if self.field_type.is_some()
                    || !self.attributes.is_empty()
                    || self.pretty_name.is_present()
                {
                    return refuse(
                        "remove_field takes only 'field' (and base_version, comment, major); \
                         omit 'type', 'pretty_name' and 'attributes'.",
                    );
                }
                Ok(FieldChange::Remove { name })
            }
        }
    }
}

/// A refused schema change as the agent reads it (the store's validation messages name what is
/// wrong and, for attributes, what is accepted).
fn schema_refusal(error: &StoreError) -> ToolError {
    let reason = match error {
        StoreError::Invalid(InvalidInput::Name {
            what: "field label",
            reason,
        }) => format!("invalid 'pretty_name': {reason}."),
        StoreError::Invalid(InvalidInput::Name { reason, .. }) => {
            format!("invalid 'field': {reason}.")
        }
        StoreError::NotFound {
            entity: Entity::Class,
            key,
        } => format!(
            "the document \"{}\" defines no class yet (it has no fields), so it has no field \
             to modify or remove. add_field creates the class; get_schema lists the classes in \
             use.",
            fragment(key)
        ),
        StoreError::Invalid(InvalidInput::Keyword { what, expected }) => {
            format!("the {what} must be one of: {expected}.")
        }
        StoreError::Invalid(InvalidInput::FieldAttribute {
            field_type,
            attribute,
            accepted,
        }) => {
            let accepted = if accepted.is_empty() {
                "none".to_owned()
            } else {
                accepted.join(", ")
            };
            format!(
                "{field_type} fields do not take the attribute \"{}\". Accepted attributes: \
                 {accepted}.",
                fragment(attribute)
            )
        }
        StoreError::Invalid(InvalidInput::AttributeValue {
            attribute,
            expected,
        }) => format!("the attribute {attribute} expects {expected}."),
        StoreError::Invalid(InvalidInput::FieldValue { expected, .. }) => format!(
            "the attribute default expects {}: a value the field itself accepts.",
            fragment(expected)
        ),
        StoreError::Invalid(InvalidInput::FieldRule { regexp, .. }) => format!(
            "the default does not match the field's validation_regexp /{}/; change one so \
             that the default matches.",
            fragment(regexp)
        ),
        StoreError::Invalid(InvalidInput::UnknownField {
            class,
            field,
            known,
        }) => format!(
            "the class {} has no field \"{}\". Its fields: {}.",
            fragment(class),
            fragment(field),
            fragment(&known.join(", "))
        ),
        StoreError::AlreadyExists { key, .. } => format!(
            "the class already has a field \"{}\"; use modify_field to change it.",
            fragment(key)
        ),
        StoreError::Invalid(InvalidInput::ReservedClass { .. }) => {
            "this class controls this server's configuration; write tools never change it."
                .to_owned()
        }
        _ => "the schema change is not valid.".to_owned(),
    };
    let kind = match error {
        StoreError::NotFound { .. } => ErrorKind::NotFound,
        StoreError::Invalid(InvalidInput::ReservedClass { .. }) => ErrorKind::Forbidden,
        _ => ErrorKind::BadArgument,
    };
    ToolError::new(format!("Error: {reason} {NOTHING_SAVED}")).with_kind(kind)
}
