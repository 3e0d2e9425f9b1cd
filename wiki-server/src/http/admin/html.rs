//! The admin pages' HTML: escaping, the shared layout and its style sheet (inline: no asset is
//! fetched from anywhere, so the page works offline and under a strict CSP).

use std::fmt::Write as _;

use axum::response::{Html, IntoResponse, Response};
use http::header::{CACHE_CONTROL, CONTENT_SECURITY_POLICY, X_FRAME_OPTIONS};
use http::{HeaderValue, StatusCode};

use crate::http::Refusal;

/// Text escaped for HTML element content and double-quoted attribute values.
pub(crate) fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// The hidden field every form carries.
pub(crate) fn csrf_field(csrf: &str) -> String {
    format!(
        "<input type=\"hidden\" name=\"csrf\" value=\"{}\">",
        escape(csrf)
    )
}

/// The signed-in header: who, the session's CSRF token (for the sign-out form), the current
/// page (a server path, `/admin/...`) and the public URL's path prefix every link carries.
pub(crate) struct Nav<'a> {
    pub(crate) user: &'a str,
    pub(crate) csrf: &'a str,
    pub(crate) current: &'a str,
    pub(crate) prefix: &'a str,
    /// A farm administrator (who also manages users, groups and rights).
    pub(crate) farm: bool,
}

const STYLE: &str = "
:root{--fg:#1d2330;--muted:#5b6475;--line:#dde1e8;--bg:#f5f6f9;--card:#fff;--accent:#2f5bd3;
--danger:#b42318;--ok:#067647;font-family:system-ui,-apple-system,'Segoe UI',sans-serif;color:var(--fg)}
body{margin:0;background:var(--bg)}
header{background:#1d2330;color:#fff;display:flex;flex-wrap:wrap;align-items:center;gap:.5rem 1.5rem;padding:.7rem 1.5rem}
header .brand{font-weight:650;letter-spacing:.02em}
header nav{display:flex;flex-wrap:wrap;gap:.3rem 1rem;flex:1}
header a{color:#cfd6e4;text-decoration:none}header a[aria-current=page]{color:#fff;border-bottom:2px solid #8fb0ff}
header form{margin:0}header .who{color:#cfd6e4;font-size:.9rem}
main{max-width:60rem;margin:1.5rem auto;padding:0 1rem}
h1{font-size:1.4rem;margin:.2rem 0 1rem}h2{font-size:1.1rem;margin:1.2rem 0 .6rem}
.card{background:var(--card);border:1px solid var(--line);border-radius:10px;padding:1rem 1.2rem;margin-bottom:1rem}
table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:.45rem .5rem;border-bottom:1px solid var(--line);vertical-align:top}
th{font-size:.8rem;text-transform:uppercase;letter-spacing:.04em;color:var(--muted)}
label{display:block;font-weight:550;margin:.6rem 0 .25rem}
.check{display:flex;align-items:center;gap:.5rem;font-weight:normal;margin:.3rem 0}
input[type=text],input[type=password],input[type=datetime-local],textarea,select{font:inherit;padding:.45rem .55rem;border:1px solid #c4cad6;border-radius:6px;width:100%;box-sizing:border-box}
textarea{min-height:5rem}
button{font:inherit;background:var(--accent);color:#fff;border:0;border-radius:6px;padding:.45rem .9rem;cursor:pointer}
button.secondary{background:#e7eaf0;color:var(--fg)}button.danger{background:var(--danger)}
a.button{display:block;text-align:center;background:var(--accent);color:#fff;border-radius:6px;padding:.55rem .9rem;text-decoration:none;font-weight:550}
.or{text-align:center;margin:1.2rem 0 .2rem;border-top:1px solid var(--line);padding-top:.9rem}
.muted{color:var(--muted);font-size:.9rem}.tag{display:inline-block;font-size:.75rem;padding:.05rem .45rem;border-radius:999px;background:#fde7e4;color:var(--danger);margin-left:.4rem}
.tag.on{background:#dcfae6;color:var(--ok)}.notice{border-left:4px solid var(--ok);background:#ecfdf3;padding:.6rem .9rem;border-radius:6px;margin-bottom:1rem}
.error{border-left:4px solid var(--danger);background:#fef3f2;padding:.6rem .9rem;border-radius:6px;margin-bottom:1rem}
code,.secret{font-family:ui-monospace,monospace;font-size:.9rem;word-break:break-all}
fieldset{border:1px solid var(--line);border-radius:8px;margin:.8rem 0;padding:.4rem .9rem .8rem}legend{font-weight:600;padding:0 .3rem}
.signin{max-width:24rem;margin:4rem auto}
.scroll{overflow-x:auto}
.filters{display:grid;grid-template-columns:repeat(auto-fill,minmax(12rem,1fr));gap:0 1rem}
.pager{display:flex;flex-wrap:wrap;gap:.5rem 1.2rem;margin:.2rem 0 1rem}
form.inline{display:inline;margin:0}button.small{padding:.15rem .55rem;font-size:.85rem}
ul.members{list-style:none;margin:0;padding:0}.wrap{overflow-wrap:anywhere}ul.members li{margin:.1rem 0 .3rem}
@media (max-width:40rem){header{padding:.6rem .8rem;gap:.4rem 1rem}main{margin:1rem auto;padding:0 .5rem}
.card{padding:.8rem .7rem}th,td{padding:.35rem .4rem}.signin{margin:1.5rem auto}}
";

/// Security headers every admin page carries: no framing, no external anything, no caching.
fn secured(mut response: Response) -> Response {
    let headers = response.headers_mut();
    headers.insert(
        CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(
            "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; \
             frame-ancestors 'none'; base-uri 'none'",
        ),
    );
    headers.insert(X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    headers.insert(CACHE_CONTROL, HeaderValue::from_static("no-store"));
    headers.insert("referrer-policy", HeaderValue::from_static("same-origin"));
    response
}

/// A full page: `title`, the navigation when signed in, and `body` (already HTML).
pub(crate) fn page(status: StatusCode, title: &str, nav: Option<&Nav<'_>>, body: &str) -> Response {
    let mut html = String::with_capacity(body.len() + 4096);
    let _ = write!(
        html,
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">\
         <title>{} · wiki-mcp admin</title><style>{STYLE}</style></head><body>",
        escape(title)
    );
    if let Some(nav) = nav {
        let link = |href: &str, text: &str| {
            let current = if nav.current == href {
                " aria-current=\"page\""
            } else {
                ""
            };
            format!(
                "<a href=\"{}{href}\"{current}>{text}</a>",
                escape(nav.prefix)
            )
        };
        let _ = write!(
            html,
            "<header><span class=\"brand\">wiki-mcp admin</span><nav aria-label=\"Main\">{}{}{}{}</nav>\
             <span class=\"who\">Signed in as {}</span>\
             <form method=\"post\" action=\"{}/admin/signout\">{}<button class=\"secondary\" type=\"submit\">Sign out</button></form></header>",
            link("/admin", "Wikis"),
            link("/admin/tokens", "Tokens"),
            link("/admin/audit", "Audit"),
            if nav.farm {
                [
                    link("/admin/users", "Users"),
                    link("/admin/groups", "Groups"),
                    link("/admin/rights", "Rights"),
                ]
                .concat()
            } else {
                String::new()
            },
            escape(nav.user),
            escape(nav.prefix),
            csrf_field(nav.csrf),
        );
    }
    let _ = write!(html, "<main>{body}</main></body></html>");
    secured((status, Html(html)).into_response())
}

/// A page with a single message (an error, a refusal), linking back to the admin page under
/// the public URL's path `prefix`.
pub(crate) fn message(
    prefix: &str,
    status: StatusCode,
    title: &str,
    nav: Option<&Nav<'_>>,
    text: &str,
) -> Response {
    page(
        status,
        title,
        nav,
        &format!(
            "<h1>{}</h1><div class=\"error\" role=\"alert\">{}</div><p><a href=\"{}/admin\">Back to the admin page</a></p>",
            escape(title),
            escape(text),
            escape(prefix)
        ),
    )
}

/// `refusal` as a [`message`] page: its status, title, text and declared headers.
pub(crate) fn refusal(prefix: &str, nav: Option<&Nav<'_>>, refusal: &Refusal) -> Response {
    let mut response = message(
        prefix,
        refusal.status(),
        refusal.title(),
        nav,
        &refusal.text(),
    );
    refusal.clone().attach(&mut response);
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markup_and_quotes_are_escaped() {
        assert_eq!(
            escape("<script>\"a\" & 'b'</script>"),
            "&lt;script&gt;&quot;a&quot; &amp; &#39;b&#39;&lt;/script&gt;"
        );
    }
}
