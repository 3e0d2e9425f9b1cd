//! Document versions `major.minor`.

use std::fmt;
use std::str::FromStr;

/// A document row's version: creation is `1.1`, a minor save bumps the minor number, a major save
/// starts the next major at `.1`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Version {
    /// The major number.
    pub major: u32,
    /// The minor number.
    pub minor: u32,
}

/// A version string that is not `\d{1,9}\.\d{1,9}`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("version must be two numbers of 1-9 digits joined by a dot")]
pub struct VersionParseError;

impl Version {
    /// The version of a newly created row.
    pub const FIRST: Version = Version { major: 1, minor: 1 };

    /// The version after this one.
    pub fn next(self, major: bool) -> Version {
        if major {
            Version {
                major: self.major.saturating_add(1),
                minor: 1,
            }
        } else {
            Version {
                major: self.major,
                minor: self.minor.saturating_add(1),
            }
        }
    }

    /// Whether this revision was a minor edit (anything but `N.1`).
    pub fn is_minor(self) -> bool {
        self.minor != 1
    }
}

impl fmt::Display for Version {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}", self.major, self.minor)
    }
}

impl FromStr for Version {
    type Err = VersionParseError;

    /// Strict: exactly `\d{1,9}\.\d{1,9}`, so provider prefixes (`deleted:3`) and extra parts
    /// (`1.2.3`) never reach a query.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let (major, minor) = s.split_once('.').ok_or(VersionParseError)?;
        let number = |part: &str| {
            if (1..=9).contains(&part.len()) && part.bytes().all(|b| b.is_ascii_digit()) {
                part.parse::<u32>().map_err(|_| VersionParseError)
            } else {
                Err(VersionParseError)
            }
        };
        Ok(Version {
            major: number(major)?,
            minor: number(minor)?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn next_versions() {
        assert_eq!(Version::FIRST.next(false).to_string(), "1.2");
        assert_eq!(Version::FIRST.next(false).next(true).to_string(), "2.1");
        assert!(!Version::FIRST.is_minor());
        assert!(Version::FIRST.next(false).is_minor());
    }

    #[test]
    fn only_the_strict_grammar_parses() {
        assert_eq!(
            "4.12".parse(),
            Ok(Version {
                major: 4,
                minor: 12
            })
        );
        for bad in [
            "",
            "1",
            "1.",
            ".1",
            "1.2.3",
            "deleted:3",
            "xar:2.1",
            "1234567890.1",
            "+1.1",
            "1.-1",
            " 1.1",
        ] {
            assert_eq!(bad.parse::<Version>(), Err(VersionParseError), "{bad:?}");
        }
    }
}
