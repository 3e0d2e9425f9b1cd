//! Requests no honest client sends, refused with `400` before anything else looks at them.
//!
//! Two `Authorization` headers leave it to each layer which one it reads (a proxy may check the
//! first while the server uses the last); two `Host` or `Origin` headers do the same to the
//! DNS-rebinding check. User information (`user@host`) in `Host`, `Origin` or the request
//! target has no meaning for this server and is a classic way to make one host read as
//! another. HTTP (RFC 9110 §7.2, RFC 6454 §7) allows none of these.

use axum::extract::Request;
use axum::response::{IntoResponse, Response};
use http::header::{AUTHORIZATION, HOST, ORIGIN};
use http::{HeaderMap, HeaderName, StatusCode};

/// The headers a request may carry once at most.
const SINGLE: [HeaderName; 3] = [AUTHORIZATION, HOST, ORIGIN];

/// The `400` to answer, with the reason; `None` lets the request go on.
pub(crate) fn refusal(request: &Request) -> Option<Response> {
    problem(request.headers(), request.uri())
        .map(|reason| (StatusCode::BAD_REQUEST, format!("Bad Request: {reason}\n")).into_response())
}

/// What is wrong with the request's head, if anything.
fn problem(headers: &HeaderMap, uri: &http::Uri) -> Option<String> {
    for name in &SINGLE {
        if headers.get_all(name).iter().nth(1).is_some() {
            return Some(format!(
                "the {name} header appears more than once; send it once"
            ));
        }
    }
    for name in [HOST, ORIGIN] {
        let has_userinfo = headers
            .get(&name)
            .is_some_and(|value| value.as_bytes().contains(&b'@'));
        if has_userinfo {
            return Some(format!(
                "the {name} header carries user information (user@host); send the host alone"
            ));
        }
    }
    if uri
        .authority()
        .is_some_and(|authority| authority.as_str().contains('@'))
    {
        return Some(
            "the request URL carries user information (user@host); send the host alone".to_owned(),
        );
    }
    None
}

#[cfg(test)]
mod tests {
    use http::HeaderValue;

    use super::*;

    fn headers(pairs: &[(HeaderName, &'static str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.append(name, HeaderValue::from_static(value));
        }
        map
    }

    #[test]
    fn repeated_identity_headers_and_userinfo_are_problems() {
        let root = http::Uri::from_static("/");
        let host = (HOST, "localhost");
        assert_eq!(problem(&headers(std::slice::from_ref(&host)), &root), None);
        assert!(problem(&headers(&[host.clone(), host.clone()]), &root).is_some());
        let bearer = (AUTHORIZATION, "Bearer a");
        assert!(problem(&headers(&[host.clone(), bearer.clone(), bearer]), &root).is_some());
        let origin = (ORIGIN, "http://localhost");
        assert!(problem(&headers(&[origin.clone(), origin]), &root).is_some());
        assert!(problem(&headers(&[(HOST, "evil@localhost")]), &root).is_some());
        assert!(problem(&headers(&[(ORIGIN, "http://a:b@localhost")]), &root).is_some());
        let absolute = http::Uri::from_static("http://evil@localhost/x");
        assert!(problem(&headers(&[host]), &absolute).is_some());
    }
}
