//! ISO-8601 UTC instants, the one date form every tool prints.

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
}
