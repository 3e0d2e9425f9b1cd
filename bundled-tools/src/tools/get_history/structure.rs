//! The object and attachment part of a diff: the lines printed after the text hunks and their
//! structured twin, within a share of the output budget.

use std::fmt::Write as _;

use mcp_runtime::output::budget::MAX_OUTPUT_CHARS;
use mcp_runtime::output::size::human_size;
use wiki_tool_sdk::store::model::structure::{
    FieldChange, StructureChange, StructureComparison, ValueChange,
};
use wiki_tool_sdk::store::model::version::Version;
use wiki_tool_sdk::untrusted::fragment;

use super::output::{
    AttachmentSideOutput, FieldChangeOutput, StructureChangeKind, StructureChangeOutput,
    StructureOutput, StructureStatus,
};

/// The most of the output budget the object and attachment changes may take; the text hunks
/// get the rest.
pub(super) const STRUCTURE_SHARE: usize = MAX_OUTPUT_CHARS / 4;

/// The section as printed (empty when there is nothing to say: no change, or a translation)
/// and as structured.
pub(super) struct Section {
    pub(super) text: String,
    pub(super) output: StructureOutput,
}

/// The section for `comparison` between `from` and `to`.
pub(super) fn section(comparison: &StructureComparison, from: Version, to: Version) -> Section {
    match comparison {
        StructureComparison::NotApplicable => Section {
            text: String::new(),
            output: StructureOutput::new(StructureStatus::NotApplicable),
        },
        StructureComparison::Unrecorded(versions) => {
            let listed = versions
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(" and ");
            let mut output = StructureOutput::new(StructureStatus::Unrecorded);
            output.unrecorded = versions.iter().map(ToString::to_string).collect();
            Section {
                text: format!(
                    "Objects and attachments: not compared. Version {listed} was saved before \
                     revisions recorded objects and attachments, so their changes between {from} \
                     and {to} are unknown (get_document shows the current ones)."
                ),
                output,
            }
        }
        StructureComparison::Compared(changes) => compared(changes, from, to),
    }
}

fn compared(changes: &[StructureChange], from: Version, to: Version) -> Section {
    let mut output = StructureOutput::new(StructureStatus::Compared);
    output.changes_total = changes.len() as u64;
    if changes.is_empty() {
        return Section {
            text: String::new(),
            output,
        };
    }
    let mut text = format!("Objects and attachments changed between {from} and {to}:\n");
    for (index, change) in changes.iter().enumerate() {
        let block = describe(change);
        if text.chars().count() + block.chars().count() > STRUCTURE_SHARE {
            let _ = write!(
                text,
                "[{} more object or attachment change(s) not shown: the diff exceeds its share \
                 of the output cap. Diff closer versions, or read the current ones with get_document.]",
                changes.len() - index
            );
            return Section { text, output };
        }
        text.push_str(&block);
        output.changes.push(change_output(change));
    }
    let trimmed = text.trim_end_matches('\n').len();
    text.truncate(trimmed);
    Section { text, output }
}

/// One change as printed lines, each ending in a newline.
fn describe(change: &StructureChange) -> String {
    let mut out = String::new();
    match change {
        StructureChange::ObjectAdded {
            class,
            number,
            values,
        } => {
            let _ = writeln!(out, "  Object {}[{number}] added", fragment(class));
            fields(&mut out, values);
        }
        StructureChange::ObjectRemoved { class, number } => {
            let _ = writeln!(out, "  Object {}[{number}] removed", fragment(class));
        }
        StructureChange::ObjectChanged {
            class,
            number,
            fields: changed,
        } => {
            let _ = writeln!(out, "  Object {}[{number}] changed", fragment(class));
            fields(&mut out, changed);
        }
        StructureChange::AttachmentAdded {
            name,
            size,
            version,
        } => {
            let _ = writeln!(
                out,
                "  Attachment {} added (version {version}, {})",
                fragment(name),
                size_text(*size)
            );
        }
        StructureChange::AttachmentReplaced { name, old, new } => {
            let _ = writeln!(
                out,
                "  Attachment {} replaced: version {} ({}) -> {} ({})",
                fragment(name),
                old.0,
                size_text(old.1),
                new.0,
                size_text(new.1)
            );
        }
        StructureChange::AttachmentRemoved {
            name,
            size,
            version,
        } => {
            let _ = writeln!(
                out,
                "  Attachment {} removed (was version {version}, {})",
                fragment(name),
                size_text(*size)
            );
        }
    }
    out
}

/// `    field: "old" -> "new"` per field; a Password field says only that it changed.
fn fields(out: &mut String, changes: &[FieldChange]) {
    for change in changes {
        let field = fragment(&change.field);
        match &change.change {
            ValueChange::Secret => {
                let _ = writeln!(out, "    {field}: password changed (never shown)");
            }
            ValueChange::Value { old, new } => {
                let _ = writeln!(out, "    {field}: {} -> {}", shown(old), shown(new));
            }
        }
    }
}

fn shown(value: &Option<String>) -> String {
    match value {
        Some(value) => format!("\"{}\"", fragment(value)),
        None => "(not set)".to_owned(),
    }
}

fn size_text(size: u64) -> String {
    human_size(i64::try_from(size).unwrap_or(i64::MAX))
}

/// One change as the structured output carries it (values guarded as the text shows them).
fn change_output(change: &StructureChange) -> StructureChangeOutput {
    let side = |(version, size): (Version, u64)| AttachmentSideOutput {
        version: version.to_string(),
        size,
    };
    match change {
        StructureChange::ObjectAdded {
            class,
            number,
            values,
        } => {
            StructureChangeOutput::object(StructureChangeKind::ObjectAdded, class, *number, values)
        }
        StructureChange::ObjectRemoved { class, number } => {
            StructureChangeOutput::object(StructureChangeKind::ObjectRemoved, class, *number, &[])
        }
        StructureChange::ObjectChanged {
            class,
            number,
            fields,
        } => StructureChangeOutput::object(
            StructureChangeKind::ObjectChanged,
            class,
            *number,
            fields,
        ),
        StructureChange::AttachmentAdded {
            name,
            size,
            version,
        } => StructureChangeOutput::attachment(
            StructureChangeKind::AttachmentAdded,
            name,
            None,
            Some(side((*version, *size))),
        ),
        StructureChange::AttachmentReplaced { name, old, new } => {
            StructureChangeOutput::attachment(
                StructureChangeKind::AttachmentReplaced,
                name,
                Some(side(*old)),
                Some(side(*new)),
            )
        }
        StructureChange::AttachmentRemoved {
            name,
            size,
            version,
        } => StructureChangeOutput::attachment(
            StructureChangeKind::AttachmentRemoved,
            name,
            Some(side((*version, *size))),
            None,
        ),
    }
}

impl FieldChangeOutput {
    fn new(change: &FieldChange) -> Self {
        let guarded = |value: &Option<String>| value.as_deref().map(|v| fragment(v).into_owned());
        match &change.change {
            ValueChange::Secret => Self {
                field: change.field.clone(),
                password: true,
                old: None,
                new: None,
            },
            ValueChange::Value { old, new } => Self {
                field: change.field.clone(),
                password: false,
                old: guarded(old),
                new: guarded(new),
            },
        }
    }
}

impl StructureChangeOutput {
    fn object(kind: StructureChangeKind, class: &str, number: u32, fields: &[FieldChange]) -> Self {
        Self {
            change: kind,
            class: Some(class.to_owned()),
            number: Some(number),
            attachment: None,
            fields: fields.iter().map(FieldChangeOutput::new).collect(),
            old: None,
            new: None,
        }
    }

    fn attachment(
        kind: StructureChangeKind,
        name: &str,
        old: Option<AttachmentSideOutput>,
        new: Option<AttachmentSideOutput>,
    ) -> Self {
        Self {
            change: kind,
            class: None,
            number: None,
            attachment: Some(name.to_owned()),
            fields: Vec::new(),
            old,
            new,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(text: &str) -> Version {
        text.parse().unwrap_or(Version::FIRST)
    }

    #[test]
    fn an_unrecorded_revision_is_said_never_compared() {
        let section = section(
            &StructureComparison::Unrecorded(vec![v("1.1")]),
            v("1.1"),
            v("1.2"),
        );
        assert_eq!(
            section.text,
            "Objects and attachments: not compared. Version 1.1 was saved before revisions \
             recorded objects and attachments, so their changes between 1.1 and 1.2 are unknown \
             (get_document shows the current ones)."
        );
        assert!(matches!(section.output.status, StructureStatus::Unrecorded));
        assert_eq!(section.output.unrecorded, ["1.1"]);
        assert!(section.output.changes.is_empty());
    }

    #[test]
    fn a_translation_says_nothing() {
        let section = section(&StructureComparison::NotApplicable, v("1.1"), v("1.2"));
        assert_eq!(section.text, "");
    }

    #[test]
    fn changes_past_the_share_are_counted_not_shown() {
        let changes: Vec<StructureChange> = (0..2000)
            .map(|n| StructureChange::ObjectRemoved {
                class: "Big.Class".into(),
                number: n,
            })
            .collect();
        let section = section(&StructureComparison::Compared(changes), v("1.1"), v("1.2"));
        assert!(section.text.chars().count() <= STRUCTURE_SHARE + 300);
        let shown = section.output.changes.len();
        assert!(shown > 0 && shown < 2000);
        assert!(section.text.ends_with(&format!(
            "[{} more object or attachment change(s) not shown: the diff exceeds its share of \
             the output cap. Diff closer versions, or read the current ones with get_document.]",
            2000 - shown
        )));
        assert_eq!(section.output.changes_total, 2000);
    }
}
