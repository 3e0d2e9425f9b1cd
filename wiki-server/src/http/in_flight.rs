//! The calls in flight on this replica, so that a `notifications/cancelled` POST reaches the
//! call it names.
//!
//! The HTTP transport is stateless: a client on protocol 2025-11-25 (or earlier) cancels a call
//! by POSTing `notifications/cancelled` with the call's JSON-RPC id while the call's own POST is
//! still open, and no session ties the two requests. JSON-RPC ids are chosen by the client, so
//! they repeat across clients (every client counts from 0 or 1) and must be scoped to whoever
//! may cancel: here, the credential that authenticated the request on that wiki. A call is
//! registered under (a SHA-256 digest of the wiki and the bearer token, the request id) for as
//! long as it runs, by the direct answer (`direct.rs`) and by rmcp's handler (`handler.rs`, with
//! rmcp's per-request token); the notification cancels what is registered under its own
//! credential's key. Only the holder of the same token can cancel a call, and only on the wiki
//! it was made on; a cancel naming an id nothing runs under is ignored, as the spec asks.
//!
//! What is not covered, on purpose:
//!
//! - The guest: requests without credentials share one identity, so a guest's cancel cannot be
//!   tied to one caller's call. Guests are not registered; their calls stop when the client
//!   hangs up or at the timeout.
//! - Other replicas: the registry is this process's memory. A cancel that a load balancer sends
//!   to another replica than the call's is answered 202 there and has no effect; the call stops
//!   when its client hangs up or at the timeout.
//! - A credential that changed between the call and the cancel (an OIDC access token refreshed
//!   meanwhile): a different token is a different caller here.
//! - Two clients sharing one token that both have a call with the same id in flight: the cancel
//!   cannot tell them apart and cancels both.
//! - Protocol 2026-07-28 requests, whose cancellation signal over HTTP is the client
//!   disconnecting.
//!
//! The cancelled call ends as any cancelled call does: its token fires, the call path answers
//! "cancelled", the store statement is interrupted, the audit says `cancelled`. Its still-open
//! POST receives that answer (the spec lets the server skip it, and the client ignores it), so
//! the request ends instead of waiting for its client to give up.
//!
//! Cost on the hot path: one SHA-256 of the token per authenticated request (the gate), and per
//! call one insert and one remove in a shard's map under a plain mutex; the key is 32 bytes and
//! the request id (an integer, or a reference-counted string), nothing else is allocated.

use std::collections::HashMap;
use std::collections::hash_map::{Entry, RandomState};
use std::hash::BuildHasher;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use parking_lot::Mutex;
use rmcp::model::RequestId;
use serde::Deserialize;
use sha2::{Digest, Sha256};
use tokio_util::sync::CancellationToken;
use wiki_store::model::wiki::WikiId;

/// Shards of the registry: concurrent calls take different locks.
const SHARDS: usize = 16;

/// Who may cancel: a digest of the wiki and the bearer token that authenticated a request.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct Credential([u8; 32]);

impl Credential {
    /// The credential of `token` presented on `wiki`.
    pub(crate) fn new(wiki: &WikiId, token: &str) -> Self {
        let mut digest = Sha256::new();
        digest.update(wiki.as_str().as_bytes());
        // Wiki ids never contain a NUL: the boundary is unambiguous.
        digest.update([0]);
        digest.update(token.as_bytes());
        Credential(digest.finalize().into())
    }
}

impl std::fmt::Debug for Credential {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Credential(..)")
    }
}

#[derive(PartialEq, Eq, Hash)]
struct Key {
    credential: Credential,
    id: RequestId,
}

/// The calls under one key: nearly always one.
enum Calls {
    One(u64, CancellationToken),
    Many(Vec<(u64, CancellationToken)>),
}

/// This replica's calls in flight, by credential and request id.
pub(crate) struct InFlight {
    shards: [Mutex<HashMap<Key, Calls>>; SHARDS],
    hasher: RandomState,
    serial: AtomicU64,
}

impl Default for InFlight {
    fn default() -> Self {
        InFlight {
            shards: std::array::from_fn(|_| Mutex::new(HashMap::new())),
            hasher: RandomState::new(),
            serial: AtomicU64::new(0),
        }
    }
}

impl InFlight {
    fn shard(&self, key: &Key) -> &Mutex<HashMap<Key, Calls>> {
        // The modulo keeps the index below SHARDS, so the truncation to usize cannot matter.
        let index = (self.hasher.hash_one(key) % SHARDS as u64) as usize;
        &self.shards[index]
    }

    /// Registers `token` under `credential` and `id` until the returned guard drops.
    fn register(
        self: &Arc<Self>,
        credential: Credential,
        id: RequestId,
        token: CancellationToken,
    ) -> Registration {
        let serial = self.serial.fetch_add(1, Ordering::Relaxed);
        let key = Key { credential, id };
        let shard = self.shard(&key);
        let kept = Key {
            credential,
            id: key.id.clone(),
        };
        match shard.lock().entry(key) {
            Entry::Vacant(vacant) => {
                vacant.insert(Calls::One(serial, token));
            }
            Entry::Occupied(mut occupied) => {
                let calls = occupied.get_mut();
                match calls {
                    Calls::One(first, first_token) => {
                        *calls = Calls::Many(vec![(*first, first_token.clone()), (serial, token)]);
                    }
                    Calls::Many(list) => list.push((serial, token)),
                }
            }
        }
        Registration {
            registry: Arc::clone(self),
            key: kept,
            serial,
        }
    }

    fn unregister(&self, key: &Key, serial: u64) {
        let mut shard = self.shard(key).lock();
        let Some(calls) = shard.get_mut(key) else {
            return;
        };
        let empty = match calls {
            Calls::One(one, _) => *one == serial,
            Calls::Many(list) => {
                list.retain(|(each, _)| *each != serial);
                list.is_empty()
            }
        };
        if empty {
            shard.remove(key);
        }
    }

    /// Cancels the calls registered under `credential` and `id`; how many there were.
    fn cancel(&self, credential: Credential, id: RequestId) -> usize {
        let key = Key { credential, id };
        let shard = self.shard(&key).lock();
        match shard.get(&key) {
            None => 0,
            Some(Calls::One(_, token)) => {
                token.cancel();
                1
            }
            Some(Calls::Many(list)) => {
                for (_, token) in list {
                    token.cancel();
                }
                list.len()
            }
        }
    }

    #[cfg(test)]
    fn len(&self) -> usize {
        self.shards.iter().map(|shard| shard.lock().len()).sum()
    }
}

/// A call's entry in the registry, removed on drop (the call finished, failed, timed out,
/// panicked, or its future was dropped because the client went away).
pub(crate) struct Registration {
    registry: Arc<InFlight>,
    key: Key,
    serial: u64,
}

impl Drop for Registration {
    fn drop(&mut self) {
        self.registry.unregister(&self.key, self.serial);
    }
}

/// What the identity gate gives an authenticated request: the registry and the request's
/// credential, in the request's extensions. Requests without credentials get none.
#[derive(Clone)]
pub(crate) struct CancelScope {
    registry: Arc<InFlight>,
    credential: Credential,
}

impl CancelScope {
    pub(crate) fn new(registry: &Arc<InFlight>, credential: Credential) -> Self {
        CancelScope {
            registry: Arc::clone(registry),
            credential,
        }
    }

    /// Lets a `notifications/cancelled` from this credential cancel `token` while the guard
    /// lives.
    pub(crate) fn register(&self, id: RequestId, token: CancellationToken) -> Registration {
        self.registry.register(self.credential, id, token)
    }

    /// Who this scope's requests come from.
    pub(crate) fn credential(&self) -> Credential {
        self.credential
    }

    /// If `body` is a `notifications/cancelled` notification, cancels the call it names when
    /// one runs under this credential. The POST is answered as before (202) either way.
    pub(crate) fn hear(&self, body: &[u8]) {
        let Some(notice) = CancelNotice::parse(body) else {
            return;
        };
        let id = notice.params.request_id;
        let cancelled = self.registry.cancel(self.credential, id.clone());
        tracing::debug!(id = ?id, cancelled, "notifications/cancelled over HTTP");
    }
}

/// `{"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId", ..}}`: a
/// notification (no `id`); params may carry a `reason` or `_meta`, which do not matter here.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CancelNotice<'a> {
    jsonrpc: &'a str,
    method: &'a str,
    params: CancelParams,
}

#[derive(Deserialize)]
struct CancelParams {
    #[serde(rename = "requestId")]
    request_id: RequestId,
}

impl CancelNotice<'_> {
    fn parse(body: &[u8]) -> Option<CancelNotice<'_>> {
        serde_json::from_slice::<CancelNotice<'_>>(body)
            .ok()
            .filter(|notice| notice.jsonrpc == "2.0" && notice.method == "notifications/cancelled")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn credential(wiki: &str, token: &str) -> Credential {
        Credential::new(&WikiId::new(wiki).unwrap_or_else(|e| panic!("{e}")), token)
    }

    fn notice(id: &str) -> String {
        format!(
            r#"{{"jsonrpc":"2.0","method":"notifications/cancelled","params":{{"requestId":{id},"reason":"user"}}}}"#
        )
    }

    #[test]
    fn a_cancel_reaches_only_the_call_of_its_own_credential_wiki_and_id() {
        let registry = Arc::new(InFlight::default());
        let alice = CancelScope::new(&registry, credential("main", "alice-token"));
        let call = CancellationToken::new();
        let _registered = alice.register(RequestId::Number(7), call.clone());
        for (scope, body) in [
            (
                CancelScope::new(&registry, credential("main", "bob-token")),
                notice("7"),
            ),
            (
                CancelScope::new(&registry, credential("dev", "alice-token")),
                notice("7"),
            ),
            (alice.clone(), notice("8")),
            (alice.clone(), notice(r#""7""#)),
        ] {
            scope.hear(body.as_bytes());
            assert!(!call.is_cancelled(), "cancelled by {body}");
        }
        alice.hear(notice("7").as_bytes());
        assert!(call.is_cancelled());
    }

    #[test]
    fn a_call_leaves_the_registry_when_its_guard_drops_and_ids_may_repeat() {
        let registry = Arc::new(InFlight::default());
        let alice = CancelScope::new(&registry, credential("main", "alice-token"));
        let (first, second) = (CancellationToken::new(), CancellationToken::new());
        let one = alice.register(RequestId::String("a".into()), first.clone());
        let two = alice.register(RequestId::String("a".into()), second.clone());
        assert_eq!(registry.len(), 1);
        drop(one);
        assert_eq!(registry.len(), 1);
        alice.hear(notice(r#""a""#).as_bytes());
        assert!(
            !first.is_cancelled(),
            "a finished call is no longer reached"
        );
        assert!(second.is_cancelled());
        drop(two);
        assert_eq!(registry.len(), 0);
    }

    #[test]
    fn only_a_cancelled_notification_is_heard() {
        let parse = |body: &str| CancelNotice::parse(body.as_bytes()).map(|n| n.params.request_id);
        assert_eq!(parse(&notice("1")), Some(RequestId::Number(1)));
        assert_eq!(
            parse(
                r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"x","_meta":{}}}"#
            ),
            Some(RequestId::String("x".into()))
        );
        for body in [
            r#"{"jsonrpc":"2.0","id":1,"method":"notifications/cancelled","params":{"requestId":1}}"#,
            r#"{"jsonrpc":"2.0","method":"notifications/progress","params":{"requestId":1}}"#,
            r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{}}"#,
            r#"[{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}]"#,
            r#"{"jsonrpc":"2.0","method":"tools/call","params":{"name":"man"}}"#,
        ] {
            assert_eq!(parse(body), None, "{body}");
        }
    }
}
