//! `query_objects` (facts §1.10): the objects of one class matching typed filters, or the object
//! inventory of one document.
//!
//! The query never reaches SQL as text: filters are parsed into the store's closed
//! `<field> <op> <value>` form, checked against the class (unknown fields, Password and list
//! fields refused, values coerced to the field's type) and compiled by the store to one bound
//! statement. Every fetched row goes through the row door (reach, space filter, view right)
//! BEFORE it is counted or paged ([`Doors::query_objects`]): a count of rows the caller may not
//! see would let it probe their values. Past 2000 candidates the total reads `N+`. Password
//! values are never read back: the store returns them masked.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use mcp_runtime::output::guard::{fragment, strip_line_breaks};
use mcp_runtime::output::result::budgeted_result;
use wiki_server::access::{Doors, store_failure};
use wiki_server::instant::iso_instant;
use wiki_server::prelude::*;
use wiki_server::store::InvalidInput;
use wiki_server::store::StoreError;
use wiki_server::store::model::object::{FieldValue, ObjectHit, ObjectRecord};
use wiki_server::store::objects::query::{
    FieldFilter, MAX_FILTERS, ObjectQuery, SCAN_CEILING, SortOrder,
};
use wiki_server::store::rights::Right;

use super::get_schema::{Described, read_class};

/// The most field names `select` may list (as the reference).
const MAX_SELECT: usize = 10;

/// Find objects of a class by field values, or list the objects on one document.
///
/// Give class (e.g. "Tasks.TaskClass") and optional filters like "priority > 2" or
/// "title contains plan" (all must match), select to choose the fields shown, sort like
/// "due desc", and limit/offset to page. Give document alone for the inventory of its objects
/// (classes and numbers). Call get_schema first to learn the field names and types.
#[mcp_tool(
    id = "query_objects",
    category = "Structured Data",
    title = "Query objects",
    man = "NOTES
    A filter reads `<field> <op> <value>`; the value is the rest of the text, spaces included.
    Operators: = != > < and contains (text fields only, case-insensitive). Up to 10 filters,
    all of which must match. Values are read by the field's type: numbers, true/false or 1/0,
    dates as 2026-12-01 or 2026-12-01T09:30:00Z. Password and StaticList fields cannot be
    filtered or sorted on. sort reads `<field> [asc|desc]`; objects without a value for the
    sort field are left out.

    Every object is checked as you (the endpoint's space filter, then your view right on its
    document) BEFORE it is counted: the total and the pages only ever include objects you may
    see. At most 2000 objects are examined; beyond that the total reads `N+` (narrow the
    filters). Objects on hidden documents are included.

    Each hit reads `<document> (object N, v<document version>)` followed by its values: the
    selected fields, or every set field without select. Password values read (masked): they
    can never be read back. Give document alone (no class) for the inventory of a document:
    its objects grouped by class, without values; filters, select and sort need a class.

    A wiki-id prefix or the wiki argument reaches another wiki only when this endpoint has
    cross-wiki reach (see list_wikis).

EXAMPLES
    query_objects class=\"Tasks.TaskClass\"
    query_objects class=\"Tasks.TaskClass\" filters=[\"priority > 1\", \"title contains docs\"]
    query_objects class=\"Tasks.TaskClass\" select=[\"title\"] sort=\"priority desc\" limit=5
    query_objects class=\"Tasks.TaskClass\" document=\"Tasks.Task1\"
    query_objects document=\"Tasks.Task1\"

SEE ALSO
    get_schema, write_object, delete_object, get_document"
)]
struct QueryObjects {
    /// The class, e.g. "Tasks.TaskClass" (see get_schema). Required unless document is given.
    class: Option<String>,
    /// Up to 10 filters `<field> <op> <value>`, all of which must match; op is =, !=, >, < or
    /// contains (text fields), e.g. "priority > 2".
    filters: Vec<String>,
    /// Up to 10 field names to show for each object (default: every set field).
    select: Vec<String>,
    /// Only objects on this document, e.g. "Tasks.Task1"; alone, the document's inventory.
    document: Option<String>,
    /// `<field> asc|desc`, e.g. "due desc" (objects without a value are left out).
    sort: Option<String>,
    /// Objects per page (default 10, 1-25; larger values are capped).
    #[param(default = 10, range = 1..=25, clamp)]
    limit: i64,
    /// Objects to skip, for the next page (default 0).
    #[param(default = 0)]
    offset: i64,
    /// The wiki to query, instead of this endpoint's wiki (see list_wikis).
    #[param(cross_wiki)]
    wiki: Option<String>,
}

impl Execute for QueryObjects {
    async fn execute(self, ctx: &ToolContext) -> ToolResult {
        let offset = usize::try_from(self.offset).map_err(|_| {
            ToolError::new(format!(
                "Error: 'offset' must be 0 or more (got {}).",
                self.offset
            ))
        })?;
        let doors = ctx.doors()?;
        match (self.class.as_deref(), self.document.as_deref()) {
            (None, None) => Err(ToolError::new(
                "Error: 'class' parameter is required (e.g. \"Tasks.TaskClass\"; see get_schema), \
                 unless 'document' is given for the inventory of one document.",
            )),
            (None, Some(document)) => self.inventory(doors, document).await,
            (Some(class), _) => self.query(doors, class, offset).await,
        }
    }
}

impl QueryObjects {
    /// The objects of a class, filtered, sorted and paged over authorized rows.
    async fn query(&self, doors: &Doors, class: &str, offset: usize) -> ToolResult {
        // A document, when given, decides the wiki: its prefix (or 'wiki') is checked by the door.
        let document = match self.document.as_deref() {
            Some(document) => Some(
                doors
                    .authorize(document, self.wiki.as_deref(), Right::View)?
                    .reference()
                    .clone(),
            ),
            None => None,
        };
        let wiki_param = match &document {
            Some(document) => Some(document.wiki().as_str().to_owned()),
            None => self.wiki.clone(),
        };
        if self.filters.len() > MAX_FILTERS {
            return Err(ToolError::new(format!(
                "Error: 'filters' takes at most {MAX_FILTERS} filters (got {}).",
                self.filters.len()
            )));
        }
        if self.select.len() > MAX_SELECT {
            return Err(ToolError::new(format!(
                "Error: 'select' takes at most {MAX_SELECT} field names (got {}).",
                self.select.len()
            )));
        }
        let filters = parse_filters(&self.filters)?;
        let sort = self.sort.as_deref().map(parse_sort).transpose()?;
        let class = read_class(doors, class, wiki_param.as_deref()).await?;
        check_select(&class, &self.select)?;
        let wiki = class.reference.wiki().clone();
        let query = ObjectQuery {
            class: class.definition.name.clone(),
            document,
            filters,
            sort,
        };
        // The parser clamped limit to 1..=25.
        let limit = usize::try_from(self.limit).unwrap_or(1);
        let page = doors
            .query_objects(wiki.clone(), query, offset, limit)
            .await?
            .map_err(|error| query_failure(&error))?;
        let mut body = format!(
            "OBJECTS of class \"{}\" in wiki \"{wiki}\":\n",
            fragment(&class.definition.name)
        );
        for hit in &page.hits {
            body.push_str(&self.hit_lines(hit));
        }
        let total = if page.truncated {
            format!("{}+", page.total)
        } else {
            page.total.to_string()
        };
        let footer = if page.hits.is_empty() {
            if page.total == 0 {
                "No objects match (only objects on documents you can view are counted).".to_owned()
            } else {
                format!("No objects at offset {offset}: {total} match. Use a smaller offset.")
            }
        } else {
            let last = offset + page.hits.len();
            let mut footer = format!("Showing objects {}-{last} of {total}.", offset + 1);
            if last < page.total || page.truncated {
                let _ = write!(footer, " Continue with offset={last}.");
            }
            if page.truncated {
                let _ = write!(
                    footer,
                    " The scan stopped at {SCAN_CEILING} objects: narrow the filters for an \
                     exact total."
                );
            }
            footer
        };
        budgeted_result(body.trim_end(), &footer)
    }

    /// `<ref> (object N, v<version>)` and the shown values, one per line.
    fn hit_lines(&self, hit: &ObjectHit) -> String {
        let mut out = format!(
            "{} (object {}, v{})\n",
            fragment(&hit.reference.to_string()),
            hit.object.number,
            hit.version
        );
        for (name, value) in shown_values(&hit.object, &self.select) {
            let _ = writeln!(out, "  {}: {value}", fragment(&name));
        }
        out
    }

    /// The objects on one document, grouped by class, without values.
    async fn inventory(&self, doors: &Doors, document: &str) -> ToolResult {
        if !self.filters.is_empty() || !self.select.is_empty() || self.sort.is_some() {
            return Err(ToolError::new(
                "Error: 'filters', 'select' and 'sort' need 'class'. Give class to query values, \
                 or drop them for the document's inventory.",
            ));
        }
        let authorized = doors.authorize(document, self.wiki.as_deref(), Right::View)?;
        let read = doors.read_document(&authorized, None).await?;
        let reference = authorized.reference().clone();
        let objects = doors
            .blocking(move |store| store.objects(&reference))
            .await?
            .map_err(|error| store_failure("read the document's objects", &error))?;
        let mut by_class: BTreeMap<&str, Vec<u32>> = BTreeMap::new();
        for object in &objects {
            by_class
                .entry(object.class.as_str())
                .or_default()
                .push(object.number);
        }
        let mut body = format!(
            "OBJECTS on {} (version {}):\n",
            fragment(&authorized.reference().to_string()),
            read.version
        );
        if by_class.is_empty() {
            body.push_str("  (no objects)\n");
        }
        for (class, numbers) in &by_class {
            let numbers: Vec<String> = numbers.iter().map(u32::to_string).collect();
            let _ = writeln!(
                body,
                "  {}: {} object{} (number{} {})",
                fragment(class),
                numbers.len(),
                if numbers.len() == 1 { "" } else { "s" },
                if numbers.len() == 1 { "" } else { "s" },
                numbers.join(", ")
            );
        }
        budgeted_result(
            body.trim_end(),
            "Give class (and document) to read the values.",
        )
    }
}

/// Parses each filter into the store's closed form; the message names the filter and the fix.
fn parse_filters(filters: &[String]) -> Result<Vec<FieldFilter>, ToolError> {
    filters
        .iter()
        .map(|text| {
            text.parse::<FieldFilter>().map_err(|error| {
                ToolError::new(format!(
                    "Error: 'filters' entry \"{}\" is not valid: {}. A filter reads <field> <op> \
                     <value> with op one of =, !=, >, <, contains, e.g. \"priority > 2\".",
                    fragment(text),
                    agent_reason(&error)
                ))
            })
        })
        .collect()
}

/// `<field> [asc|desc]`.
fn parse_sort(text: &str) -> Result<(String, SortOrder), ToolError> {
    let mut words = text.split_whitespace();
    let field = words.next().unwrap_or_default();
    let order = match words.next().map(str::to_ascii_lowercase).as_deref() {
        None | Some("asc") => SortOrder::Asc,
        Some("desc") => SortOrder::Desc,
        Some(_) => return Err(bad_sort(text)),
    };
    if field.is_empty() || words.next().is_some() {
        return Err(bad_sort(text));
    }
    Ok((field.to_owned(), order))
}

fn bad_sort(text: &str) -> ToolError {
    ToolError::new(format!(
        "Error: 'sort' must read <field> asc|desc, e.g. \"priority desc\" (got \"{}\").",
        fragment(text)
    ))
}

/// Every selected name must be an enabled field of the class.
fn check_select(class: &Described, select: &[String]) -> Result<(), ToolError> {
    for name in select {
        if class.definition.field(name).is_none() {
            return Err(ToolError::new(format!(
                "Error: 'select' names \"{}\", which is not a field of {}. Fields: {}.",
                fragment(name),
                fragment(&class.definition.name),
                strip_line_breaks(&class.definition.enabled_names().join(", "))
            )));
        }
    }
    Ok(())
}

/// The store's refusal of a query, in words an agent can act on; anything else is the fixed
/// "Could not" message.
fn query_failure(error: &StoreError) -> ToolError {
    match error {
        StoreError::Invalid(_) => ToolError::new(format!(
            "Error: {}. Call get_schema with the class for its fields and types.",
            agent_reason(error)
        )),
        other => store_failure("query the objects", other),
    }
}

/// A store refusal's reason with every echoed part guarded (field names and values come from
/// the agent or the wiki).
fn agent_reason(error: &StoreError) -> String {
    match error {
        StoreError::Invalid(InvalidInput::UnknownField {
            class,
            field,
            known,
        }) => format!(
            "{} has no field \"{}\" (fields: {})",
            fragment(class),
            fragment(field),
            strip_line_breaks(&known.join(", "))
        ),
        StoreError::Invalid(input) => fragment(&input.to_string()).into_owned(),
        other => fragment(&other.to_string()).into_owned(),
    }
}

/// The values one hit shows: the selected fields in the order asked (unset ones say so), or
/// every set field by name.
fn shown_values(object: &ObjectRecord, select: &[String]) -> Vec<(String, String)> {
    if select.is_empty() {
        return object
            .values
            .iter()
            .map(|(name, value)| (name.clone(), show_value(value)))
            .collect();
    }
    select
        .iter()
        .map(|name| {
            let value = object
                .values
                .get(name)
                .map_or_else(|| "(not set)".to_owned(), show_value);
            (name.clone(), value)
        })
        .collect()
}

/// One value on one line: text guarded, dates in ISO-8601 UTC, lists `a|b`, secrets masked.
fn show_value(value: &FieldValue) -> String {
    match value {
        FieldValue::Text(text) => fragment(text).into_owned(),
        FieldValue::Integer(number) => number.to_string(),
        FieldValue::Float(number) => number.to_string(),
        FieldValue::Boolean(flag) => flag.to_string(),
        FieldValue::Date(date) => iso_instant(*date),
        FieldValue::List(values) => {
            let values: Vec<String> = values
                .iter()
                .map(|value| fragment(value).into_owned())
                .collect();
            values.join("|")
        }
        FieldValue::Masked => "(masked)".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sort_reads_a_field_and_an_optional_direction() {
        assert_eq!(parse_sort("due"), Ok(("due".to_owned(), SortOrder::Asc)));
        assert_eq!(
            parse_sort(" due  DESC "),
            Ok(("due".to_owned(), SortOrder::Desc))
        );
        for bad in ["due sideways", "due asc extra", ""] {
            assert!(parse_sort(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn values_are_one_guarded_line() {
        assert_eq!(show_value(&FieldValue::Masked), "(masked)");
        assert_eq!(
            show_value(&FieldValue::Text("a\nobject 9: forged\u{2028}".into())),
            "aobject 9: forged"
        );
        assert_eq!(
            show_value(&FieldValue::List(vec!["x".into(), "y\n".into()])),
            "x|y"
        );
        assert_eq!(show_value(&FieldValue::Boolean(true)), "true");
    }
}
