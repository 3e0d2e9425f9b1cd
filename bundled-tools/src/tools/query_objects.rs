//! `query_objects`: the objects of one class matching typed filters, or the object
//! inventory of one document.
//!
//! The query never reaches SQL as text: filters are parsed into the store's closed
//! `<field> <op> <value>` form, checked against the class (unknown fields, Password and list
//! fields refused, values coerced to the field's type) and compiled by the store to one bound
//! statement. Every fetched row goes through the row door (reach, space filter, view right)
//! BEFORE it is counted or paged ([`Doors::query_objects`]): a count of rows the caller may not
//! see would let it probe their values. Past 2000 candidates the total reads `N+`. Password
//! values are never read back: the store returns them masked.

mod output;
mod text_window;

use std::collections::BTreeMap;
use std::fmt::Write as _;

use mcp_runtime::output::budget::MAX_OUTPUT_CHARS;
use mcp_runtime::output::lines::{normalize_line_endings, split_lines};
use mcp_runtime::output::result::budgeted_result;
use wiki_tool_sdk::access::{Doors, store_failure};
use wiki_tool_sdk::instant::iso_instant;
use wiki_tool_sdk::prelude::*;
use wiki_tool_sdk::store::InvalidInput;
use wiki_tool_sdk::store::StoreError;
use wiki_tool_sdk::store::model::class::{ClassDefinition, FieldType};
use wiki_tool_sdk::store::model::object::{FieldValue, ObjectHit, ObjectRecord};
use wiki_tool_sdk::store::objects::query::{
    FieldFilter, MAX_FILTERS, ObjectQuery, SCAN_CEILING, SortOrder, check_query,
};
use wiki_tool_sdk::store::rights::Right;
use wiki_tool_sdk::untrusted::{fragment, shown_len, single_line};

use self::output::{ObjectField, ObjectsOutput, Texts, object_output};
use self::text_window::{TextWindow, continued_text};
use super::get_schema::{Described, read_class};
use crate::seams::paging::offset_past_end;
use crate::seams::window::numbered_whole;

/// Characters a query's objects, or one object's values, take at most as shown: the output
/// budget less room for the header and footer, so a page of long values ends early and a long
/// text is windowed instead of being cut by the budget.
const VALUES_BUDGET: usize = MAX_OUTPUT_CHARS - 1_000;

/// The most field names `select` may list (as the reference).
const MAX_SELECT: usize = 10;

/// Objects per page when `limit` is not given.
const DEFAULT_LIMIT: usize = 10;

/// Find objects of a class by field values (get_schema lists the fields), or list the objects on
/// one document.
#[mcp_tool(
    output = ObjectsOutput,
    id = "query_objects",
    category = categories::STRUCTURED_DATA,
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
    see. At most 2000 objects you may see are counted; beyond that the total reads `N+`
    (narrow the filters). An offset past the last object is an error. Objects on hidden
    documents are included.

    Each hit reads `<document> (object N, v<document version>)` followed by its values: the
    selected fields, or every set field without select, each on one line of at most 200
    characters (the line breaks of a TextArea shown as ` ↵ `). Password values read (masked):
    they can never be read back. Give class, document and number for one object's FULL values:
    every text as numbered lines (`     1<TAB>text`, strip the prefix before quoting it back in
    write_object), not capped or joined. A text longer than the output budget (about 24,000
    characters) is shown as a window, its lines numbered from the window's start, and the
    footer gives the continuation: select=[\"<field>\"] offset=<characters read>; fields after
    it are named, not shown. A query's page ends early rather than past the budget (continue
    with the offset its footer gives); its structured values are capped like its lines. Give
    document alone (no class) for the inventory of a document: its objects grouped by class,
    without values; filters, select and sort need a class.

    A wiki-id prefix or the wiki argument reaches another wiki only when this endpoint has
    cross-wiki reach (see list_wikis).

EXAMPLES
    query_objects class=\"Tasks.TaskClass\"
    query_objects class=\"Tasks.TaskClass\" filters=[\"priority > 1\", \"title contains docs\"]
    query_objects class=\"Tasks.TaskClass\" select=[\"title\"] sort=\"priority desc\" limit=5
    query_objects class=\"Tasks.TaskClass\" document=\"Tasks.Task1\"
    query_objects class=\"Tasks.TaskClass\" document=\"Tasks.Task1\" number=0
    query_objects class=\"Tasks.TaskClass\" document=\"Tasks.Task1\" number=0 select=[\"notes\"] offset=23500
    query_objects document=\"Tasks.Task1\"

SEE ALSO
    get_schema, write_object, delete_object, get_document"
)]
struct QueryObjects {
    /// The class; required unless document is given.
    class: Option<String>,
    /// Up to 10 `<field> <op> <value>`, all must match; op is =, !=, >, < or contains.
    filters: Vec<String>,
    /// Up to 10 fields to show (default all set).
    select: Vec<String>,
    /// Objects on this document; alone, its inventory of objects.
    document: Option<String>,
    /// `<field> asc|desc`, e.g. "due desc".
    sort: Option<String>,
    /// With class and document: that object alone, with its full values.
    number: Option<u32>,
    /// Objects per page (default 10).
    #[param(range = 1..=25, clamp)]
    limit: Option<usize>,
    /// Objects to skip; with number, characters of the selected text.
    #[param(default = 0)]
    offset: usize,
    /// Another wiki (list_wikis).
    #[param(extended)]
    wiki: Option<String>,
}

/// What query_objects returns.
type ObjectsResult = ToolResult<Structured<ObjectsOutput>>;

impl Execute<Structured<ObjectsOutput>> for QueryObjects {
    async fn execute(self, ctx: &ToolContext) -> ObjectsResult {
        let offset = self.offset;
        let doors = ctx.doors()?;
        match (self.class.as_deref(), self.document.as_deref(), self.number) {
            (None, None, _) => Err(ToolError::new(
                "Error: 'class' parameter is required (e.g. \"Tasks.TaskClass\"; see get_schema), \
                 unless 'document' is given for the inventory of one document.",
            )
            .with_kind(ErrorKind::BadArgument)),
            (None, Some(_), Some(_)) => Err(ToolError::new(
                "Error: 'number' needs 'class' as well (the object's class, see the document's \
                 inventory: query_objects document=... alone).",
            )
            .with_kind(ErrorKind::BadArgument)),
            (None, Some(document), None) => self.inventory(doors, document).await,
            (Some(class), Some(document), Some(number)) => {
                self.full_object(doors, class, document, number).await
            }
            (Some(_), None, Some(_)) => Err(ToolError::new(
                "Error: 'number' needs 'document' as well: give the document the object is on.",
            )
            .with_kind(ErrorKind::BadArgument)),
            (Some(class), _, _) => {
                let scan = ctx.scan_signals("objects authorized");
                self.query(doors, class, offset, scan).await
            }
        }
    }
}

impl QueryObjects {
    /// The objects of a class, filtered, sorted and paged over authorized rows.
    async fn query(
        &self,
        doors: &Doors,
        class: &str,
        offset: usize,
        scan: ScanSignals,
    ) -> ObjectsResult {
        // A document, when given, decides the wiki: its prefix (or 'wiki') is checked by the door.
        let document = match self.document.as_deref() {
            Some(document) => Some(
                doors
                    .authorize_known(document, self.wiki.as_deref(), Right::View)
                    .await?
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
            ))
            .with_kind(ErrorKind::Budget));
        }
        if self.select.len() > MAX_SELECT {
            return Err(ToolError::new(format!(
                "Error: 'select' takes at most {MAX_SELECT} field names (got {}).",
                self.select.len()
            ))
            .with_kind(ErrorKind::Budget));
        }
        let filters = parse_filters(&self.filters)?;
        let sort = self.sort.as_deref().map(parse_sort).transpose()?;
        let class = read_class(doors, class, wiki_param.as_deref()).await?;
        check_select(&class, &self.select)?;
        self.check_against_class(&class, &filters, sort.as_ref())?;
        let wiki = class.reference.wiki().clone();
        let query = ObjectQuery {
            class: class.definition.name.clone(),
            document,
            filters,
            sort,
        };
        // The parser clamped limit to 1..=25.
        let limit = self.limit.unwrap_or(DEFAULT_LIMIT);
        let page = doors
            .query_objects(wiki.clone(), query, offset, limit, scan)
            .await?
            .map_err(|error| query_failure(&error))?;
        let mut body = format!(
            "OBJECTS of class \"{}\" in wiki \"{wiki}\":\n",
            fragment(&class.definition.name)
        );
        let mut value = ObjectsOutput {
            wiki: wiki.to_string(),
            class: Some(class.definition.name.clone()),
            objects: Vec::with_capacity(page.hits.len()),
            total: page.total as u64,
            truncated: page.truncated,
            next_offset: None,
            inventory: Vec::new(),
        };
        // The page ends early rather than past the budget: text and structured content hold
        // the same objects, and the next offset continues after the last one shown.
        let mut shown = 0;
        for hit in &page.hits {
            let lines = self.hit_lines(hit, &class.definition);
            if shown > 0 && shown_len(&body) + shown_len(&lines) > VALUES_BUDGET {
                break;
            }
            body.push_str(&lines);
            shown += 1;
            let names = field_names(&hit.object, &self.select, &class.definition);
            value.objects.push(object_output(
                &hit.reference,
                hit.version,
                &hit.object,
                &names,
                Texts::Capped,
            ));
        }
        let total = if page.truncated {
            format!("{}+", page.total)
        } else {
            page.total.to_string()
        };
        if page.hits.is_empty() && page.total > 0 {
            let count = format!("{total} matching objects");
            return Err(offset_past_end(offset, page.total, "object", &count));
        }
        let footer = if page.hits.is_empty() {
            "No objects match (only objects on documents you can view are counted).".to_owned()
        } else {
            let last = offset + shown;
            let mut footer = format!("Showing objects {}-{last} of {total}.", offset + 1);
            if shown < page.hits.len() {
                footer.push_str(" The output budget ended this page early.");
            }
            if last < page.total || page.truncated {
                let _ = write!(footer, " Continue with offset={last}.");
                value.next_offset = Some(last as u64);
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
        Ok(budgeted_result(body.trim_end(), &footer)?.structured(value))
    }

    /// Checks each filter, then the sort, against the class, so a refusal names the parameter
    /// (and the 1-based filter entry) it is about.
    fn check_against_class(
        &self,
        class: &Described,
        filters: &[FieldFilter],
        sort: Option<&(String, SortOrder)>,
    ) -> Result<(), ToolError> {
        let alone = |filters: Vec<FieldFilter>, sort: Option<(String, SortOrder)>| ObjectQuery {
            class: class.definition.name.clone(),
            document: None,
            filters,
            sort,
        };
        for (index, filter) in filters.iter().enumerate() {
            if let Err(error) = check_query(&class.definition, &alone(vec![filter.clone()], None)) {
                return Err(ToolError::new(format!(
                    "Error: 'filters' entry {} (\"{}\"): {}. Call get_schema with the class for \
                     its fields and types.",
                    index + 1,
                    fragment(&self.filters[index]),
                    agent_reason(&error)
                ))
                .with_kind(ErrorKind::BadArgument));
            }
        }
        if let (Some(sort), Some(text)) = (sort, self.sort.as_deref())
            && let Err(error) =
                check_query(&class.definition, &alone(Vec::new(), Some(sort.clone())))
        {
            return Err(ToolError::new(format!(
                "Error: 'sort' (\"{}\"): {}. Call get_schema with the class for its fields and \
                 types.",
                fragment(text),
                agent_reason(&error)
            ))
            .with_kind(ErrorKind::BadArgument));
        }
        Ok(())
    }

    /// One object's full values: the `number` of `class` on `document`, every selected (or
    /// set) field, texts as numbered lines, nothing capped or joined. A text longer than the
    /// budget left is shown as a window with the `offset` (characters skipped) that continues
    /// it, and the fields after it are named rather than shown.
    async fn full_object(
        &self,
        doors: &Doors,
        class: &str,
        document: &str,
        number: u32,
    ) -> ObjectsResult {
        if !self.filters.is_empty() || self.sort.is_some() || self.limit.is_some() {
            return Err(ToolError::new(
                "Error: 'number' reads one object: drop 'filters', 'sort' and 'limit' (or drop \
                 'number' to query).",
            )
            .with_kind(ErrorKind::BadArgument));
        }
        if self.select.len() > MAX_SELECT {
            return Err(ToolError::new(format!(
                "Error: 'select' takes at most {MAX_SELECT} field names (got {}).",
                self.select.len()
            ))
            .with_kind(ErrorKind::Budget));
        }
        let authorized = doors
            .authorize_known(document, self.wiki.as_deref(), Right::View)
            .await?;
        let wiki = authorized.reference().wiki().as_str().to_owned();
        let class = read_class(doors, class, Some(&wiki)).await?;
        check_select(&class, &self.select)?;
        let read = doors.read_document(&authorized, None).await?;
        let reference = authorized.reference().clone();
        let objects = doors
            .blocking(move |store| store.objects(&reference))
            .await?
            .map_err(|error| store_failure("read the document's objects", &error))?;
        let shown = fragment(&authorized.reference().to_string()).into_owned();
        let Some(object) = objects
            .iter()
            .find(|object| object.class == class.definition.name && object.number == number)
        else {
            let numbers: Vec<String> = objects
                .iter()
                .filter(|object| object.class == class.definition.name)
                .map(|object| object.number.to_string())
                .collect();
            return Err(ToolError::new(format!(
                "Error: {shown} has no {} object number {number} ({}). Call query_objects \
                 document=\"{shown}\" for its inventory.",
                fragment(&class.definition.name),
                if numbers.is_empty() {
                    "it has none of that class".to_owned()
                } else {
                    format!("its numbers: {}", numbers.join(", "))
                }
            ))
            .with_kind(ErrorKind::NotFound));
        };
        let names = field_names(object, &self.select, &class.definition);
        let offset = self.offset;
        if offset > 0 {
            continued_text(object, &names, offset)?;
        }
        let mut body = format!(
            "OBJECT {} number {number} on {shown} (version {}), full values:\n",
            fragment(&class.definition.name),
            read.version
        );
        let mut fields = Vec::with_capacity(names.len());
        let mut footer =
            "Text values are numbered lines: strip the number and TAB before quoting them."
                .to_owned();
        let mut next_offset = None;
        for (at, (name, date_only)) in names.iter().enumerate() {
            let stored = object.values.get(name);
            let mut field = ObjectField::new(name, stored, *date_only, Texts::Whole);
            let whole = stored.map_or_else(
                || " (not set)".to_owned(),
                |value| full_value(value, *date_only),
            );
            let room = VALUES_BUDGET.saturating_sub(shown_len(&body));
            match stored {
                Some(FieldValue::Text(text)) if offset > 0 || shown_len(&whole) > room => {
                    let window = TextWindow::new(text, offset, room);
                    let rest: Vec<&str> = names[at + 1..].iter().map(|(n, _)| n.as_str()).collect();
                    footer = window.footer(name, &rest);
                    next_offset = window.next_offset();
                    field.value = Some(window.text.to_owned());
                    let _ = writeln!(body, "{}:{}", fragment(name), window.shown());
                    fields.push(field);
                    break;
                }
                _ => {
                    let _ = writeln!(body, "{}:{whole}", fragment(name));
                    fields.push(field);
                }
            }
        }
        let mut output = object_output(
            authorized.reference(),
            read.version,
            object,
            &[],
            Texts::Whole,
        );
        output.fields = fields;
        let value = ObjectsOutput {
            wiki,
            class: Some(class.definition.name.clone()),
            objects: vec![output],
            total: 1,
            truncated: false,
            next_offset,
            inventory: Vec::new(),
        };
        Ok(budgeted_result(body.trim_end(), &footer)?.structured(value))
    }

    /// `<ref> (object N, v<version>)` and the shown values, one per line.
    fn hit_lines(&self, hit: &ObjectHit, class: &ClassDefinition) -> String {
        let mut out = format!(
            "{} (object {}, v{})\n",
            fragment(&hit.reference.to_string()),
            hit.object.number,
            hit.version
        );
        for (name, value) in values_shown(&hit.object, &self.select, class, show_value, "(not set)")
        {
            let _ = writeln!(out, "  {}: {value}", fragment(&name));
        }
        out
    }

    /// The objects on one document, grouped by class, without values.
    async fn inventory(&self, doors: &Doors, document: &str) -> ObjectsResult {
        if !self.filters.is_empty()
            || !self.select.is_empty()
            || self.sort.is_some()
            || self.limit.is_some()
            || self.offset > 0
        {
            return Err(ToolError::new(
                "Error: 'filters', 'select', 'sort', 'limit' and 'offset' need 'class'. Give class \
                 to query values, or drop them for the document's inventory (it is not paged).",
            )
            .with_kind(ErrorKind::BadArgument));
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
        let value = ObjectsOutput {
            wiki: authorized.reference().wiki().to_string(),
            class: None,
            objects: Vec::new(),
            total: objects.len() as u64,
            truncated: false,
            next_offset: None,
            inventory: output::inventory(&by_class),
        };
        let footer = "Give class (and document) to read the values.";
        Ok(budgeted_result(body.trim_end(), footer)?.structured(value))
    }
}

/// Parses each filter into the store's closed form; the message names the 1-based entry and
/// says once what a filter reads.
fn parse_filters(filters: &[String]) -> Result<Vec<FieldFilter>, ToolError> {
    filters
        .iter()
        .enumerate()
        .map(|(index, text)| {
            text.parse::<FieldFilter>().map_err(|error| {
                let problem = match &error {
                    StoreError::Invalid(InvalidInput::Keyword { expected, .. }) => {
                        format!("its operator must be one of {expected}")
                    }
                    _ => "it must read <field> <op> <value>".to_owned(),
                };
                ToolError::new(format!(
                    "Error: 'filters' entry {} (\"{}\") is not valid: {problem}, e.g. \
                     \"priority > 2\" or \"title contains plan\".",
                    index + 1,
                    fragment(text),
                ))
                .with_kind(ErrorKind::BadArgument)
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
    .with_kind(ErrorKind::BadArgument)
}

/// Every selected name must be an enabled field of the class.
fn check_select(class: &Described, select: &[String]) -> Result<(), ToolError> {
    for name in select {
        if class.definition.field(name).is_none() {
            return Err(ToolError::new(format!(
                "Error: 'select' names \"{}\", which is not a field of {}. Fields: {}.",
                fragment(name),
                fragment(&class.definition.name),
                single_line(&class.definition.enabled_names().join(", "))
            ))
            .with_kind(ErrorKind::BadArgument));
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
        ))
        .with_kind(ErrorKind::BadArgument),
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
            single_line(&known.join(", "))
        ),
        StoreError::Invalid(InvalidInput::Query { reason }) => fragment(reason).into_owned(),
        StoreError::Invalid(input) => fragment(&input.to_string()).into_owned(),
        other => fragment(&other.to_string()).into_owned(),
    }
}

/// One object's value in full, for [`QueryObjects::full_object`], as it follows `name:`: a text
/// as its numbered lines on the lines after the name (every Unicode line terminator ends a line,
/// nothing is cut), an empty text as `(empty)`, anything else on the name's line.
fn full_value(value: &FieldValue, date_only: bool) -> String {
    match value {
        FieldValue::Text(text) if text.is_empty() => " (empty)".to_owned(),
        FieldValue::Text(text) => format!("\n{}", numbered_whole(text)),
        other => format!(" {}", show_value(other, date_only)),
    }
}

/// The values one object shows, each through `show` (told whether the class declares its field
/// date-only): the selected fields in the order asked (unset ones `unset`), or every set field
/// by name.
fn values_shown(
    object: &ObjectRecord,
    select: &[String],
    class: &ClassDefinition,
    show: fn(&FieldValue, bool) -> String,
    unset: &str,
) -> Vec<(String, String)> {
    field_names(object, select, class)
        .into_iter()
        .map(|(name, date_only)| {
            let value = object
                .values
                .get(&name)
                .map_or_else(|| unset.to_owned(), |value| show(value, date_only));
            (name, value)
        })
        .collect()
}

/// The fields one object shows, each with whether the class declares it date-only: the
/// selected fields in the order asked, or every set field by name.
fn field_names(
    object: &ObjectRecord,
    select: &[String],
    class: &ClassDefinition,
) -> Vec<(String, bool)> {
    let date_only = |name: &str| {
        class
            .field(name)
            .is_some_and(|field| matches!(field.field_type, FieldType::Date { date_only: true }))
    };
    let names: Vec<&String> = if select.is_empty() {
        object.values.keys().collect()
    } else {
        select.iter().collect()
    };
    names
        .into_iter()
        .map(|name| (name.clone(), date_only(name)))
        .collect()
}

/// Shows a TextArea's line breaks inside a one-line value.
const LINE_BREAK_MARK: &str = " ↵ ";

/// One value on one line: text guarded (each line break shown as [`LINE_BREAK_MARK`], so lines
/// are not run together), dates in ISO-8601 UTC (a date-only field's as the date alone, which is
/// all it holds), lists `a|b`, secrets masked.
fn show_value(value: &FieldValue, date_only: bool) -> String {
    match value {
        FieldValue::Text(text) => {
            let text = normalize_line_endings(text);
            let lines: Vec<&str> = split_lines(&text).iter().map(|line| line.text).collect();
            fragment(&lines.join(LINE_BREAK_MARK)).into_owned()
        }
        FieldValue::Integer(number) => number.to_string(),
        FieldValue::Float(number) => number.to_string(),
        FieldValue::Boolean(flag) => flag.to_string(),
        FieldValue::Date(date) if date_only => date.date().to_string(),
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
        assert_eq!(show_value(&FieldValue::Masked, false), "(masked)");
        assert_eq!(
            show_value(
                &FieldValue::Text("a\nobject 9: forged\u{2028}".into()),
                false
            ),
            "a ↵ object 9: forged"
        );
        assert_eq!(
            show_value(
                &FieldValue::Text("one\r\ntwo\u{85}three\u{b}".into()),
                false
            ),
            "one ↵ two ↵ three"
        );
        assert_eq!(
            show_value(&FieldValue::List(vec!["x".into(), "y\n".into()]), false),
            "x|y"
        );
        assert_eq!(show_value(&FieldValue::Boolean(true), false), "true");
    }

    /// Regression: a date-only field printed as a date-time at midnight.
    #[test]
    fn a_date_only_value_reads_as_its_date() {
        let due = FieldValue::Date(time::macros::datetime!(2026-12-01 0:00 UTC));
        assert_eq!(show_value(&due, true), "2026-12-01");
        assert_eq!(show_value(&due, false), "2026-12-01T00:00:00Z");
    }
}
