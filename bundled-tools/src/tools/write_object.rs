//! `write_object`: creates or updates one object of a class on a document, through
//! the write door (view and edit, base_version, `[AI] ` comments, no-op detection: the store writes
//! nothing when the object already holds the values, compared after coercion).
//!
//! Order of checks: the class name (a contradicting wiki prefix, the sensitive classes) and the
//! write door (reach, view and edit, space filter, the configuration), then the class definition
//! (unknown or Password fields, listing the settable ones), the object number (listing the
//! existing ones), base_version against the document as read, then the store, which coerces
//! every value to its field's type and saves under the compare-and-set, all or nothing.

use std::collections::BTreeMap;

use wiki_tool_sdk::access::store_failure;
use wiki_tool_sdk::access::write::reserved::refuse_sensitive_class;
use wiki_tool_sdk::prelude::*;
use wiki_tool_sdk::store::model::class::{ClassDefinition, FieldType};
use wiki_tool_sdk::store::model::document::SaveOutcome;
use wiki_tool_sdk::store::model::object::ObjectRecord;
use wiki_tool_sdk::store::reference::DocumentReference;
use wiki_tool_sdk::store::rights::Right;
use wiki_tool_sdk::store::{InvalidInput, StoreError};
use wiki_tool_sdk::untrusted::fragment;
use wiki_tool_sdk::untrusted::unescape;

use crate::seams::history::version_argument;
use crate::seams::urls::review_line;
use crate::seams::write_params::WriteParams;
use crate::seams::written::Written;

/// Create an object of a class on a document, or update one of its objects.
#[mcp_tool(
    id = "write_object",
    write,
    output = Written,
    category = categories::STRUCTURED_DATA,
    title = "Create or update an object",
    man = "NOTES
    class is the full name of the class document in the document's wiki (Tasks.TaskClass); a
    wiki prefix naming another wiki is refused. get_schema class=... lists its fields and types.

    fields: at least one, every value a JSON string. Numbers \"3\" or \"2.5\", booleans \"true\"
    or \"false\", dates \"2026-08-18\" or \"2026-08-18T10:15:00Z\" (a Date(date) field holds
    the day alone and refuses a time of day), a multi-select list's values separated by '|' or
    ','. An empty value \"\" clears a field that is not text (number, boolean, date, list,
    e-mail, page); a String or TextArea stores the empty text. An unknown field is refused
    with the list of the class's fields;
    Password fields can never be set by this tool. Every value is checked before anything is
    written, against its type and its field's validation pattern (get_schema shows
    [validation: <regexp> \"message\"]): one bad value saves nothing. A new object takes the
    default of every field you do not name (get_schema prints it as default=<value>); updates
    never do.

    object: omit it to create the next object of the class on the document (numbers start at 0
    and are never reused); pass a number to update that object (query_objects and get_document
    show the numbers). The document is created, empty, if it does not exist.

    base_version: REQUIRED when the document exists (its version from get_document); omit it
    when the write creates the document. A stale base_version is a version conflict and saves
    nothing. The save is recorded as you with the comment prefixed `[AI] `; minor unless
    major=true.
    Updating an object with the values it already holds, in any accepted spelling (\" 3 \" for
    3, \"b,a\" for b|a), and no new title saves nothing (\"No changes\"); a stale base_version
    is still a conflict.

    Rights, groups, users and the MCP configuration classes are refused.

FORMAT
    Created Tasks.TaskClass object 2 on document main:Tasks.Task1.
    Version: 1.3 -> 1.4
    Title updated.
    Fields set: priority, title
    Defaults taken: state          (new objects only, when a field has a default)
    Compare: <url>

EXAMPLES
    write_object reference=\"Tasks.Task3\" class=\"Tasks.TaskClass\" fields={\"title\": \"Ship\", \"priority\": \"2\"}
    write_object reference=\"Tasks.Task1\" class=\"Tasks.TaskClass\" object=0 fields={\"priority\": \"5\"} base_version=\"1.2\"

SEE ALSO
    get_schema, query_objects, delete_object, write_schema"
)]
struct WriteObject {
    /// The document holding the object (created if missing).
    reference: String,
    /// The class (its document's full name).
    class: String,
    /// Values by field name, all strings: "3", "true", "2026-08-18", "a|b".
    #[param(required)]
    fields: BTreeMap<String, String>,
    /// The object to update (unnamed fields keep their values); omit to create one.
    object: Option<u32>,
    /// A new document title.
    title: Option<String>,
    /// The document's version you read: required when it exists.
    base_version: Keep<String>,
    #[param(flatten)]
    write: WriteParams,
}

impl Execute<Structured<Written>> for WriteObject {
    async fn execute(mut self, ctx: &ToolContext) -> ToolResult<Structured<Written>> {
        // Values a read showed escaped (`⟦U+200B⟧`) are stored as the characters they stand for.
        for value in self.fields.values_mut() {
            if let std::borrow::Cow::Owned(plain) = unescape(value) {
                *value = plain;
            }
        }
        let base = version_argument("base_version", &self.base_version)?;
        if self.fields.is_empty() {
            return Err(ToolError::new(
                "Error: 'fields' needs at least one field, e.g. {\"title\": \"Ship\"} (get_schema \
                 lists the class's fields). Nothing was saved.",
            )
            .with_kind(ErrorKind::BadArgument));
        }
        let number = self.object;
        let door = ctx.doors()?.write()?;
        let target = door
            .target(
                &self.reference,
                self.write.wiki.as_deref(),
                None,
                Right::Edit,
            )
            .await?;
        let class_document = class_document(&self.class, target.reference())?;
        let class_name = class_document.local();
        let class = read_class(ctx, &class_document).await?;
        check_fields(&class, &self.fields)?;
        if let Some(number) = number {
            existing_object(ctx, &target, &class_name, number).await?;
        }
        let retry = "resend the fields with the document's version as base_version";
        let base = target.base(base, BaseRule::RequiredIfExists, retry)?;
        let title_changes = match (&self.title, target.current()) {
            (None, _) => false,
            (Some(_), None) => true,
            (Some(title), Some(current)) => *title != current.title,
        };
        let default_comment = match number {
            None => format!("Added {class_name} object"),
            Some(number) => format!("Updated {class_name} object {number}"),
        };
        let names: Vec<String> = self.fields.keys().cloned().collect();
        let defaults: Vec<&str> = match number {
            Some(_) => Vec::new(),
            None => class
                .fields
                .iter()
                .filter(|field| {
                    !field.disabled
                        && field.rules.default.is_some()
                        && !self.fields.contains_key(&field.name)
                })
                .map(|field| field.name.as_str())
                .collect(),
        };
        let change = ObjectChange {
            class: class_name.clone(),
            number,
            values: self.fields,
            title: self.title,
            major: self.write.major,
        };
        let comment = Comment::new(self.write.comment.as_deref(), &default_comment);
        let outcome = door
            .write_object(&target, change, comment, base)
            .await
            .map_err(object_failure)?;
        if let SaveOutcome::Unchanged { version } = outcome.document {
            let what = format!(
                "{} object {} already holds the given values and title",
                fragment(&class_name),
                outcome.number
            );
            let value = Written::unchanged(&target, version).object(&class_name, outcome.number);
            return Ok(no_changes(&target, &what, version).structured(value));
        }
        let reference = fragment(&target.reference().to_string()).into_owned();
        let class_shown = fragment(&class_name).into_owned();
        let headline = match (&outcome.document, outcome.created_object) {
            (SaveOutcome::Created { .. }, _) => format!(
                "Created document {reference} with {class_shown} object {}.",
                outcome.number
            ),
            (_, true) => format!(
                "Created {class_shown} object {} on document {reference}.",
                outcome.number
            ),
            (_, false) => format!(
                "Updated {class_shown} object {} on document {reference}.",
                outcome.number
            ),
        };
        let mut lines = vec![headline, version_line(&outcome.document)];
        if title_changes {
            let creating = matches!(outcome.document, SaveOutcome::Created { .. });
            lines.push(
                if creating {
                    "Title set."
                } else {
                    "Title updated."
                }
                .to_owned(),
            );
        }
        lines.push(format!("Fields set: {}", fragment(&names.join(", "))));
        if !defaults.is_empty() {
            lines.push(format!(
                "Defaults taken: {}",
                fragment(&defaults.join(", "))
            ));
        }
        lines.extend(review_line(ctx, &target, &outcome.document));
        let value = Written::saved(&target, &outcome.document).object(&class_name, outcome.number);
        Ok(ToolOutput::text(lines.join("\n")).structured(value))
    }
}

/// The class document named by `class` in the wiki of `document`: a wiki prefix must name that
/// same wiki (objects use classes of their own wiki), and the sensitive classes are refused.
pub(crate) fn class_document(
    class: &str,
    document: &DocumentReference,
) -> Result<DocumentReference, ToolError> {
    let wiki = document.wiki();
    let parsed = DocumentReference::parse(class.trim(), wiki).map_err(|_| {
        ToolError::new(format!(
            "Error: 'class' must be the full name of a class document, e.g. \
             \"Tasks.TaskClass\" (got \"{}\"). Nothing was saved.",
            fragment(class)
        ))
        .with_kind(ErrorKind::BadArgument)
    })?;
    if parsed.wiki() != wiki {
        return Err(ToolError::new(format!(
            "Error: the class \"{}\" is in wiki \"{}\", but the document is in wiki \"{wiki}\"; \
             objects use the classes of their own wiki. Name the class without a wiki prefix. \
             Nothing was saved.",
            fragment(class),
            parsed.wiki()
        ))
        .with_kind(ErrorKind::BadArgument));
    }
    refuse_sensitive_class(&parsed.local())?;
    Ok(parsed)
}

/// The class definition, read only if the caller may view the class document: its field names
/// are listed in refusals, and a class the caller cannot see reads as no class at all.
async fn read_class(
    ctx: &ToolContext,
    class_document: &DocumentReference,
) -> Result<ClassDefinition, ToolError> {
    let no_class = || {
        ToolError::new(format!(
            "Error: \"{}\" defines no class (its document has no fields). get_schema lists \
             the classes in use; write_schema creates one. Nothing was saved.",
            fragment(&class_document.local())
        ))
        .with_kind(ErrorKind::NotFound)
    };
    let doors = ctx.doors()?;
    doors
        .authorize(
            &class_document.local(),
            Some(class_document.wiki().as_str()),
            Right::View,
        )
        .map_err(|_| no_class())?;
    let lookup = class_document.clone();
    doors
        .blocking(move |store| store.class(&lookup))
        .await?
        .map_err(|error| store_failure("read the class", &error))?
        .ok_or_else(no_class)
}

/// Refuses fields the class does not have (listing the settable ones) and Password fields.
fn check_fields(
    class: &ClassDefinition,
    fields: &BTreeMap<String, String>,
) -> Result<(), ToolError> {
    let settable: Vec<&str> = class
        .fields
        .iter()
        .filter(|field| !field.disabled && field.field_type != FieldType::Password)
        .map(|field| field.name.as_str())
        .collect();
    for name in fields.keys() {
        match class.field(name) {
            Some(field) if !field.disabled && field.field_type == FieldType::Password => {
                return Err(ToolError::new(format!(
                    "Error: \"{}\" is a Password field; write tools never set passwords. \
                     Settable fields: {}. Nothing was saved.",
                    fragment(name),
                    fragment(&settable.join(", "))
                ))
                .with_kind(ErrorKind::Forbidden));
            }
            Some(field) if !field.disabled => {}
            _ => {
                return Err(ToolError::new(format!(
                    "Error: the class {} has no field \"{}\". Its fields: {}. Nothing was saved.",
                    fragment(&class.name),
                    fragment(name),
                    fragment(&settable.join(", "))
                ))
                .with_kind(ErrorKind::BadArgument));
            }
        }
    }
    Ok(())
}

/// The object `number` of `class` on the document, or a refusal listing the numbers it holds.
pub(crate) async fn existing_object(
    ctx: &ToolContext,
    target: &WriteTarget,
    class: &str,
    number: u32,
) -> Result<ObjectRecord, ToolError> {
    let objects: Vec<ObjectRecord> = if target.current().is_some() {
        let reference = target.reference().clone();
        ctx.doors()?
            .blocking(move |store| store.objects(&reference))
            .await?
            .map_err(|error| store_failure("read the objects", &error))?
            .into_iter()
            .filter(|object| object.class == class)
            .collect()
    } else {
        Vec::new()
    };
    let numbers: Vec<u32> = objects.iter().map(|object| object.number).collect();
    if let Some(found) = objects.into_iter().find(|object| object.number == number) {
        return Ok(found);
    }
    let existing = if numbers.is_empty() {
        "it has none".to_owned()
    } else {
        let shown: Vec<String> = numbers.iter().map(u32::to_string).collect();
        format!("existing numbers: {}", shown.join(", "))
    };
    Err(ToolError::new(format!(
        "Error: the {} has no {} object {number} ({existing}). Omit 'object' to create one. \
         Nothing was saved.",
        target.row_name(),
        fragment(class)
    ))
    .with_kind(ErrorKind::NotFound))
}

/// A store refusal of an object write as the agent reads it: a value that does not fit its
/// field says what the field expects; the rest as the write door words it.
pub(crate) fn object_failure(failure: WriteFailure) -> ToolError {
    match failure.store_error() {
        Some(StoreError::Invalid(InvalidInput::FieldValue { field, expected })) => {
            ToolError::new(format!(
                "Error: the field \"{}\" expects {}. Nothing was saved.",
                fragment(field),
                fragment(expected)
            ))
            .with_kind(ErrorKind::BadArgument)
        }
        Some(StoreError::Invalid(InvalidInput::FieldRule {
            field,
            regexp,
            message,
        })) => {
            let why = message
                .as_deref()
                .map(|message| format!(" ({})", fragment(message)))
                .unwrap_or_default();
            ToolError::new(format!(
                "Error: the value of \"{}\" does not match the field's validation pattern \
                 /{}/{why}. Give a value that matches it (get_schema shows each field's rules). \
                 Nothing was saved.",
                fragment(field),
                fragment(regexp)
            ))
            .with_kind(ErrorKind::BadArgument)
        }
        Some(StoreError::Invalid(InvalidInput::UnknownField {
            class,
            field,
            known,
        })) => ToolError::new(format!(
            "Error: the class {} has no field \"{}\". Its fields: {}. Nothing was saved.",
            fragment(class),
            fragment(field),
            fragment(&known.join(", "))
        ))
        .with_kind(ErrorKind::BadArgument),
        _ => failure.into(),
    }
}
