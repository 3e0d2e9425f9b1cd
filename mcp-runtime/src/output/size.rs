//! Human-readable sizes, as the reference prints attachment and revision sizes.

const UNITS: [&str; 4] = ["KB", "MB", "GB", "TB"];

/// `760 bytes`, `3 KB`, `1.2 MB`, `15 MB`: one decimal below 10 (dropped when it is `.0`), a
/// unit promoted once the rounded value would reach 1024; a negative size is `unknown size`.
pub fn human_size(bytes: i64) -> String {
    if bytes < 0 {
        return "unknown size".to_owned();
    }
    if bytes < 1024 {
        return if bytes == 1 {
            "1 byte".to_owned()
        } else {
            format!("{bytes} bytes")
        };
    }
    #[allow(clippy::cast_precision_loss)]
    let mut value = bytes as f64 / 1024.0;
    let mut unit = 0;
    while value >= 1023.5 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    let number = if value < 10.0 {
        let one_decimal = format!("{value:.1}");
        one_decimal
            .strip_suffix(".0")
            .map_or(one_decimal.clone(), str::to_owned)
    } else {
        format!("{value:.0}")
    };
    format!("{number} {}", UNITS[unit])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reference_examples() {
        assert_eq!(human_size(760), "760 bytes");
        assert_eq!(human_size(3 * 1024), "3 KB");
        assert_eq!(human_size(1_258_291), "1.2 MB");
        assert_eq!(human_size(15 * 1024 * 1024), "15 MB");
        assert_eq!(human_size(-1), "unknown size");
    }

    #[test]
    fn edges() {
        assert_eq!(human_size(0), "0 bytes");
        assert_eq!(human_size(1), "1 byte");
        assert_eq!(human_size(1023), "1023 bytes");
        assert_eq!(human_size(1024), "1 KB");
        assert_eq!(human_size(1023 * 1024), "1023 KB");
        assert_eq!(human_size(1024 * 1024 - 1), "1 MB");
        assert_eq!(human_size(i64::MAX), "8388608 TB");
    }
}
