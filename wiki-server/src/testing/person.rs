//! The person behind a test caller's client: answers every confirmation question the same way
//! and remembers the questions, so a test can assert what a person would have read.

use std::future::Future;
use std::pin::Pin;
use std::sync::{Mutex, PoisonError};
use std::time::Duration;

use mcp_runtime::elicit::{Answer, AskFailed, AskRelay};
use rmcp::model::ElicitRequestParams;

/// One call's person: answers `answer` to each question and keeps its text.
#[derive(Debug)]
pub(super) struct Person {
    answer: Answer,
    asked: Mutex<Vec<String>>,
}

impl Person {
    pub(super) fn answering(answer: Answer) -> Self {
        Self {
            answer,
            asked: Mutex::new(Vec::new()),
        }
    }

    /// The questions asked so far, in order.
    pub(super) fn asked(&self) -> Vec<String> {
        self.asked
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }
}

impl AskRelay for Person {
    fn ask(
        &self,
        question: ElicitRequestParams,
        _patience: Duration,
    ) -> Pin<Box<dyn Future<Output = Result<Answer, AskFailed>> + Send + '_>> {
        let text = match question {
            ElicitRequestParams::FormElicitationParams { message, .. }
            | ElicitRequestParams::UrlElicitationParams { message, .. } => message,
            // A kind of question a later protocol adds: recorded as such.
            other => format!("{other:?}"),
        };
        self.asked
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(text);
        let answer = self.answer;
        Box::pin(async move { Ok(answer) })
    }
}
