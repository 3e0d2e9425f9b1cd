//! The last step of every call: a tool's result as the agent may read it. Every text and
//! every string of the structured content goes through [`wiki_tool_sdk::untrusted::escape`], so no
//! character a person cannot see reaches the model, whichever tool (bundled or contributed)
//! produced it; when any was escaped, the result's first line says how many and what the
//! escape means, once.

use std::borrow::Cow;

use rmcp::model::{CallToolResult, ContentBlock, ResourceContents};
use serde_json::Value;
use wiki_tool_sdk::untrusted::{escape, escape_counted, note};

/// Escapes `result` in place (see the module doc).
pub(crate) fn show(result: &mut CallToolResult) {
    let mut in_text = 0usize;
    for block in &mut result.content {
        let texts: Vec<&mut String> = match block {
            ContentBlock::Text(content) => vec![&mut content.text],
            ContentBlock::Resource(embedded) => match &mut embedded.resource {
                ResourceContents::TextResourceContents { text, .. } => vec![text],
                // Blobs are bytes, not text a model reads as such.
                _ => continue,
            },
            ContentBlock::ResourceLink(link) => std::iter::once(&mut link.name)
                .chain(link.title.as_mut())
                .chain(link.description.as_mut())
                .collect(),
            // Images and audio carry no text (the enum is non-exhaustive: new kinds too).
            _ => continue,
        };
        for text in texts {
            let (escaped, count) = escape_counted(text);
            if count > 0 {
                *text = escaped.into_owned();
                in_text += count;
            }
        }
    }
    let in_structured = result.structured_content.as_mut().map_or(0, escape_json);
    // The text is what the model reads; the structured content mostly repeats it for programs,
    // so its escapes are counted only when the text shows none.
    let line = match (in_text, in_structured) {
        (0, 0) => return,
        (0, count) => note(count, true),
        (count, _) => note(count, false),
    };
    match result.content.iter_mut().find_map(|block| match block {
        ContentBlock::Text(content) => Some(content),
        _ => None,
    }) {
        Some(first) => first.text = format!("{line}\n{}", first.text),
        None => result.content.insert(0, ContentBlock::text(line)),
    }
}

/// Escapes every string of `value` (object keys included) in place, as [`escape`] does, and
/// returns how many characters it showed as escapes.
fn escape_json(value: &mut Value) -> usize {
    match value {
        Value::String(text) => {
            let (escaped, count) = escape_counted(text);
            if let Cow::Owned(escaped) = escaped {
                *text = escaped;
            }
            count
        }
        Value::Array(items) => items.iter_mut().map(escape_json).sum(),
        Value::Object(map) => {
            let mut count = 0;
            if map.keys().any(|key| matches!(escape(key), Cow::Owned(_))) {
                let entries = std::mem::take(map);
                for (key, item) in entries {
                    let (key, escaped) = escape_counted(&key);
                    count += escaped;
                    map.insert(key.into_owned(), item);
                }
            }
            count + map.values_mut().map(escape_json).sum::<usize>()
        }
        Value::Null | Value::Bool(_) | Value::Number(_) => 0,
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn json_strings_and_keys_are_escaped() {
        let mut value =
            json!({"title": "x\u{200B}", "values": {"k\u{202E}": ["\u{E0041}"]}, "n": 1});
        assert_eq!(escape_json(&mut value), 3);
        assert_eq!(
            value,
            json!({"title": "x⟦U+200B⟧", "values": {"k⟦U+202E⟧": ["⟦U+E0041⟧"]}, "n": 1})
        );
    }
}
