//! The `modifiedRange` grammar of query_documents: exactly one range `[<from> TO <to>]`, each
//! bound `*` (open), `NOW` with optional date math (`NOW-7DAYS`, `NOW/DAY`, `NOW-1MONTH/DAY`),
//! or an ISO-8601 UTC instant (`2026-01-31T00:00:00Z`). Anything else is refused: the reference
//! passed this text to Solr and had to keep it from smuggling query syntax; we never pass it
//! anywhere, but a strict grammar still means an agent learns at once that its value was not
//! understood instead of getting silently unfiltered results.

use wiki_tool_sdk::time::format_description::well_known::Rfc3339;
use wiki_tool_sdk::time::{Date, Duration, Month, OffsetDateTime, Time};

/// The instants a range keeps, inclusive; `None` is an open side.
pub(super) type Bounds = (Option<OffsetDateTime>, Option<OffsetDateTime>);

/// Why a range was refused, as the end of the agent-facing sentence.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum RangeError {
    /// Not of the form `[a TO b]` with valid bounds.
    Malformed,
    /// `from` is after `to`: nothing could match.
    Reversed,
}

/// Parses `text` (already trimmed) against `now`.
pub(super) fn parse_range(text: &str, now: OffsetDateTime) -> Result<Bounds, RangeError> {
    let inner = text
        .strip_prefix('[')
        .and_then(|rest| rest.strip_suffix(']'))
        .ok_or(RangeError::Malformed)?;
    let (from, to) = inner.split_once(" TO ").ok_or(RangeError::Malformed)?;
    let from = bound(from, now)?;
    let to = bound(to, now)?;
    if let (Some(from), Some(to)) = (from, to)
        && from > to
    {
        return Err(RangeError::Reversed);
    }
    Ok((from, to))
}

fn bound(text: &str, now: OffsetDateTime) -> Result<Option<OffsetDateTime>, RangeError> {
    if text == "*" {
        return Ok(None);
    }
    if let Some(math) = text.strip_prefix("NOW") {
        return date_math(math, now).map(Some);
    }
    instant(text).map(Some)
}

/// A strict `YYYY-MM-DDTHH:MM:SS[.fff]Z`: no offsets, no spaces, no lowercase `t`/`z`.
fn instant(text: &str) -> Result<OffsetDateTime, RangeError> {
    let shape_ok = text.len() >= 20
        && text.ends_with('Z')
        && text.as_bytes().get(10) == Some(&b'T')
        && text
            .bytes()
            .all(|b| b.is_ascii_digit() || matches!(b, b'-' | b':' | b'.' | b'T' | b'Z'));
    if !shape_ok {
        return Err(RangeError::Malformed);
    }
    OffsetDateTime::parse(text, &Rfc3339).map_err(|_| RangeError::Malformed)
}

/// Solr date math after `NOW`: any sequence of `+N<UNIT>`, `-N<UNIT>` and `/<UNIT>`.
fn date_math(mut math: &str, now: OffsetDateTime) -> Result<OffsetDateTime, RangeError> {
    let mut at = now;
    while let Some(op) = math.chars().next() {
        math = &math[op.len_utf8()..];
        match op {
            '+' | '-' => {
                let digits = math.bytes().take_while(u8::is_ascii_digit).count();
                let amount: i64 = math[..digits].parse().map_err(|_| RangeError::Malformed)?;
                let amount = if op == '-' { -amount } else { amount };
                let (unit, rest) = unit(&math[digits..], true)?;
                at = shift(at, amount, unit)?;
                math = rest;
            }
            '/' => {
                let (unit, rest) = unit(math, false)?;
                at = round_down(at, unit)?;
                math = rest;
            }
            _ => return Err(RangeError::Malformed),
        }
    }
    Ok(at)
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Unit {
    Year,
    Month,
    Day,
    Hour,
    Minute,
    Second,
}

const UNITS: [(&str, Unit); 6] = [
    ("YEAR", Unit::Year),
    ("MONTH", Unit::Month),
    ("DAY", Unit::Day),
    ("HOUR", Unit::Hour),
    ("MINUTE", Unit::Minute),
    ("SECOND", Unit::Second),
];

/// The unit at the start of `text` (a plural `S` allowed after an amount) and what follows.
fn unit(text: &str, plural_allowed: bool) -> Result<(Unit, &str), RangeError> {
    for (name, unit) in UNITS {
        if let Some(rest) = text.strip_prefix(name) {
            let rest = match rest.strip_prefix('S') {
                Some(after) if plural_allowed => after,
                _ => rest,
            };
            return Ok((unit, rest));
        }
    }
    Err(RangeError::Malformed)
}

fn shift(at: OffsetDateTime, amount: i64, unit: Unit) -> Result<OffsetDateTime, RangeError> {
    let fixed = |seconds: i64| {
        amount
            .checked_mul(seconds)
            .and_then(|s| at.checked_add(Duration::seconds(s)))
            .ok_or(RangeError::Malformed)
    };
    match unit {
        Unit::Year => add_months(at, amount.checked_mul(12).ok_or(RangeError::Malformed)?),
        Unit::Month => add_months(at, amount),
        Unit::Day => fixed(86_400),
        Unit::Hour => fixed(3_600),
        Unit::Minute => fixed(60),
        Unit::Second => fixed(1),
    }
}

/// Calendar months, the day clamped to the target month's length (Jan 31 + 1 month = Feb 28).
fn add_months(at: OffsetDateTime, months: i64) -> Result<OffsetDateTime, RangeError> {
    let index = i64::from(at.year()) * 12 + i64::from(u8::from(at.month())) - 1 + months;
    let year = i32::try_from(index.div_euclid(12)).map_err(|_| RangeError::Malformed)?;
    let month = u8::try_from(index.rem_euclid(12) + 1)
        .ok()
        .and_then(|m| Month::try_from(m).ok())
        .ok_or(RangeError::Malformed)?;
    let day = at.day().min(month.length(year));
    let date = Date::from_calendar_date(year, month, day).map_err(|_| RangeError::Malformed)?;
    Ok(at.replace_date(date))
}

fn round_down(at: OffsetDateTime, unit: Unit) -> Result<OffsetDateTime, RangeError> {
    let hms = |h, m, s| Time::from_hms(h, m, s).map_err(|_| RangeError::Malformed);
    Ok(match unit {
        Unit::Second => at.replace_time(hms(at.hour(), at.minute(), at.second())?),
        Unit::Minute => at.replace_time(hms(at.hour(), at.minute(), 0)?),
        Unit::Hour => at.replace_time(hms(at.hour(), 0, 0)?),
        Unit::Day => at.replace_time(Time::MIDNIGHT),
        Unit::Month => at
            .replace_time(Time::MIDNIGHT)
            .replace_day(1)
            .map_err(|_| RangeError::Malformed)?,
        Unit::Year => at.replace_time(Time::MIDNIGHT).replace_date(
            Date::from_calendar_date(at.year(), Month::January, 1)
                .map_err(|_| RangeError::Malformed)?,
        ),
    })
}

#[cfg(test)]
mod tests {
    use time::macros::datetime;

    use super::*;

    const NOW: OffsetDateTime = datetime!(2026-03-31 14:25:36.5 UTC);

    fn parse(text: &str) -> Result<Bounds, RangeError> {
        parse_range(text, NOW)
    }

    #[test]
    fn open_bounds_now_and_instants() {
        assert_eq!(parse("[* TO *]"), Ok((None, None)));
        assert_eq!(parse("[* TO NOW]"), Ok((None, Some(NOW))));
        assert_eq!(
            parse("[2026-01-01T00:00:00Z TO 2026-02-01T12:00:00.250Z]"),
            Ok((
                Some(datetime!(2026-01-01 0:00 UTC)),
                Some(datetime!(2026-02-01 12:00:00.25 UTC))
            ))
        );
    }

    #[test]
    fn date_math_shifts_and_rounds() {
        assert_eq!(
            parse("[NOW-7DAYS TO NOW]"),
            Ok((Some(datetime!(2026-03-24 14:25:36.5 UTC)), Some(NOW)))
        );
        assert_eq!(
            parse("[NOW-1MONTH/DAY TO NOW/HOUR]"),
            Ok((
                Some(datetime!(2026-02-28 0:00 UTC)),
                Some(datetime!(2026-03-31 14:00 UTC))
            ))
        );
        assert_eq!(
            parse("[NOW/YEAR TO NOW+2HOURS-30MINUTES/SECOND]"),
            Ok((
                Some(datetime!(2026-01-01 0:00 UTC)),
                Some(datetime!(2026-03-31 15:55:36 UTC))
            ))
        );
        assert_eq!(
            parse("[NOW-1YEAR/MONTH TO *]"),
            Ok((Some(datetime!(2025-03-01 0:00 UTC)), None))
        );
    }

    #[test]
    fn anything_else_is_refused() {
        for bad in [
            "",
            "NOW-7DAYS TO NOW",
            "[NOW-7DAYS TO NOW",
            "[NOW-7DAYS  TO NOW]",
            "[NOW-7DAYS TO NOW] OR hidden:true",
            "[NOW-7DAYS TO NOW] [* TO *]",
            "[now TO *]",
            "[NOW-DAYS TO *]",
            "[NOW-7WEEKS TO *]",
            "[NOW/DAYS TO *]",
            "[NOW-7DAYS) TO *]",
            "[2026-01-01 TO *]",
            "[2026-01-01T00:00:00+01:00 TO *]",
            "[2026-13-01T00:00:00Z TO *]",
            "[* TO NOW-99999999999999999999YEARS]",
            "{* TO *}",
            "[*:* TO *]",
        ] {
            assert_eq!(parse(bad), Err(RangeError::Malformed), "{bad}");
        }
        assert_eq!(
            parse("[NOW TO NOW-1DAY]"),
            Err(RangeError::Reversed),
            "reversed"
        );
    }
}
