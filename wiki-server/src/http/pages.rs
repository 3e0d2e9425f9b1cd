//! The pages signed links open (see [`crate::links`]): a read-only HTML view of a document, an
//! attachment download, and the differences between two revisions.
//!
//! Each request is checked in this order, and every failure before the content is read answers
//! the same 403 (a prober learns nothing from the difference): the link's form and signature,
//! its expiry, the issuing endpoint (still served), then the user's CURRENT view right through
//! the document door as a tool call on that endpoint would be (reach, rights, space filter).
//! Only then is existence checked (404). Pages are sanitized HTML under a CSP that forbids
//! scripts; downloads are `Content-Disposition: attachment` with `nosniff`. None of them is
//! cached, and none sends a `Referer` (the URL carries the signature).

use std::fmt::Write as _;
use std::sync::Arc;

use axum::Router;
use axum::extract::State;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use http::header::{
    CACHE_CONTROL, CONTENT_DISPOSITION, CONTENT_SECURITY_POLICY, CONTENT_TYPE, HeaderValue,
    REFERRER_POLICY, X_CONTENT_TYPE_OPTIONS,
};
use http::{StatusCode, Uri};
use percent_encoding::{NON_ALPHANUMERIC, utf8_percent_encode};
use pulldown_cmark::{Options, Parser, html};
use wiki_store::model::history::DiffLineKind;
use wiki_store::rights::Right;

use crate::access::{AuthorizedReference, Doors};
use crate::links::{LinkClaims, LinkPage};
use crate::server::{Caller, Manager};

/// The routes of the three pages; `/wikis/{wiki}/{kind}/…` (the link's own grammar decides).
pub(crate) fn routes<S>(manager: Arc<Manager>) -> Router<S>
where
    S: Clone + Send + Sync + 'static,
{
    Router::new()
        .route("/wikis/{*link}", get(serve))
        .with_state(manager)
}

/// What every refusal before the content says.
const REFUSED: &str = "This link is invalid, has expired, or no longer grants access. Ask for \
                       a fresh link.";

async fn serve(State(manager): State<Arc<Manager>>, uri: Uri) -> Response {
    // Unknown only while the database has not answered since the server started.
    let Some(key) = manager.link_key() else {
        return unavailable();
    };
    let claims = match LinkClaims::from_url(uri.path(), uri.query(), &key) {
        Ok(claims) => claims,
        Err(error) => {
            tracing::debug!(%error, "link refused");
            return refused();
        }
    };
    let (doors, authorized) = match authorize(&manager, &claims).await {
        Ok(authorized) => authorized,
        Err(response) => return response,
    };
    match &claims.page {
        LinkPage::View { locale } => view(&doors, &authorized, locale.clone()).await,
        LinkPage::Download { name } => download(&doors, &authorized, name).await,
        LinkPage::Compare { locale, from, to } => {
            compare(&doors, &authorized, locale.clone(), *from, *to).await
        }
    }
}

/// The issuing endpoint's doors for the link's user, and the document authorized for viewing
/// as of now; else the refusal to answer (503 when the store cannot be read, so a link is not
/// declared dead during an outage).
async fn authorize(
    manager: &Manager,
    claims: &LinkClaims,
) -> Result<(Doors, AuthorizedReference), Response> {
    let server = match manager.server(&claims.endpoint).await {
        Ok(Some(server)) if server.enabled() => server,
        Ok(_) => return Err(refused()),
        Err(error) => {
            tracing::warn!(%error, "could not check a link's endpoint");
            return Err(unavailable());
        }
    };
    let caller = match &claims.user {
        Some(user) => Caller::user(claims.endpoint.clone(), user.clone()),
        None => Caller::guest(claims.endpoint.clone()),
    };
    let doors = manager.doors(&server, &caller);
    let authorized = doors
        .authorize(&claims.reference.to_string(), None, Right::View)
        .map_err(|_| refused())?;
    Ok((doors, authorized))
}

async fn view(
    doors: &Doors,
    authorized: &AuthorizedReference,
    locale: Option<wiki_store::model::locale::Locale>,
) -> Response {
    let document = match doors.read_document(authorized, locale).await {
        Ok(document) => document,
        Err(_) => return not_found("This document (or translation) does not exist."),
    };
    let mut body = String::new();
    let parser = Parser::new_ext(&document.content, Options::all());
    html::push_html(&mut body, parser);
    let title = if document.title.trim().is_empty() {
        authorized.reference().to_string()
    } else {
        document.title.clone()
    };
    let heading = format!(
        "<p class=\"meta\">{} · version {} · read-only view</p>",
        ammonia::clean_text(&authorized.reference().to_string()),
        document.version
    );
    page(&title, &format!("{heading}{}", ammonia::clean(&body)))
}

async fn download(doors: &Doors, authorized: &AuthorizedReference, name: &str) -> Response {
    let reference = authorized.reference().clone();
    let lookup = name.to_owned();
    let content = doors
        .blocking(move |store| store.attachment_content(&reference, &lookup, None))
        .await;
    let (info, bytes) = match content {
        Ok(Ok(Some(found))) => found,
        Ok(Ok(None)) => return not_found("This attachment does not exist."),
        Ok(Err(error)) => {
            tracing::warn!(%error, "could not read an attachment for a link");
            return unavailable();
        }
        Err(_) => return unavailable(),
    };
    let content_type = HeaderValue::from_str(info.media.effective())
        .unwrap_or(HeaderValue::from_static("application/octet-stream"));
    let mut response = (StatusCode::OK, bytes).into_response();
    let headers = response.headers_mut();
    headers.insert(CONTENT_TYPE, content_type);
    if let Ok(disposition) = HeaderValue::from_str(&disposition(&info.name)) {
        headers.insert(CONTENT_DISPOSITION, disposition);
    }
    harden(&mut response);
    response
}

async fn compare(
    doors: &Doors,
    authorized: &AuthorizedReference,
    locale: Option<wiki_store::model::locale::Locale>,
    from: wiki_store::model::version::Version,
    to: wiki_store::model::version::Version,
) -> Response {
    let reference = authorized.reference().clone();
    let diff = doors
        .blocking(move |store| store.diff(&reference, locale.as_ref(), from, to))
        .await;
    let diff = match diff {
        Ok(Ok(diff)) => diff,
        Ok(Err(_)) => return not_found("One of these revisions does not exist."),
        Err(_) => return unavailable(),
    };
    let mut body = format!(
        "<p class=\"meta\">{} · version {from} → {to}</p>",
        ammonia::clean_text(&authorized.reference().to_string())
    );
    if let Some((old, new)) = &diff.title_change {
        let _ = write!(
            body,
            "<p>Title: <del>{}</del> → <ins>{}</ins></p>",
            ammonia::clean_text(old),
            ammonia::clean_text(new)
        );
    }
    if diff.hunks.is_empty() {
        body.push_str("<p>The contents are identical.</p>");
    }
    body.push_str("<pre>");
    for hunk in &diff.hunks {
        let _ = writeln!(
            body,
            "<span class=\"hunk\">{}</span>",
            ammonia::clean_text(&hunk.header)
        );
        for line in &hunk.lines {
            let (class, sign) = match line.kind {
                DiffLineKind::Context => ("same", ' '),
                DiffLineKind::Removed => ("del", '-'),
                DiffLineKind::Added => ("add", '+'),
            };
            let _ = writeln!(
                body,
                "<span class=\"{class}\">{sign}{}</span>",
                ammonia::clean_text(&line.text)
            );
        }
    }
    body.push_str("</pre>");
    page(&format!("Changes to {}", authorized.reference()), &body)
}

/// A whole HTML page around `body` (already sanitized); `title` is escaped here.
fn page(title: &str, body: &str) -> Response {
    let html = format!(
        "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>{title}</title><style>\
         body{{font-family:sans-serif;max-width:50rem;margin:2rem auto;padding:0 1rem}}\
         .meta{{color:#666}} pre{{background:#f6f6f6;padding:1rem;overflow:auto}}\
         .add{{background:#e6ffe6}} .del{{background:#ffe6e6}} .hunk{{color:#888}}\
         </style></head><body><h1>{title}</h1>\n{body}\n</body></html>\n",
        title = ammonia::clean_text(title)
    );
    let mut response = (StatusCode::OK, html).into_response();
    response.headers_mut().insert(
        CONTENT_TYPE,
        HeaderValue::from_static("text/html; charset=utf-8"),
    );
    harden(&mut response);
    response
}

/// No scripts, no framing, no sniffing, no caching, no Referer.
fn harden(response: &mut Response) {
    let headers = response.headers_mut();
    headers.insert(
        CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(
            "default-src 'none'; style-src 'unsafe-inline'; img-src data:; sandbox; \
             frame-ancestors 'none'",
        ),
    );
    headers.insert(X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    headers.insert(REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
    headers.insert(CACHE_CONTROL, HeaderValue::from_static("private, no-store"));
}

/// `attachment; filename="<ascii>"; filename*=UTF-8''<encoded>` (RFC 6266): the ASCII fallback
/// keeps only safe characters, the encoded form keeps the name exactly.
fn disposition(name: &str) -> String {
    let fallback: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "._- ".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect();
    format!(
        "attachment; filename=\"{fallback}\"; filename*=UTF-8''{}",
        utf8_percent_encode(name, NON_ALPHANUMERIC)
    )
}

fn refused() -> Response {
    plain(StatusCode::FORBIDDEN, REFUSED)
}

fn not_found(message: &'static str) -> Response {
    plain(StatusCode::NOT_FOUND, message)
}

fn unavailable() -> Response {
    plain(
        StatusCode::SERVICE_UNAVAILABLE,
        "The wiki could not be read. Retry in a moment.",
    )
}

fn plain(status: StatusCode, message: &'static str) -> Response {
    let mut response = (status, message).into_response();
    harden(&mut response);
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_disposition_keeps_the_name_and_a_safe_fallback() {
        assert_eq!(
            disposition("ré\"port\r\n.pdf"),
            "attachment; filename=\"r__port__.pdf\"; filename*=UTF-8''r%C3%A9%22port%0D%0A%2Epdf"
        );
    }
}
