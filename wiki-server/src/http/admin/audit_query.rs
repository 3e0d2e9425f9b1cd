//! The audit view's query string: its filters (exact text, a UTC time window), its page size
//! and its cursor, read with a clear message for what cannot be read, and written back into
//! the links to the older and newer pages so that paging keeps the filters.

use serde::Deserialize;
use time::macros::format_description;
use time::{Date, PrimitiveDateTime};
use wiki_store::model::admin::AuditCursor;

/// Rows per page unless the query asks otherwise.
pub(crate) const DEFAULT_SIZE: u32 = 50;
/// Rows per page at most.
pub(crate) const MAX_SIZE: u32 = 200;

/// The query as sent: every field optional text, read by [`AuditQuery::read`].
#[derive(Debug, Default, Deserialize)]
pub(crate) struct RawQuery {
    #[serde(default)]
    wiki: String,
    #[serde(default)]
    tool: String,
    #[serde(default)]
    user: String,
    #[serde(default)]
    outcome: String,
    #[serde(default)]
    reason: String,
    #[serde(default)]
    from: String,
    #[serde(default)]
    to: String,
    #[serde(default)]
    size: String,
    #[serde(default)]
    before: String,
    #[serde(default)]
    after: String,
}

/// The query read: bounded text filters (empty: any), the time window in milliseconds since
/// the epoch, the page size and where the page starts.
#[derive(Debug)]
pub(crate) struct AuditQuery {
    pub(crate) wiki: String,
    pub(crate) tool: String,
    pub(crate) user: String,
    pub(crate) outcome: String,
    pub(crate) reason: String,
    /// The window as typed (shown back in the form and carried by the page links).
    pub(crate) from: String,
    pub(crate) to: String,
    pub(crate) from_ms: Option<i64>,
    pub(crate) to_ms: Option<i64>,
    pub(crate) size: u32,
    pub(crate) cursor: AuditCursor,
}

fn bounded(text: &str) -> String {
    let text = text.trim();
    match text.char_indices().nth(100) {
        Some((cut, _)) => text[..cut].to_owned(),
        None => text.to_owned(),
    }
}

/// `text` (a form's `datetime-local` value, or a date) as an instant in UTC, milliseconds since
/// the epoch; `None` when empty.
fn instant(field: &str, text: &str) -> Result<Option<i64>, String> {
    if text.is_empty() {
        return Ok(None);
    }
    let minutes = format_description!("[year]-[month]-[day]T[hour]:[minute]");
    let seconds = format_description!("[year]-[month]-[day]T[hour]:[minute]:[second]");
    let day = format_description!("[year]-[month]-[day]");
    let parsed = PrimitiveDateTime::parse(text, minutes)
        .or_else(|_| PrimitiveDateTime::parse(text, seconds))
        .or_else(|_| Date::parse(text, day).map(Date::midnight));
    match parsed {
        Ok(at) => {
            let ms = at.assume_utc().unix_timestamp_nanos() / 1_000_000;
            Ok(i64::try_from(ms).ok())
        }
        Err(_) => Err(format!(
            "\"{field}\" is not a time: write it as 2026-12-06T19:30 or 2026-12-06 (UTC)"
        )),
    }
}

fn row_number(field: &str, text: &str) -> Result<Option<i64>, String> {
    if text.is_empty() {
        return Ok(None);
    }
    text.parse::<i64>().map(Some).map_err(|_| {
        format!("\"{field}\" is not a row number: follow the Older and Newer links to page")
    })
}

impl AuditQuery {
    /// Reads `raw`, or says which field cannot be read and how to write it.
    pub(crate) fn read(raw: &RawQuery) -> Result<AuditQuery, String> {
        let from = bounded(&raw.from);
        let to = bounded(&raw.to);
        let size = match raw.size.trim() {
            "" => DEFAULT_SIZE,
            text => match text.parse::<u32>() {
                Ok(size) if (1..=MAX_SIZE).contains(&size) => size,
                _ => {
                    return Err(format!(
                        "\"size\" must be a number of rows from 1 to {MAX_SIZE}"
                    ));
                }
            },
        };
        let cursor = match (
            row_number("before", raw.before.trim())?,
            row_number("after", raw.after.trim())?,
        ) {
            (Some(_), Some(_)) => {
                return Err("give \"before\" or \"after\", not both".to_owned());
            }
            (Some(id), None) => AuditCursor::Before(id),
            (None, Some(id)) => AuditCursor::After(id),
            (None, None) => AuditCursor::Newest,
        };
        Ok(AuditQuery {
            wiki: bounded(&raw.wiki),
            tool: bounded(&raw.tool),
            user: bounded(&raw.user),
            outcome: bounded(&raw.outcome),
            reason: bounded(&raw.reason),
            from_ms: instant("from", &from)?,
            to_ms: instant("to", &to)?,
            from,
            to,
            size,
            cursor,
        })
    }

    /// The query string of the same view at `cursor` (filters and size kept; empty ones left
    /// out), not yet escaped for HTML.
    pub(crate) fn at(&self, cursor: AuditCursor) -> String {
        let mut query = url::form_urlencoded::Serializer::new(String::new());
        for (key, value) in [
            ("wiki", &self.wiki),
            ("tool", &self.tool),
            ("user", &self.user),
            ("outcome", &self.outcome),
            ("reason", &self.reason),
            ("from", &self.from),
            ("to", &self.to),
        ] {
            if !value.is_empty() {
                query.append_pair(key, value);
            }
        }
        if self.size != DEFAULT_SIZE {
            query.append_pair("size", &self.size.to_string());
        }
        match cursor {
            AuditCursor::Newest => {}
            AuditCursor::Before(id) => {
                query.append_pair("before", &id.to_string());
            }
            AuditCursor::After(id) => {
                query.append_pair("after", &id.to_string());
            }
        }
        query.finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn raw(pairs: &[(&str, &str)]) -> RawQuery {
        let mut raw = RawQuery::default();
        for (key, value) in pairs {
            let field = match *key {
                "tool" => &mut raw.tool,
                "from" => &mut raw.from,
                "to" => &mut raw.to,
                "size" => &mut raw.size,
                "before" => &mut raw.before,
                "after" => &mut raw.after,
                other => panic!("no field {other} in these tests"),
            };
            *field = (*value).to_owned();
        }
        raw
    }

    #[test]
    fn times_are_read_in_utc_at_minute_second_or_day_precision() {
        let query = AuditQuery::read(&raw(&[("from", "2026-12-06T19:30"), ("to", "2026-12-07")]))
            .unwrap_or_else(|error| panic!("{error}"));
        assert_eq!(query.from_ms, Some(1_796_585_400_000));
        assert_eq!(query.to_ms, Some(1_796_601_600_000));
        let seconds = AuditQuery::read(&raw(&[("from", "2026-12-06T19:30:05")]))
            .unwrap_or_else(|error| panic!("{error}"));
        assert_eq!(seconds.from_ms, Some(1_796_585_405_000));
    }

    #[test]
    fn unreadable_fields_name_the_field_and_the_form_to_use() {
        let error = AuditQuery::read(&raw(&[("from", "yesterday")])).err();
        assert!(error.is_some_and(|e| e.contains("\"from\"") && e.contains("2026-12-06T19:30")));
        let error = AuditQuery::read(&raw(&[("size", "100000")])).err();
        assert!(error.is_some_and(|e| e.contains("1 to 200")));
        let error = AuditQuery::read(&raw(&[("before", "3"), ("after", "4")])).err();
        assert!(error.is_some_and(|e| e.contains("not both")));
    }

    #[test]
    fn page_links_keep_the_filters_and_the_size() {
        let query = AuditQuery::read(&raw(&[
            ("tool", "get document"),
            ("from", "2026-12-06T19:30"),
            ("size", "20"),
            ("before", "99"),
        ]))
        .unwrap_or_else(|error| panic!("{error}"));
        assert_eq!(
            query.at(AuditCursor::After(7)),
            "tool=get+document&from=2026-12-06T19%3A30&size=20&after=7"
        );
        assert_eq!(
            query.at(AuditCursor::Newest),
            "tool=get+document&from=2026-12-06T19%3A30&size=20"
        );
    }
}
