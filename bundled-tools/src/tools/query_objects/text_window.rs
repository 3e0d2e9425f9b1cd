//! One object's long text value, read in windows (`query_objects number=`): the characters
//! from `offset` that fit the budget left, as numbered lines, and the `offset` that continues
//! it, so a value of any length can be read whole and the result stays within its budget.

use wiki_tool_sdk::prelude::*;
use wiki_tool_sdk::store::model::object::{FieldValue, ObjectRecord};
use wiki_tool_sdk::untrusted::{fragment, shown_len};

use crate::seams::window::numbered_whole;

/// A window of a text value.
pub(super) struct TextWindow<'a> {
    /// The window's characters, as stored.
    pub(super) text: &'a str,
    /// Characters before the window.
    start: usize,
    /// Characters up to the window's end.
    end: usize,
    /// Characters of the whole value.
    total: usize,
}

impl<'a> TextWindow<'a> {
    /// The characters of `text` from `offset` whose numbered form fits in `room` characters as
    /// shown, ending after a line break when one falls in the window's second half.
    pub(super) fn new(text: &'a str, offset: usize, room: usize) -> Self {
        let total = text.chars().count();
        let start = offset.min(total);
        let byte_at = |chars: usize| {
            text.char_indices()
                .nth(chars)
                .map_or(text.len(), |(byte, _)| byte)
        };
        let from = byte_at(start);
        let fits = |chars: usize| {
            let to = byte_at(start + chars);
            shown_len(&numbered_whole(&text[from..to])) + 120 <= room
        };
        // The longest run that fits: the numbered form grows with every character.
        let (mut low, mut high) = (0, total - start);
        while low < high {
            let middle = (low + high).div_ceil(2);
            if fits(middle) {
                low = middle;
            } else {
                high = middle - 1;
            }
        }
        let mut end = start + low;
        if end < total
            && let Some(line_end) = text[from..byte_at(end)].rfind('\n')
        {
            let at = start + text[from..from + line_end].chars().count() + 1;
            if (at - start) * 2 > low {
                end = at;
            }
        }
        Self {
            text: &text[from..byte_at(end)],
            start,
            end,
            total,
        }
    }

    /// What follows the field's name in the text: the range shown and its numbered lines.
    pub(super) fn shown(&self) -> String {
        if self.end == self.start {
            return " (not shown: no room left in this output)".to_owned();
        }
        format!(
            " (characters {}-{} of {}, lines numbered from this window's start)\n{}",
            self.start + 1,
            self.end,
            self.total,
            numbered_whole(self.text)
        )
    }

    /// The offset that continues the value; `None` once the window reaches its end.
    pub(super) fn next_offset(&self) -> Option<u64> {
        (self.end < self.total).then_some(self.end as u64)
    }

    /// The footer: where the value continues, and the fields after it left unshown.
    pub(super) fn footer(&self, name: &str, rest: &[&str]) -> String {
        let name = fragment(name);
        let mut footer = if self.end < self.total {
            format!(
                "{name} is shown to character {} of {}: continue with select=[\"{name}\"] \
                 offset={}.",
                self.end, self.total, self.end
            )
        } else {
            format!("{name} is shown to its end (character {}).", self.total)
        };
        if !rest.is_empty() {
            let rest: Vec<String> = rest
                .iter()
                .map(|name| format!("\"{}\"", fragment(name)))
                .collect();
            footer.push_str(&format!(
                " Not shown: read them with select=[{}].",
                rest.join(", ")
            ));
        }
        footer
            .push_str(" Text values are numbered lines: strip the number and TAB before quoting.");
        footer
    }
}

/// Refuses an `offset` that does not continue one text value of `object`: it needs exactly one
/// selected field, holding text, longer than the offset.
pub(super) fn continued_text(
    object: &ObjectRecord,
    names: &[(String, bool)],
    offset: usize,
) -> Result<(), ToolError> {
    let [(name, _)] = names else {
        return Err(ToolError::new(
            "Error: 'offset' with 'number' continues one text value: select that field alone, \
             e.g. select=[\"notes\"] offset=24000 (the footer names both).",
        )
        .with_kind(ErrorKind::BadArgument));
    };
    let shown = fragment(name);
    match object.values.get(name) {
        Some(FieldValue::Text(text)) => {
            let total = text.chars().count();
            if offset < total {
                Ok(())
            } else {
                Err(ToolError::new(format!(
                    "Error: 'offset' {offset} is past the end of {shown} ({total} characters); \
                     drop offset to read it from the start."
                ))
                .with_kind(ErrorKind::BadArgument))
            }
        }
        _ => Err(ToolError::new(format!(
            "Error: 'offset' with 'number' reads on in a text value, and {shown} holds none: \
             drop offset."
        ))
        .with_kind(ErrorKind::BadArgument)),
    }
}
