//! The request state of an input-required confirmation: sealed, bound to one call, short-lived
//! and redeemed once.
//!
//! The state the client echoes is untrusted. It is sealed with rmcp's `RequestStateCodec`
//! (HMAC-SHA256, an expiry inside the tag) under a key derived from the farm's link-signing key
//! (so every replica of a farm on a shared database verifies what another sealed, and no new
//! secret needs distributing), with the call's [`Binding`] as associated data: a state opened
//! by another user, on another wiki, for another tool, other arguments or after the target's
//! version moved fails verification exactly as a forged one does. What it carries is a random
//! nonce; accepting redeems it in the store ([`redeem`]), atomically across processes, so one
//! accepted state runs its write once.

use std::time::Duration;

use mcp_runtime::param::JsonObject;
use rmcp::model::{RequestStateCodec, RequestStateError, SealOptions};
use serde_json::Value;
use sha2::{Digest as _, Sha256};
use wiki_store::{SecretStore, StoreError};

use wiki_tool_sdk::links::LinkKey;

/// How long a person has to answer (and the client to retry) before the state expires, unless
/// the server's settings say otherwise ([`crate::ServerSettings::confirmation_ttl`]).
pub const STATE_TTL: Duration = Duration::from_secs(5 * 60);

/// The purpose the sealing key is derived for from the link key.
const KEY_PURPOSE: &[u8] = b"wiki-mcp/confirm-writes/request-state/v1";

/// The family of the farm-secret names that record redeemed nonces.
const REDEEMED_PREFIX: &str = "confirm-redeemed.";

/// What a state is valid for: one user's call of one tool with these arguments on one wiki,
/// against the target as it was read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Binding {
    pub(crate) user: String,
    pub(crate) wiki: String,
    pub(crate) tool: String,
    /// SHA-256 of the canonical arguments ([`arguments_digest`]).
    pub(crate) arguments: [u8; 32],
    /// The target's version as read (`new` when the write creates it), and what it addresses.
    pub(crate) base: String,
}

impl Binding {
    /// The associated data the seal is bound to: every field, length-prefixed so no two
    /// bindings share bytes.
    fn associated_data(&self) -> Vec<u8> {
        let mut data = Vec::new();
        for part in [
            self.user.as_bytes(),
            self.wiki.as_bytes(),
            self.tool.as_bytes(),
            &self.arguments,
            self.base.as_bytes(),
        ] {
            data.extend_from_slice(&(part.len() as u64).to_be_bytes());
            data.extend_from_slice(part);
        }
        data
    }
}

/// Why an echoed state was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum StateRefusal {
    /// Past its five minutes.
    Expired,
    /// Forged, tampered with, or sealed for another call (user, wiki, tool, arguments, base).
    Invalid,
}

/// Seals and opens confirmation states with the farm's derived key.
#[derive(Debug)]
pub(crate) struct StateSeal {
    codec: RequestStateCodec,
}

impl StateSeal {
    /// The seal keyed from `link_key`.
    pub(crate) fn new(link_key: &LinkKey) -> Self {
        let key = link_key.derive(KEY_PURPOSE);
        let codec = RequestStateCodec::try_new(key)
            .unwrap_or_else(|_| unreachable!("a 32-byte key is long enough"));
        Self { codec }
    }

    /// A fresh state for `binding`: a random nonce, sealed for `ttl`.
    pub(crate) fn seal(&self, binding: &Binding, ttl: Duration) -> String {
        let mut nonce = [0u8; 16];
        rand::fill(&mut nonce);
        let associated = binding.associated_data();
        self.codec.seal_with(
            hex(&nonce).as_bytes(),
            &SealOptions::new().associated_data(&associated).ttl(ttl),
        )
    }

    /// The nonce of `state` when it was sealed here for `binding` and has not expired.
    pub(crate) fn open(&self, state: &str, binding: &Binding) -> Result<String, StateRefusal> {
        match self.codec.open_with(state, &binding.associated_data()) {
            Ok(nonce) => String::from_utf8(nonce)
                .ok()
                .filter(|nonce| nonce.len() == 32 && nonce.bytes().all(|b| b.is_ascii_hexdigit()))
                .ok_or(StateRefusal::Invalid),
            Err(RequestStateError::Expired) => Err(StateRefusal::Expired),
            Err(_) => Err(StateRefusal::Invalid),
        }
    }
}

/// Records `nonce` as redeemed: `true` for the first redemption in the farm, `false` for every
/// later one (a replay). The farm-secret table's insert-if-absent is atomic on every backend,
/// so of replicas redeeming one state at once exactly one wins.
///
/// Then forgets the records older than twice `ttl`: a record is made before its state expires,
/// so the state of one older than `ttl` is refused as expired anyway, and the second `ttl` is
/// room for replicas whose clocks disagree. So the table holds the redemptions of the last few
/// minutes, not every confirmation ever given.
pub(crate) fn redeem(
    store: &dyn SecretStore,
    nonce: &str,
    ttl: Duration,
) -> Result<bool, StoreError> {
    let mut marker = [0u8; 16];
    rand::fill(&mut marker);
    let stored = store.farm_secret(&format!("{REDEEMED_PREFIX}{nonce}"), &marker)?;
    let keep_ms = i64::try_from(ttl.saturating_mul(2).as_millis()).unwrap_or(i64::MAX);
    let now_ms = i64::try_from(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap_or_default()
            .as_millis(),
    )
    .unwrap_or(i64::MAX);
    // A failed prune loses nothing: the next redemption prunes what this one left.
    if let Err(error) = store.prune_farm_secrets(REDEEMED_PREFIX, now_ms.saturating_sub(keep_ms)) {
        tracing::warn!(%error, "could not forget expired confirmation redemptions");
    }
    Ok(stored == marker)
}

/// SHA-256 of `arguments` in canonical form (object keys sorted, at every depth; compact), so
/// a client that re-orders keys on its retry still matches, and any other change does not.
pub(crate) fn arguments_digest(arguments: &JsonObject) -> [u8; 32] {
    let mut canonical = String::new();
    write_canonical(&Value::Object(arguments.clone()), &mut canonical);
    Sha256::digest(canonical.as_bytes()).into()
}

fn write_canonical(value: &Value, out: &mut String) {
    match value {
        Value::Object(map) => {
            let mut entries: Vec<_> = map.iter().collect();
            entries.sort_by(|a, b| a.0.cmp(b.0));
            out.push('{');
            for (index, (key, value)) in entries.into_iter().enumerate() {
                if index > 0 {
                    out.push(',');
                }
                out.push_str(&Value::String(key.clone()).to_string());
                out.push(':');
                write_canonical(value, out);
            }
            out.push('}');
        }
        Value::Array(items) => {
            out.push('[');
            for (index, item) in items.iter().enumerate() {
                if index > 0 {
                    out.push(',');
                }
                write_canonical(item, out);
            }
            out.push(']');
        }
        scalar => out.push_str(&scalar.to_string()),
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|byte| format!("{byte:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn binding() -> Binding {
        Binding {
            user: "alice".into(),
            wiki: "main".into(),
            tool: "write_document".into(),
            arguments: arguments_digest(&object(json!({"reference": "Sandbox.Notes"}))),
            base: "1.3".into(),
        }
    }

    fn object(value: Value) -> JsonObject {
        match value {
            Value::Object(map) => map,
            _ => JsonObject::new(),
        }
    }

    #[test]
    fn a_state_opens_only_for_its_own_call_and_key() {
        let key = LinkKey::random();
        let seal = StateSeal::new(&key);
        let state = seal.seal(&binding(), STATE_TTL);
        assert!(seal.open(&state, &binding()).is_ok());
        let foreign = [
            Binding {
                user: "bob".into(),
                ..binding()
            },
            Binding {
                wiki: "dev".into(),
                ..binding()
            },
            Binding {
                tool: "delete_document".into(),
                ..binding()
            },
            Binding {
                base: "1.4".into(),
                ..binding()
            },
            Binding {
                arguments: arguments_digest(&object(json!({"reference": "Sandbox.Other"}))),
                ..binding()
            },
        ];
        for other in foreign {
            assert_eq!(
                seal.open(&state, &other),
                Err(StateRefusal::Invalid),
                "{other:?}"
            );
        }
        let other_farm = StateSeal::new(&LinkKey::random());
        assert_eq!(
            other_farm.open(&state, &binding()),
            Err(StateRefusal::Invalid)
        );
        assert_eq!(
            seal.open("rs1.forged.state", &binding()),
            Err(StateRefusal::Invalid)
        );
    }

    #[test]
    fn a_state_past_its_lifetime_is_expired() {
        let seal = StateSeal::new(&LinkKey::random());
        let state = seal.seal(&binding(), Duration::from_millis(1));
        std::thread::sleep(Duration::from_millis(20));
        assert_eq!(seal.open(&state, &binding()), Err(StateRefusal::Expired));
    }

    #[test]
    fn the_digest_ignores_key_order_and_nothing_else() {
        let a = object(json!({"a": 1, "b": {"y": [1, "x"], "x": null}}));
        let b = object(json!({"b": {"x": null, "y": [1, "x"]}, "a": 1}));
        let c = object(json!({"b": {"x": null, "y": ["x", 1]}, "a": 1}));
        assert_eq!(arguments_digest(&a), arguments_digest(&b));
        assert_ne!(arguments_digest(&a), arguments_digest(&c));
    }
}
