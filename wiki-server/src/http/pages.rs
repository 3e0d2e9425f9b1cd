//! The pages signed links open (see [`wiki_tool_sdk::links`]): a read-only HTML view of a document, an
//! attachment download, and the differences between two revisions.
//!
//! Each request is checked in this order, and every failure before the content is read answers
//! the same 403 (a prober learns nothing from the difference): the link's form and signature,
//! its expiry, the issuing endpoint (still served), the link's holder as of now (a guest link
//! only while that endpoint still admits the guest: no authorization server, guest access on; a
//! user link only while the user it was issued to exists, created before the link, so a user
//! deleted and created again does not inherit the old links), then the user's CURRENT view right
//! through the document door as a tool call on that endpoint would be (reach, rights, space
//! filter).
//! Only then is existence checked (404). Pages are sanitized HTML under a CSP that forbids
//! scripts; downloads are `Content-Disposition: attachment` with `nosniff`. None of them is
//! cached, and none sends a `Referer` (the URL carries the signature).
//!
//! A page costs what a rendering tool call costs, so it is bounded the same way: the view is
//! rendered under the tools' bounds ([`wiki_tool_sdk::markdown::limits`]; past one, the page shows its
//! source with a note) in the process's heavy slots ([`wiki_tool_sdk::heavy`], shared with the tools,
//! in the turn of the request's client address; 503 with `Retry-After` when they stay full), kept
//! per document row, version and link holder ([`VIEWS`]: ten requests for one link render it once),
//! and every client address has a token bucket of its own for these pages (429 with
//! `Retry-After`), apart from its MCP requests, and lower than theirs
//! ([`super::limits::RateLimit::pages`]): what one address may ask of the slots.

use std::fmt::Write as _;
use std::net::IpAddr;
use std::sync::{Arc, LazyLock};

use axum::Router;
use axum::extract::{Request, State};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use http::header::{
    CACHE_CONTROL, CONTENT_DISPOSITION, CONTENT_SECURITY_POLICY, CONTENT_TYPE, HeaderValue,
    REFERRER_POLICY, X_CONTENT_TYPE_OPTIONS,
};
use http::{StatusCode, Uri};
use percent_encoding::{NON_ALPHANUMERIC, utf8_percent_encode};
use pulldown_cmark::{Event, Parser, html};
use tokio_util::sync::CancellationToken;
use wiki_store::model::history::DiffLineKind;
use wiki_store::reference::DocumentReference;
use wiki_store::rights::Right;
use wiki_store::{Store, StoreError};

use super::identity::client_address;
use super::limits::{RateKey, RateLimit, RateLimiter};
use super::refusal::Refusal;
use super::url::BaseUrl;
use crate::server::{Caller, Manager};
use wiki_store::model::locale::Locale;
use wiki_tool_sdk::access::{AuthorizedReference, Doors};
use wiki_tool_sdk::heavy::{HeavyCache, NotRun, PageVersion, Share};
use wiki_tool_sdk::links::{LINK_TTL, LinkClaims, LinkPage, SignedFor, Signer};
use wiki_tool_sdk::markdown;
use wiki_tool_sdk::markdown::limits::{
    TooComplex, check_block_nesting, check_html_nesting, check_size,
};
use wiki_tool_sdk::markdown::links::resolve_wiki_links;

/// What the pages share: the manager, the per-address buckets (`None`: no rate limit), and
/// whether guest links may open at all (not when an authorization server is configured: every
/// request must then carry a token, so a link printed for the guest must not stand in for one).
struct Pages {
    manager: Arc<Manager>,
    limiter: Option<RateLimiter>,
    guest_links: bool,
}

/// The routes of the three pages; `/wikis/{wiki}/{kind}/…` (the link's own grammar decides).
/// `rate_limit` is per client address, for these pages alone.
pub(crate) fn routes<S>(
    manager: Arc<Manager>,
    rate_limit: Option<RateLimit>,
    guest_links: bool,
) -> Router<S>
where
    S: Clone + Send + Sync + 'static,
{
    let pages = Pages {
        manager,
        limiter: rate_limit.map(RateLimiter::new),
        guest_links,
    };
    Router::new()
        .route("/wikis/{*link}", get(serve))
        .with_state(Arc::new(pages))
}

async fn serve(State(pages): State<Arc<Pages>>, request: Request) -> Response {
    let address = client_address(&request);
    if let Some(limiter) = &pages.limiter
        && let Err(wait) = limiter.acquire(RateKey::address(address))
    {
        return refuse(Refusal::rate_limited(wait));
    }
    let manager = &pages.manager;
    let uri: &Uri = request.uri();
    // Unknown only while the database has not answered since the server started.
    let Some(key) = manager.link_key() else {
        return refuse(Refusal::StoreUnavailable);
    };
    let clock = manager.store().clock();
    let claims = match LinkClaims::from_url(uri.path(), uri.query(), &key, &clock) {
        Ok(claims) => claims,
        Err(error) => {
            tracing::debug!(%error, "link refused");
            return refuse(Refusal::LinkRefused);
        }
    };
    let (doors, authorized) = match authorize(&pages, &claims).await {
        Ok(Some(authorized)) => authorized,
        Ok(None) => return refuse(Refusal::LinkRefused),
        Err(response) => return response,
    };
    match &claims.page {
        LinkPage::View { locale } => {
            // The page's wiki and attachment links, signed for the link's holder through the
            // same endpoint; without a public URL root-relative (the page's own origin).
            let signer = Signer::new(
                manager
                    .settings()
                    .public_url
                    .as_ref()
                    .map_or_else(|| Arc::from(""), BaseUrl::shared),
                key,
                claims.endpoint.clone(),
                claims.user.clone(),
                clock,
            );
            view(&doors, &authorized, locale.clone(), signer, address).await
        }
        LinkPage::Download { name } => download(&doors, &authorized, name).await,
        LinkPage::Compare { locale, from, to } => {
            compare(&doors, &authorized, locale.clone(), *from, *to).await
        }
    }
}

/// The issuing endpoint's doors for the link's holder, and the document authorized for viewing
/// as of now; `None` when any step refuses, a response (503) when the store could not tell, so
/// a link is not declared dead during an outage.
async fn authorize(
    pages: &Pages,
    claims: &LinkClaims,
) -> Result<Option<(Doors, AuthorizedReference)>, Response> {
    let manager = &pages.manager;
    let server = match manager.server(&claims.endpoint).await {
        Ok(Some(server)) if server.enabled() => server,
        Ok(_) => return Ok(None),
        Err(error) => {
            tracing::warn!(%error, "could not check a link's endpoint");
            return Err(refuse(Refusal::StoreUnavailable));
        }
    };
    let caller = match &claims.user {
        Some(user) => Caller::user(claims.endpoint.clone(), user.clone()),
        None if pages.guest_links && server.guest_access() => {
            Caller::guest(claims.endpoint.clone())
        }
        None => return Ok(None),
    };
    let doors = manager.doors(&server, &caller);
    if let Some(user) = &claims.user
        && !issued_to_this_user(manager.store(), user, claims).await?
    {
        return Ok(None);
    }
    Ok(doors
        .authorize(&claims.reference.to_string(), None, Right::View)
        .ok()
        .map(|authorized| (doors, authorized)))
}

/// Whether `user` exists and was created no later than the link was issued (whole seconds: a
/// link carries its expiry in seconds, issued [`LINK_TTL`] before it).
async fn issued_to_this_user(
    store: &Arc<dyn Store>,
    user: &str,
    claims: &LinkClaims,
) -> Result<bool, Response> {
    let name = user.to_owned();
    let store = Arc::clone(store);
    let found = tokio::task::spawn_blocking(move || store.user(&name)).await;
    let issued = claims.expires.saturating_sub(LINK_TTL.as_secs());
    match found {
        Ok(Ok(record)) => {
            let created = u64::try_from(record.created.unix_timestamp()).unwrap_or(0);
            Ok(created <= issued)
        }
        Ok(Err(StoreError::NotFound { .. })) => Ok(false),
        Ok(Err(error)) => {
            tracing::warn!(%error, "could not look up a link's user");
            Err(refuse(Refusal::StoreUnavailable))
        }
        Err(_) => Err(refuse(Refusal::StoreUnavailable)),
    }
}

/// The most bytes of rendered view pages kept, all together.
const MAX_VIEW_BYTES: usize = 32 * 1024 * 1024;

/// What a view page's rendering depends on: the row's content (fixed by its version) and the
/// holder its links are signed for, in these few minutes.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct ViewKey {
    page: PageVersion,
    links: SignedFor,
}

/// View pages rendered, kept by [`ViewKey`].
static VIEWS: LazyLock<HeavyCache<ViewKey, String>> =
    LazyLock::new(|| HeavyCache::new(MAX_VIEW_BYTES, |_, html| 256 + html.len()));

async fn view(
    doors: &Doors,
    authorized: &AuthorizedReference,
    locale: Option<Locale>,
    signer: Signer,
    address: IpAddr,
) -> Response {
    let document = match doors.read_document(authorized, locale).await {
        Ok(document) => document,
        Err(_) => return refuse(Refusal::DocumentNotFound),
    };
    let key = ViewKey {
        page: PageVersion::of(&document),
        links: signer.signs_for(),
    };
    let content = document.content.clone();
    let source = authorized.reference().clone();
    // Cancelled when hyper drops this request's future (its client went away): a render still
    // waiting for a slot then never starts.
    let abandoned = CancellationToken::new();
    let _on_drop = abandoned.clone().drop_guard();
    let render = move || render_bounded(&content, &source, &signer);
    // A link carries no credentials: its heavy work takes the turn of the client's address.
    let share = Share::address(address);
    let rendered = match VIEWS.get_or_run(key, &share, &abandoned, render).await {
        Ok(rendered) => rendered,
        Err(busy) => return busy_page(busy),
    };
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
    page(&title, &format!("{heading}{rendered}"))
}

/// The page's sanitized HTML, or past a bound of [`wiki_tool_sdk::markdown::limits`] its escaped source
/// with a note saying which: the bounds are checked on the parser's events and the generated
/// HTML, before the sanitizer (whose cost is not linear in nesting) sees them.
fn render_bounded(source: &str, page: &DocumentReference, signer: &Signer) -> String {
    let rendered = check_size(source).and_then(|()| {
        let mut events: Vec<Event<'_>> = Parser::new_ext(source, markdown::options()).collect();
        check_block_nesting(&events)?;
        resolve_wiki_links(&mut events, page, |target| Some(signer.target_url(target)));
        let mut generated = String::new();
        html::push_html(&mut generated, events.into_iter());
        check_html_nesting(&generated)?;
        Ok(generated)
    });
    match rendered {
        Ok(generated) => ammonia::clean(&generated),
        Err(reason) => source_instead(source, reason),
    }
}

fn source_instead(source: &str, reason: TooComplex) -> String {
    format!(
        "<p class=\"note\">Shown as source: {}.</p><pre>{}</pre>",
        escape_text(&reason.to_string()),
        escape_text(source)
    )
}

/// `text` as HTML text content (`&`, `<`, `>` escaped), by pulldown-cmark's own escaper: linear,
/// and compact where ammonia's `clean_text` (made for attribute values) escapes every space.
pub(crate) fn escape_text(text: &str) -> String {
    let mut escaped = String::with_capacity(text.len());
    html::push_html(&mut escaped, std::iter::once(Event::Text(text.into())));
    escaped
}

/// 503 with `Retry-After` when every heavy slot stayed taken.
fn busy_page(busy: NotRun) -> Response {
    tracing::debug!(%busy, "a view page waited for a rendering slot in vain");
    refuse(Refusal::RenderingBusy)
}

async fn download(doors: &Doors, authorized: &AuthorizedReference, name: &str) -> Response {
    let reference = authorized.reference().clone();
    let lookup = name.to_owned();
    let content = doors
        .blocking(move |store| store.attachment_content(&reference, &lookup, None))
        .await;
    let (info, bytes) = match content {
        Ok(Ok(Some(found))) => found,
        Ok(Ok(None)) => return refuse(Refusal::AttachmentNotFound),
        Ok(Err(error)) => {
            tracing::warn!(%error, "could not read an attachment for a link");
            return refuse(Refusal::StoreUnavailable);
        }
        Err(_) => return refuse(Refusal::StoreUnavailable),
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
        Ok(Err(_)) => return refuse(Refusal::RevisionNotFound),
        Err(_) => return refuse(Refusal::StoreUnavailable),
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
         .meta{{color:#666}} .note{{color:#a60}} pre{{background:#f6f6f6;padding:1rem;overflow:auto}}\
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
            "default-src 'none'; style-src 'unsafe-inline'; img-src data: 'self'; sandbox; \
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

/// `refusal` with the pages' hardened headers.
fn refuse(refusal: Refusal) -> Response {
    let mut response = refusal.into_response();
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
