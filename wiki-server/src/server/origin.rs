//! Where a call came from, beyond who made it: the id of the request that carried it, for the
//! audit line.
//!
//! The HTTP transport fills it from each request ([`crate::http`]: the `x-request-id` the
//! client sent or one of ours); stdio and tests leave it empty.

use std::fmt;

use http::HeaderValue;

/// A request's id: the client's `x-request-id` when it sent a usable one, else one this
/// process made. Cheap to clone (shared bytes).
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct RequestId(HeaderValue);

impl RequestId {
    /// The longest id taken from a client.
    pub const MAX_LEN: usize = 128;

    /// `value` as an id, if it is one a log line may carry as it is: 1 to
    /// [`RequestId::MAX_LEN`] characters among letters, digits and `-._~:/+=`.
    pub fn from_client(value: &HeaderValue) -> Option<Self> {
        let bytes = value.as_bytes();
        let usable = !bytes.is_empty()
            && bytes.len() <= Self::MAX_LEN
            && bytes
                .iter()
                .all(|byte| byte.is_ascii_alphanumeric() || b"-._~:/+=".contains(byte));
        usable.then(|| RequestId(value.clone()))
    }

    /// An id of this process's making (`text` must be a valid header value).
    pub(crate) fn made(text: String) -> Option<Self> {
        HeaderValue::try_from(text).ok().map(RequestId)
    }

    /// The id as text.
    pub fn as_str(&self) -> &str {
        // Only visible ASCII gets in (above).
        self.0.to_str().unwrap_or("-")
    }

    /// The id as a header value, to echo.
    pub fn header_value(&self) -> &HeaderValue {
        &self.0
    }
}

impl fmt::Debug for RequestId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Display for RequestId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What the transport knows of a call's request.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct CallOrigin {
    /// The request's id.
    pub request_id: Option<RequestId>,
}

impl CallOrigin {
    /// The request id for a log line: the id, or `-`.
    pub fn request_id_str(&self) -> &str {
        self.request_id.as_ref().map_or("-", RequestId::as_str)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_plain_short_ids_are_taken_from_clients() {
        let id = |text: &'static str| RequestId::from_client(&HeaderValue::from_static(text));
        assert_eq!(
            id("0b9c2a1e-5f3d-4c8e-9a7b-1d2e3f4a5b6c").map(|id| id.to_string()),
            Some("0b9c2a1e-5f3d-4c8e-9a7b-1d2e3f4a5b6c".to_owned())
        );
        assert!(id("Root=1-abc/def+ghi=").is_some());
        assert!(id("").is_none());
        assert!(id("a b").is_none(), "a space could forge a log field");
        assert!(id("a\"b").is_none());
        let long = HeaderValue::from_str(&"x".repeat(RequestId::MAX_LEN + 1)).ok();
        assert!(long.is_some_and(|long| RequestId::from_client(&long).is_none()));
    }
}
