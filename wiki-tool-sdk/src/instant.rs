//! The two forms tools print the store's instants in: ISO-8601 UTC for machine-read dates, and
//! UTC to the minute for dates a person compares by eye (revision lists, listings).

use time::format_description::well_known::Rfc3339;
use time::{OffsetDateTime, UtcOffset};

/// `instant` in UTC as ISO-8601 with a `Z` suffix and whole seconds, e.g.
/// `2026-11-30T09:05:00Z` (the reference prints `Instant.toString()` of second-precision dates).
pub fn iso_instant(instant: OffsetDateTime) -> String {
    // Only dates within a day of the supported range (±9999 years) have no UTC form.
    let utc = instant.checked_to_offset(UtcOffset::UTC).unwrap_or(instant);
    let utc = utc.replace_nanosecond(0).unwrap_or(utc);
    // RFC 3339 is the ISO-8601 profile; formatting a UTC date in range cannot fail.
    utc.format(&Rfc3339).unwrap_or_else(|_| utc.to_string())
}

/// `instant` in UTC to the minute, e.g. `2026-08-18 10:15`: enough to tell revisions apart by
/// eye, and the same whatever offset the date was stored with.
pub fn utc_minute(instant: OffsetDateTime) -> String {
    let utc = instant.checked_to_offset(UtcOffset::UTC).unwrap_or(instant);
    format!(
        "{:04}-{:02}-{:02} {:02}:{:02}",
        utc.year(),
        u8::from(utc.month()),
        utc.day(),
        utc.hour(),
        utc.minute()
    )
}

#[cfg(test)]
mod tests {
    use time::macros::datetime;

    use super::*;

    #[test]
    fn prints_utc_with_z_and_whole_seconds() {
        assert_eq!(
            iso_instant(datetime!(2026-11-30 10:05:07.250 +01:00)),
            "2026-11-30T09:05:07Z"
        );
        assert_eq!(
            iso_instant(datetime!(1999-01-01 0:00 UTC)),
            "1999-01-01T00:00:00Z"
        );
    }

    #[test]
    fn minutes_are_utc_and_padded() {
        assert_eq!(
            utc_minute(datetime!(2026-11-30 10:05:59 +01:00)),
            "2026-11-30 09:05"
        );
        assert_eq!(
            utc_minute(datetime!(0999-01-02 3:04 UTC)),
            "0999-01-02 03:04"
        );
    }
}
