//! Questions asked on a call's event stream, and the answers POSTed back to them: how a call on
//! protocol 2025-11-25 (or earlier) over HTTP asks the person behind its client.
//!
//! A call of an asking session (`asking_session.rs`) that must confirm a write sends
//! `elicitation/create` on its own SSE response (`direct.rs`) and waits; the client answers
//! with a JSON-RPC response in a POST of its own, which no session ties to the call. The call
//! waits in this replica's registry under (the credential of its request: wiki and token, as
//! for cancellations in `in_flight.rs`; the session; the question's JSON-RPC id), and the POST
//! is delivered to the slot of the same three, then answered 202.
//!
//! An answer that finds no slot is refused (409, `answer-unexpected`) and changes nothing: a
//! second answer, one that arrives after its call gave up or ended, one with another id,
//! session or token, and one sent to another replica than the call's (a load balancer must
//! send a session's requests to one replica). The call it was meant for gets no answer and
//! ends, at the latest at its time limit, refused with nothing written. An answer whose result
//! is no elicitation result is refused 400 (`answer-malformed`) and its call keeps waiting.
//!
//! A wait is bounded by the patience the call gives it (what is left of its time limit), and
//! its slot leaves the registry when the wait ends, however it ends.

use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use mcp_runtime::elicit::{Answer, AskFailed, AskRelay};
use parking_lot::Mutex;
use rmcp::model::{
    ElicitRequest, ElicitRequestParams, ElicitResult, ErrorData, RequestId, ServerJsonRpcMessage,
    ServerRequest,
};
use serde::Deserialize;
use serde_json::Value;
use tokio::sync::{mpsc, oneshot};

use super::asking_session::AskingSession;
use super::in_flight::Credential;
use super::refusal::Refusal;

/// Where an answer goes: who may give it, in which session, to which question.
#[derive(PartialEq, Eq, Hash)]
struct Slot {
    credential: Credential,
    session: AskingSession,
    id: RequestId,
}

/// What the client sent back: its result, or the error it answered with.
type Reply = Result<ElicitResult, ErrorData>;

/// This replica's questions waiting for an answer.
#[derive(Default)]
pub(crate) struct Answers {
    waiting: Mutex<HashMap<Slot, oneshot::Sender<Reply>>>,
    serial: AtomicU64,
}

impl Answers {
    /// Opens a slot for a new question of `credential` in `session`: its JSON-RPC id, where
    /// the answer arrives, and the guard that closes the slot.
    fn open(
        self: &Arc<Self>,
        credential: Credential,
        session: &AskingSession,
    ) -> (RequestId, oneshot::Receiver<Reply>, Waiting) {
        let serial = self.serial.fetch_add(1, Ordering::Relaxed);
        let id = RequestId::String(format!("wiki-mcp-question-{serial}").into());
        let (sender, receiver) = oneshot::channel();
        let slot = Slot {
            credential,
            session: session.clone(),
            id: id.clone(),
        };
        self.waiting.lock().insert(
            Slot {
                credential,
                session: session.clone(),
                id: id.clone(),
            },
            sender,
        );
        let waiting = Waiting {
            answers: Arc::clone(self),
            slot,
        };
        (id, receiver, waiting)
    }

    /// Hands `answer`, POSTed by `credential` in `session`, to the question waiting for it.
    pub(crate) fn deliver(
        &self,
        credential: Credential,
        session: Option<AskingSession>,
        answer: ClientAnswer,
    ) -> Result<(), Refusal> {
        let reply = match (answer.result, answer.error) {
            (Some(result), None) => Ok(serde_json::from_value::<ElicitResult>(result)
                .map_err(|_| Refusal::AnswerMalformed)?),
            (None, Some(error)) => Err(error),
            _ => return Err(Refusal::AnswerMalformed),
        };
        let Some(session) = session else {
            return Err(Refusal::AnswerUnexpected);
        };
        let slot = Slot {
            credential,
            session,
            id: answer.id,
        };
        let sender = self
            .waiting
            .lock()
            .remove(&slot)
            .ok_or(Refusal::AnswerUnexpected)?;
        // The wait ended between the lookup and now: as late as any other late answer.
        sender.send(reply).map_err(|_| Refusal::AnswerUnexpected)
    }

    #[cfg(test)]
    fn len(&self) -> usize {
        self.waiting.lock().len()
    }
}

/// A question's slot, closed when its wait ends (answered, timed out, or the call dropped).
struct Waiting {
    answers: Arc<Answers>,
    slot: Slot,
}

impl Drop for Waiting {
    fn drop(&mut self) {
        self.answers.waiting.lock().remove(&self.slot);
    }
}

/// A JSON-RPC response POSTed by a client: `{"jsonrpc": "2.0", "id", "result" | "error"}`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ClientAnswer {
    jsonrpc: String,
    id: RequestId,
    #[serde(default)]
    result: Option<Value>,
    #[serde(default)]
    error: Option<ErrorData>,
}

impl ClientAnswer {
    /// `body` as a client's JSON-RPC response, if it is one (a request, a notification or a
    /// batch is not).
    pub(crate) fn parse(body: &[u8]) -> Option<Self> {
        serde_json::from_slice::<ClientAnswer>(body)
            .ok()
            .filter(|answer| answer.jsonrpc == "2.0")
    }
}

/// Asks on one call's event stream: what `direct.rs` gives a call of an asking session.
pub(crate) struct StreamAsk {
    pub(crate) answers: Arc<Answers>,
    pub(crate) credential: Credential,
    pub(crate) session: AskingSession,
    /// The call's event stream (its messages go out before its result).
    pub(crate) stream: mpsc::UnboundedSender<ServerJsonRpcMessage>,
}

impl AskRelay for StreamAsk {
    fn ask(
        &self,
        question: ElicitRequestParams,
        patience: Duration,
    ) -> Pin<Box<dyn Future<Output = Result<Answer, AskFailed>> + Send + '_>> {
        Box::pin(async move {
            let (id, answer, _waiting) = self.answers.open(self.credential, &self.session);
            let request = ServerRequest::ElicitRequest(ElicitRequest::new(question));
            if self
                .stream
                .send(ServerJsonRpcMessage::request(request, id))
                .is_err()
            {
                return Err(AskFailed::new("the call's event stream is closed"));
            }
            match tokio::time::timeout(patience, answer).await {
                Err(_) => Err(AskFailed::timed_out()),
                Ok(Err(_)) => Err(AskFailed::new("the question's slot closed")),
                Ok(Ok(Ok(result))) => Ok(Answer::from(result.action)),
                Ok(Ok(Err(error))) => Err(AskFailed::new(format!(
                    "the client answered with an error: {}",
                    error.message
                ))),
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use http::{HeaderMap, HeaderValue};
    use mcp_runtime::elicit::yes_no_question;
    use wiki_store::model::wiki::WikiId;

    use super::*;
    use crate::http::asking_session::SESSION_HEADER;

    fn credential(token: &str) -> Credential {
        Credential::new(
            &WikiId::new("main").unwrap_or_else(|e| panic!("{e}")),
            token,
        )
    }

    fn session(id: &'static str) -> AskingSession {
        let mut headers = HeaderMap::new();
        headers.insert(SESSION_HEADER, HeaderValue::from_static(id));
        AskingSession::of_request(&headers).unwrap_or_else(|| panic!("{id} is a session"))
    }

    const ONE: &str = "ask-00000000000000000000000000000001";
    const TWO: &str = "ask-00000000000000000000000000000002";

    fn answer(id: &str, action: &str) -> ClientAnswer {
        ClientAnswer::parse(
            format!(r#"{{"jsonrpc":"2.0","id":"{id}","result":{{"action":"{action}"}}}}"#)
                .as_bytes(),
        )
        .unwrap_or_else(|| panic!("an answer"))
    }

    /// Asks one question through a relay of `token` in `session`; returns the question's id
    /// and the pending answer.
    async fn ask(
        answers: &Arc<Answers>,
        token: &str,
        session: AskingSession,
        patience: Duration,
    ) -> (String, tokio::task::JoinHandle<Result<Answer, AskFailed>>) {
        let (stream, mut questions) = mpsc::unbounded_channel();
        let relay = StreamAsk {
            answers: Arc::clone(answers),
            credential: credential(token),
            session,
            stream,
        };
        let pending =
            tokio::spawn(async move { relay.ask(yes_no_question("May I?"), patience).await });
        let question = questions
            .recv()
            .await
            .unwrap_or_else(|| panic!("no question"));
        let value = serde_json::to_value(&question).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(value["method"], "elicitation/create", "{value}");
        assert_eq!(value["params"]["message"], "May I?", "{value}");
        let id = value["id"].as_str().unwrap_or_default().to_owned();
        (id, pending)
    }

    #[tokio::test]
    async fn an_answer_reaches_only_its_question_and_only_once() {
        let answers = Arc::new(Answers::default());
        let (id, pending) = ask(&answers, "alice", session(ONE), Duration::from_secs(60)).await;
        for (token, in_session, answer_id) in [
            ("bob", ONE, id.as_str()),
            ("alice", TWO, id.as_str()),
            ("alice", ONE, "wiki-mcp-question-999"),
        ] {
            let refused = answers.deliver(
                credential(token),
                Some(session(in_session)),
                answer(answer_id, "accept"),
            );
            assert!(matches!(refused, Err(Refusal::AnswerUnexpected)));
        }
        let refused = answers.deliver(credential("alice"), None, answer(&id, "accept"));
        assert!(matches!(refused, Err(Refusal::AnswerUnexpected)));
        let malformed = ClientAnswer::parse(
            format!(r#"{{"jsonrpc":"2.0","id":"{id}","result":{{"action":"maybe"}}}}"#).as_bytes(),
        )
        .unwrap_or_else(|| panic!("a response"));
        let refused = answers.deliver(credential("alice"), Some(session(ONE)), malformed);
        assert!(matches!(refused, Err(Refusal::AnswerMalformed)));
        assert!(!pending.is_finished(), "a refused answer ended the wait");

        let delivered = answers.deliver(
            credential("alice"),
            Some(session(ONE)),
            answer(&id, "decline"),
        );
        assert!(delivered.is_ok());
        let answered = pending.await.unwrap_or_else(|e| panic!("{e}"));
        assert!(matches!(answered, Ok(Answer::Declined)), "{answered:?}");
        assert_eq!(answers.len(), 0);
        let again = answers.deliver(
            credential("alice"),
            Some(session(ONE)),
            answer(&id, "accept"),
        );
        assert!(
            matches!(again, Err(Refusal::AnswerUnexpected)),
            "answered twice"
        );
    }

    #[tokio::test]
    async fn a_late_answer_is_refused_after_the_wait_timed_out() {
        let answers = Arc::new(Answers::default());
        let (id, pending) = ask(&answers, "alice", session(ONE), Duration::from_millis(200)).await;
        let outcome = pending.await.unwrap_or_else(|e| panic!("{e}"));
        assert!(
            outcome.as_ref().is_err_and(AskFailed::is_timeout),
            "{outcome:?}"
        );
        assert_eq!(answers.len(), 0, "the slot outlived its wait");
        let late = answers.deliver(
            credential("alice"),
            Some(session(ONE)),
            answer(&id, "accept"),
        );
        assert!(matches!(late, Err(Refusal::AnswerUnexpected)));
    }

    #[test]
    fn only_a_response_is_an_answer() {
        for body in [
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{}}"#,
            r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}"#,
            r#"[{"jsonrpc":"2.0","id":1,"result":{"action":"accept"}}]"#,
            r#"{"jsonrpc":"1.0","id":1,"result":{"action":"accept"}}"#,
        ] {
            assert!(ClientAnswer::parse(body.as_bytes()).is_none(), "{body}");
        }
        assert!(
            ClientAnswer::parse(br#"{"jsonrpc":"2.0","id":1,"error":{"code":-1,"message":"no"}}"#)
                .is_some()
        );
    }
}
