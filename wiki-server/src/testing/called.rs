//! What one call returned, as a test reads it.

use rmcp::ErrorData;
use rmcp::model::CallToolResult;
use serde_json::Value;

/// The outcome of one `tools/call` through [`Manager::call`](crate::Manager::call): a result
/// (which may be an `isError` result: the tool's refusal, a bad argument, a timeout) or a
/// JSON-RPC refusal (a tool the caller cannot use, an unknown wiki).
#[derive(Debug, Clone)]
pub struct Called {
    tool: String,
    outcome: Result<CallToolResult, ErrorData>,
    questions: Vec<String>,
}

impl Called {
    pub(super) fn new(tool: &str, outcome: Result<CallToolResult, ErrorData>) -> Self {
        Self {
            tool: tool.to_owned(),
            outcome,
            questions: Vec::new(),
        }
    }

    pub(super) fn with_questions(mut self, questions: Vec<String>) -> Self {
        self.questions = questions;
        self
    }

    /// The confirmation questions the call put to the caller's person, in order (none unless
    /// the caller was made with [`As::answering`](super::As::answering)).
    pub fn questions(&self) -> &[String] {
        &self.questions
    }

    /// The result, or the JSON-RPC error, exactly as the transport would send it.
    pub fn outcome(&self) -> &Result<CallToolResult, ErrorData> {
        &self.outcome
    }

    /// The whole result; panics on a JSON-RPC refusal, with its message.
    #[track_caller]
    pub fn result(&self) -> &CallToolResult {
        match &self.outcome {
            Ok(result) => result,
            Err(refusal) => panic!("`{}` was refused: {}", self.tool, refusal.message),
        }
    }

    /// Whether the call failed: an `isError` result or a JSON-RPC refusal.
    pub fn is_error(&self) -> bool {
        match &self.outcome {
            Ok(result) => result.is_error == Some(true),
            Err(_) => true,
        }
    }

    /// `Ok(text)` of a successful result, `Err(text)` of an `isError` result or of a JSON-RPC
    /// refusal (its message). Panics unless a result is exactly one text block (see
    /// [`Called::texts`] for others).
    #[track_caller]
    pub fn text(&self) -> Result<String, String> {
        let result = match &self.outcome {
            Ok(result) => result,
            Err(refusal) => return Err(refusal.message.clone().into_owned()),
        };
        let text = match self.texts().as_slice() {
            [text] if result.content.len() == 1 => (*text).to_owned(),
            _ => panic!(
                "`{}` did not return one text block: {:?}",
                self.tool, result.content
            ),
        };
        if result.is_error == Some(true) {
            Err(text)
        } else {
            Ok(text)
        }
    }

    /// The text of a successful call; panics with the error a failing one returned.
    #[track_caller]
    pub fn expect_text(&self) -> String {
        self.text().unwrap_or_else(|error| {
            panic!("`{}`: expected a result, got the error: {error}", self.tool)
        })
    }

    /// The error text of a failed call; panics with the output a successful one returned.
    #[track_caller]
    pub fn expect_error(&self) -> String {
        match self.text() {
            Ok(text) => panic!("`{}`: expected an error, got:\n{text}", self.tool),
            Err(error) => error,
        }
    }

    /// The text of every text block of a result, in order (none for a refusal).
    pub fn texts(&self) -> Vec<&str> {
        match &self.outcome {
            Ok(result) => result
                .content
                .iter()
                .filter_map(|block| block.as_text().map(|text| text.text.as_str()))
                .collect(),
            Err(_) => Vec::new(),
        }
    }

    /// The result's `structuredContent`, if the tool returned any.
    pub fn structured(&self) -> Option<&Value> {
        self.outcome.as_ref().ok()?.structured_content.as_ref()
    }
}
