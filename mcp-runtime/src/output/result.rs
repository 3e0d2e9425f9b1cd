//! Text and error results, the two shapes a tool returns.

use super::budget::budgeted;
use crate::tool::{ToolError, ToolOutput, ToolResult};

/// A successful text result.
pub fn text_result(text: impl Into<String>) -> ToolResult {
    Ok(ToolOutput::text(text))
}

/// A successful text result whose body is cut to the output budget, with `footer` (paging or
/// `offset=` advice) appended after the cut so it always survives.
pub fn budgeted_result(body: &str, footer: &str) -> ToolResult {
    let mut text = budgeted(body).into_owned();
    if !footer.is_empty() {
        text.push('\n');
        text.push_str(footer);
    }
    Ok(ToolOutput::text(text))
}

/// An error result (`isError: true`) whose message the agent reads; say what to do instead.
pub fn error_result(message: impl Into<String>) -> ToolResult {
    Err(ToolError::new(message))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::output::budget::{MAX_OUTPUT_CHARS, TRUNCATION_NOTE};
    use crate::tool::ContentBlock;

    fn text_of(result: ToolResult) -> String {
        match result.map(|output| output.content) {
            Ok(blocks) => match blocks.as_slice() {
                [ContentBlock::Text(text)] => text.clone(),
                other => panic!("expected one text block, got {other:?}"),
            },
            Err(error) => panic!("expected a text result, got {error}"),
        }
    }

    #[test]
    fn footer_survives_the_cut() {
        let body = "line\n".repeat(MAX_OUTPUT_CHARS);
        let text = text_of(budgeted_result(&body, "Showing 1-10 of 99."));
        assert!(text.ends_with(&format!("{TRUNCATION_NOTE}\nShowing 1-10 of 99.")));
        assert_eq!(text_of(budgeted_result("a", "")), "a");
        assert_eq!(text_of(text_result("ok")), "ok");
    }

    #[test]
    fn error_result_carries_the_message() {
        assert_eq!(
            error_result("Error: no such page.").map_err(|e| e.message().to_owned()),
            Err("Error: no such page.".to_owned())
        );
    }
}
