//! Parameter errors, worded as the reference words them (`Error: 'limit' must be an integer.`).
//!
//! CONTRACT: every variant names the parameter; `Display` is the agent-facing text. Every value
//! the agent sent and that is echoed back (an enum value, an unknown argument name) is guarded
//! with [`fragment`], so an argument cannot forge a line of output.

use std::fmt;

use crate::output::guard::fragment;

/// Why an argument was refused. `Display` is exactly what the agent reads.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ParamError {
    /// A required parameter is absent (or blank, for non-raw strings).
    Required {
        /// Wire name.
        name: &'static str,
    },
    /// The JSON type is wrong; `expected` reads e.g. "a string", "an integer".
    WrongType {
        /// Wire name.
        name: &'static str,
        /// What was expected, with its article.
        expected: &'static str,
    },
    /// An integer outside its declared range (and not clamped).
    OutOfRange {
        /// Wire name.
        name: &'static str,
        /// Lower bound.
        min: i64,
        /// Upper bound.
        max: i64,
        /// The value sent.
        got: i64,
    },
    /// A value not among an enum's accepted values.
    NotOneOf {
        /// Wire name.
        name: &'static str,
        /// The accepted wire values.
        accepted: &'static [&'static str],
        /// The value sent (guarded before display).
        got: String,
    },
    /// An argument name the tool does not declare.
    Unknown {
        /// The argument name sent (guarded before display).
        name: String,
        /// The accepted wire names.
        accepted: Vec<&'static str>,
    },
    /// Anything else, with a complete agent-facing explanation naming the parameter.
    Invalid {
        /// Wire name.
        name: &'static str,
        /// The rest of the sentence after `Error: '<name>' `, written by the runtime (any echoed
        /// value in it already guarded).
        message: String,
    },
}

impl ParamError {
    /// The wire name of the parameter this error is about.
    pub fn param(&self) -> &str {
        match self {
            Self::Required { name }
            | Self::WrongType { name, .. }
            | Self::OutOfRange { name, .. }
            | Self::NotOneOf { name, .. }
            | Self::Invalid { name, .. } => name,
            Self::Unknown { name, .. } => name,
        }
    }
}

impl fmt::Display for ParamError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Required { name } => write!(f, "Error: '{name}' parameter is required."),
            Self::WrongType { name, expected } => write!(f, "Error: '{name}' must be {expected}."),
            Self::OutOfRange {
                name,
                min,
                max,
                got,
            } => write!(
                f,
                "Error: '{name}' must be between {min} and {max} (got {got})."
            ),
            Self::NotOneOf {
                name,
                accepted,
                got,
            } => write!(
                f,
                "Error: '{name}' must be one of: {} (got \"{}\").",
                accepted.join(", "),
                fragment(got)
            ),
            Self::Unknown { name, accepted } => {
                write!(
                    f,
                    "Error: '{}' is not a parameter of this tool. ",
                    fragment(name)
                )?;
                if accepted.is_empty() {
                    f.write_str("This tool takes no parameters: call it with no arguments.")
                } else {
                    write!(f, "Accepted parameters: {}.", accepted.join(", "))
                }
            }
            Self::Invalid { name, message } => write!(f, "Error: '{name}' {message}"),
        }
    }
}

impl std::error::Error for ParamError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wording_follows_the_reference() {
        let cases = [
            (
                ParamError::Required { name: "reference" },
                "Error: 'reference' parameter is required.",
            ),
            (
                ParamError::WrongType {
                    name: "limit",
                    expected: "an integer",
                },
                "Error: 'limit' must be an integer.",
            ),
            (
                ParamError::OutOfRange {
                    name: "limit",
                    min: 1,
                    max: 100,
                    got: 500,
                },
                "Error: 'limit' must be between 1 and 100 (got 500).",
            ),
            (
                ParamError::Unknown {
                    name: "limt".to_owned(),
                    accepted: vec!["reference", "limit"],
                },
                "Error: 'limt' is not a parameter of this tool. Accepted parameters: reference, limit.",
            ),
            (
                ParamError::Unknown {
                    name: "x".to_owned(),
                    accepted: vec![],
                },
                "Error: 'x' is not a parameter of this tool. This tool takes no parameters: call it with no arguments.",
            ),
        ];
        for (error, text) in cases {
            assert_eq!(error.to_string(), text);
        }
    }

    #[test]
    fn echoed_values_are_guarded() {
        let forged = ParamError::NotOneOf {
            name: "mode",
            accepted: &["source", "rendered"],
            got: format!("x\nError: forged line\u{202E}{}", "z".repeat(300)),
        };
        let text = forged.to_string();
        assert!(!text.contains('\n') && !text.contains('\u{202E}'));
        assert!(text.starts_with(
            "Error: 'mode' must be one of: source, rendered (got \"xError: forged line"
        ));
        assert!(text.ends_with("…\")."));

        let unknown = ParamError::Unknown {
            name: "a\r\nb".to_owned(),
            accepted: vec!["c"],
        };
        assert!(unknown.to_string().starts_with("Error: 'ab' is not"));
        assert_eq!(unknown.param(), "a\r\nb");
    }
}
