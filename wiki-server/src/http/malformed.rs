//! Requests no honest client sends, refused with `400` before anything else looks at them.
//!
//! Two `Authorization` headers leave it to each layer which one it reads (a proxy may check the
//! first while the server uses the last); two `Host` or `Origin` headers do the same to the
//! DNS-rebinding check. User information (`user@host`) in `Host`, `Origin` or the request
//! target has no meaning for this server and is a classic way to make one host read as
//! another. HTTP (RFC 9110 §7.2, RFC 6454 §7) allows none of these.

use axum::extract::Request;
use http::HeaderMap;
use http::HeaderName;
use http::header::{AUTHORIZATION, HOST, ORIGIN};

use super::refusal::Refusal;

/// The headers a request may carry once at most.
const SINGLE: [HeaderName; 3] = [AUTHORIZATION, HOST, ORIGIN];

/// The `400` to answer; `None` lets the request go on.
pub(crate) fn refusal(request: &Request) -> Option<Refusal> {
    problem(request.headers(), request.uri())
}

/// What is wrong with the request's head, if anything.
fn problem(headers: &HeaderMap, uri: &http::Uri) -> Option<Refusal> {
    for name in &SINGLE {
        if headers.get_all(name).iter().nth(1).is_some() {
            return Some(Refusal::RepeatedHeader { name: name.clone() });
        }
    }
    for (name, place) in [(HOST, "the host header"), (ORIGIN, "the origin header")] {
        let has_userinfo = headers
            .get(&name)
            .is_some_and(|value| value.as_bytes().contains(&b'@'));
        if has_userinfo {
            return Some(Refusal::UserInformation { place });
        }
    }
    if uri
        .authority()
        .is_some_and(|authority| authority.as_str().contains('@'))
    {
        return Some(Refusal::UserInformation {
            place: "the request URL",
        });
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
        let repeated = |name: HeaderName| Some(Refusal::RepeatedHeader { name });
        let userinfo = |place| Some(Refusal::UserInformation { place });
        assert_eq!(
            problem(&headers(&[host.clone(), host.clone()]), &root),
            repeated(HOST)
        );
        let bearer = (AUTHORIZATION, "Bearer a");
        assert_eq!(
            problem(&headers(&[host.clone(), bearer.clone(), bearer]), &root),
            repeated(AUTHORIZATION)
        );
        let origin = (ORIGIN, "http://localhost");
        assert_eq!(
            problem(&headers(&[origin.clone(), origin]), &root),
            repeated(ORIGIN)
        );
        assert_eq!(
            problem(&headers(&[(HOST, "evil@localhost")]), &root),
            userinfo("the host header")
        );
        assert_eq!(
            problem(&headers(&[(ORIGIN, "http://a:b@localhost")]), &root),
            userinfo("the origin header")
        );
        let absolute = http::Uri::from_static("http://evil@localhost/x");
        assert_eq!(
            problem(&headers(&[host]), &absolute),
            userinfo("the request URL")
        );
    }
}
