//! `get_schema`: the classes of a wiki and the fields of one class, so an agent can
//! write `query_objects` filters and `write_object` values that the store accepts.
//!
//! The catalog lists the classes that have at least one object, with their object counts. Each
//! row's class document goes through the row door (reach, space filter, view right); a class the
//! caller may not view is dropped. The counts are NOT authorized per object (that would cost a
//! scan of every object): they are upper bounds, and the footer says so. Hidden class documents
//! are kept: class pages are hidden by convention.

mod output;

use std::fmt::Write as _;

use mcp_runtime::output::result::budgeted_result;
use wiki_tool_sdk::access::{Doors, store_failure};
use wiki_tool_sdk::prelude::*;
use wiki_tool_sdk::store::model::class::{ClassDefinition, FieldDefinition, FieldType, NumberKind};
use wiki_tool_sdk::store::model::wiki::WikiId;
use wiki_tool_sdk::store::objects::query::SCAN_CEILING;
use wiki_tool_sdk::store::reference::DocumentReference;
use wiki_tool_sdk::store::rights::Right;
use wiki_tool_sdk::untrusted::{fragment, single_line};

use self::output::{ClassCount, ClassOutput, FieldOutput, SchemaOutput};

/// Show the classes (structured-data types) of a wiki, or the fields of one class.
#[mcp_tool(
    output = SchemaOutput,
    id = "get_schema",
    category = categories::STRUCTURED_DATA,
    title = "Class schema",
    man = "NOTES
    A class is defined by a document: its full name is the class name (Blog.PostClass). Objects
    of the class are numbered per document and hold one value per field. Read a class before
    query_objects or write_object to learn the field names and what each accepts.

    Without class, the catalog lists the classes that have at least one object in the wiki,
    with their object counts. A class whose document you may not view is left out. The counts
    include objects on documents you may not view, so they are upper bounds: query_objects
    counts only what you can see. At most 2000 classes are listed.

    With class, each enabled field reads `name: Type(detail) \"Label\" modifiers`:
      String, TextArea, Email, Page          text (contains filters apply)
      Number(integer), Number(float)         numbers (=, !=, >, <)
      Boolean                                true/false or 1/0
      Date(date), Date(datetime)             ISO dates, e.g. 2026-12-01 or 2026-12-01T09:30:00Z
      StaticList(a|b|c) [multiselect]        one (or several) of the listed values
      Password                               write-only: values are masked in query results
    The label is shown only when it differs from the name. Modifiers: multiselect;
    default=<value> (what a new object gets when write_object does not name the field; quoted
    when it holds spaces); [validation: <regexp> \"message\"] (every value written must match
    the regular expression, searched anywhere in the value; the message says why). Password
    and StaticList fields cannot be filtered or sorted on. DISABLED FIELDS lists removed
    fields: their values are kept but hidden, and come back if the field is added again
    (write_schema).

    A wiki-id prefix or the wiki argument reaches another wiki only when this endpoint has
    cross-wiki reach (see list_wikis).

EXAMPLES
    get_schema
    get_schema class=\"Tasks.TaskClass\"
    get_schema class=\"Blog.PostClass\" wiki=\"sub\"

SEE ALSO
    query_objects, write_object, write_schema, get_document"
)]
struct GetSchema {
    /// Its document's full name, e.g. "Tasks.TaskClass"; omit it for the classes in use.
    class: Option<String>,
    /// Another wiki (list_wikis).
    #[param(extended)]
    wiki: Option<String>,
}

impl Execute<Structured<SchemaOutput>> for GetSchema {
    async fn execute(self, ctx: &ToolContext) -> ToolResult<Structured<SchemaOutput>> {
        let doors = ctx.doors()?;
        match self.class.as_deref() {
            None => catalog(doors, doors.existing_wiki(self.wiki.as_deref()).await?).await,
            Some(class) => {
                let class = read_class(doors, class, self.wiki.as_deref()).await?;
                let (body, footer) = describe(&class);
                let mut fields: Vec<&FieldDefinition> = class.definition.fields.iter().collect();
                fields.sort_by_key(|field| field.disabled);
                let value = SchemaOutput {
                    wiki: class.reference.wiki().to_string(),
                    classes: Vec::new(),
                    capped: false,
                    class: Some(ClassOutput {
                        name: class.definition.name.clone(),
                        reference: class.reference.to_string(),
                        fields: fields.into_iter().map(FieldOutput::new).collect(),
                    }),
                };
                Ok(budgeted_result(&body, &footer)?.structured(value))
            }
        }
    }
}

/// The class `input` names, authorized for viewing through the document door, with its fields;
/// the agent-facing error when it defines none. Shared with query_objects.
pub(crate) async fn read_class(
    doors: &Doors,
    input: &str,
    wiki: Option<&str>,
) -> Result<Described, ToolError> {
    let authorized = doors.authorize_known(input, wiki, Right::View).await?;
    let reference = authorized.reference().clone();
    let lookup = reference.clone();
    let class = doors
        .blocking(move |store| store.class(&lookup))
        .await?
        .map_err(|error| store_failure("read the class", &error))?;
    match class {
        Some(definition) => Ok(Described {
            reference,
            definition,
        }),
        None => Err(ToolError::new(format!(
            "Error: \"{}\" defines no class (its document has no fields). Call get_schema \
             without class for the classes in use.",
            fragment(&reference.to_string())
        ))
        .with_kind(ErrorKind::NotFound)),
    }
}

/// A class that passed the document door, and its definition.
#[derive(Debug, Clone)]
pub(crate) struct Described {
    /// The class document, wiki-qualified.
    pub(crate) reference: DocumentReference,
    /// Its fields, disabled ones included.
    pub(crate) definition: ClassDefinition,
}

/// The catalog: classes with objects whose class document the caller may view.
async fn catalog(doors: &Doors, wiki: WikiId) -> ToolResult<Structured<SchemaOutput>> {
    let lookup = wiki.clone();
    let usage = doors
        .blocking(move |store| store.class_usage(&lookup))
        .await?
        .map_err(|error| store_failure("list the classes", &error))?;
    let at_ceiling = usage.len() >= SCAN_CEILING;
    let mut body = format!("CLASSES in wiki \"{wiki}\" (classes with at least one object):\n");
    let mut listed = 0usize;
    let mut classes = Vec::new();
    for row in &usage {
        let Ok(reference) = DocumentReference::parse(&row.class, &wiki) else {
            continue;
        };
        if reference.wiki() != &wiki || !doors.row_visible(&reference) {
            continue;
        }
        listed += 1;
        classes.push(ClassCount {
            class: row.class.clone(),
            objects: row.objects,
        });
        let _ = writeln!(
            body,
            "  {} ({} object{})",
            fragment(&row.class),
            row.objects,
            if row.objects == 1 { "" } else { "s" }
        );
    }
    if listed == 0 {
        body.push_str("  (none you can view)\n");
    }
    let mut footer = String::from(
        "Counts are upper bounds: they include objects on documents you may not view \
         (query_objects counts only what you can see). Call get_schema class=<name> for the \
         fields.",
    );
    if at_ceiling {
        let _ = write!(
            footer,
            " Only the first {SCAN_CEILING} classes (by name) were read."
        );
    }
    let value = SchemaOutput {
        wiki: wiki.to_string(),
        classes,
        capped: at_ceiling,
        class: None,
    };
    Ok(budgeted_result(body.trim_end(), &footer)?.structured(value))
}

/// The field lines of a class and its disabled fields: (body, footer).
fn describe(class: &Described) -> (String, String) {
    let mut body = format!(
        "CLASS {} in wiki \"{}\":\n",
        fragment(&class.definition.name),
        class.reference.wiki()
    );
    let enabled: Vec<&FieldDefinition> = class
        .definition
        .fields
        .iter()
        .filter(|field| !field.disabled)
        .collect();
    if enabled.is_empty() {
        body.push_str("  (no enabled fields)\n");
    }
    for field in enabled {
        body.push_str("  ");
        body.push_str(&field_line(field));
        body.push('\n');
    }
    let disabled: Vec<&str> = class
        .definition
        .fields
        .iter()
        .filter(|field| field.disabled)
        .map(|field| field.name.as_str())
        .collect();
    let footer = if disabled.is_empty() {
        "DISABLED FIELDS: none".to_owned()
    } else {
        format!(
            "DISABLED FIELDS: {} (values kept but hidden; adding the field again shows them)",
            single_line(&disabled.join(", "))
        )
    };
    (body.trim_end().to_owned(), footer)
}

/// `name: Type(detail) "Label" modifiers`, every wiki-authored part guarded.
pub(crate) fn field_line(field: &FieldDefinition) -> String {
    let mut line = format!(
        "{}: {}",
        fragment(&field.name),
        type_detail(&field.field_type)
    );
    if let Some(pretty) = field
        .pretty_name
        .as_deref()
        .map(str::trim)
        .filter(|pretty| !pretty.is_empty() && *pretty != field.name)
    {
        let _ = write!(line, " \"{}\"", fragment(pretty));
    }
    match &field.field_type {
        FieldType::StaticList {
            multiselect: true, ..
        } => line.push_str(" multiselect"),
        FieldType::Password => line.push_str(" (values masked in query results)"),
        _ => {}
    }
    if let Some(default) = &field.rules.default {
        let _ = write!(line, " default={}", shown_value(default));
    }
    if let Some(validation) = &field.rules.validation {
        let _ = write!(line, " [validation: {}", fragment(&validation.regexp));
        if let Some(message) = &validation.message {
            let _ = write!(line, " \"{}\"", fragment(message));
        }
        line.push(']');
    }
    line
}

/// A default as one token: bare when it is a plain word, else quoted with its line breaks,
/// quotes and backslashes escaped, so a default can neither end the line nor pass for the next
/// modifier.
fn shown_value(value: &str) -> String {
    let plain = !value.is_empty()
        && value
            .chars()
            .all(|c| !c.is_whitespace() && !c.is_control() && !matches!(c, '"' | '\\' | '['));
    if plain {
        return fragment(value).into_owned();
    }
    let escaped: String = value
        .chars()
        .flat_map(|c| match c {
            '\n' => vec!['\\', 'n'],
            '\r' => vec!['\\', 'r'],
            '\t' => vec!['\\', 't'],
            '"' | '\\' => vec!['\\', c],
            other => vec![other],
        })
        .collect();
    format!("\"{}\"", fragment(&escaped))
}

/// `Type(detail)` without the modifiers, which follow the label.
fn type_detail(field_type: &FieldType) -> String {
    match field_type {
        FieldType::Number(NumberKind::Integer) => "Number(integer)".to_owned(),
        FieldType::Number(NumberKind::Float) => "Number(float)".to_owned(),
        FieldType::Date { date_only: true } => "Date(date)".to_owned(),
        FieldType::Date { date_only: false } => "Date(datetime)".to_owned(),
        FieldType::StaticList { values, .. } => {
            let values: Vec<String> = values
                .iter()
                .map(|value| fragment(value).into_owned())
                .collect();
            format!("StaticList({})", values.join("|"))
        }
        other => other.name().to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use wiki_tool_sdk::store::model::rules::{FieldRules, Validation};

    fn field(name: &str, pretty: Option<&str>, field_type: FieldType) -> FieldDefinition {
        FieldDefinition {
            name: name.to_owned(),
            pretty_name: pretty.map(str::to_owned),
            field_type,
            rules: Default::default(),
            disabled: false,
        }
    }

    #[test]
    fn field_lines_follow_the_reference_grammar() {
        let category = field(
            "category",
            Some("Category"),
            FieldType::StaticList {
                values: vec!["News".into(), "Personal".into(), "Other".into()],
                multiselect: true,
            },
        );
        assert_eq!(
            field_line(&category),
            "category: StaticList(News|Personal|Other) \"Category\" multiselect"
        );
        let secret = field("secret", Some("Secret"), FieldType::Password);
        assert_eq!(
            field_line(&secret),
            "secret: Password \"Secret\" (values masked in query results)"
        );
        let same = field("title", Some("title"), FieldType::String);
        assert_eq!(field_line(&same), "title: String");
        let due = field("due", None, FieldType::Date { date_only: true });
        assert_eq!(field_line(&due), "due: Date(date)");
    }

    #[test]
    fn rules_follow_the_label_as_default_and_validation_modifiers() {
        let mut category = field(
            "category",
            Some("Category"),
            FieldType::StaticList {
                values: vec!["News".into(), "Other".into()],
                multiselect: true,
            },
        );
        category.rules = FieldRules {
            default: Some("News".into()),
            validation: Some(Validation {
                regexp: "^N".into(),
                message: Some("News only".into()),
            }),
        };
        assert_eq!(
            field_line(&category),
            "category: StaticList(News|Other) \"Category\" multiselect default=News \
             [validation: ^N \"News only\"]"
        );
        let mut note = field("note", None, FieldType::TextArea);
        note.rules.default = Some("two words\nand \"a\" line".into());
        assert_eq!(
            field_line(&note),
            "note: TextArea default=\"two words\\nand \\\"a\\\" line\""
        );
    }

    #[test]
    fn wiki_authored_labels_and_values_cannot_forge_lines() {
        let forged = field(
            "kind",
            Some("Kind\nsecret: Password\u{2028}x\u{202E}"),
            FieldType::StaticList {
                values: vec!["a\nb: String".into()],
                multiselect: false,
            },
        );
        let line = field_line(&forged);
        assert!(!line.contains('\n'));
        assert_eq!(
            wiki_tool_sdk::untrusted::escape(&line),
            "kind: StaticList(ab: String) \"Kindsecret: Password⟦U+2028⟧x⟦U+202E⟧\""
        );
    }
}
