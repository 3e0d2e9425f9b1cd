//! Parameter errors, worded as the reference words them (`Error: 'limit' must be an integer.`).
//!
//! CONTRACT: every variant names the parameter; `Display` is the agent-facing text. Every value
//! the agent sent and that is echoed back (an enum value, an unknown argument name) is guarded
//! with [`fragment`], so an argument cannot forge a line of output.

use std::fmt;

use super::number::Number;
use crate::output::guard::fragment;

/// Why an argument was refused. `Display` is exactly what the agent reads.
#[derive(Debug, Clone, PartialEq)]
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
    /// A number outside its declared range (and not clamped).
    OutOfRange {
        /// Wire name.
        name: &'static str,
        /// Lower bound.
        min: Number,
        /// Upper bound.
        max: Number,
        /// The value sent.
        got: Number,
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
    /// A property of an object parameter (or of one element of an array of objects) was
    /// refused: `inner` names the property as the parameter it is.
    InObject {
        /// Wire name of the object parameter.
        name: &'static str,
        /// The element of an array of objects, 0-based; `None` for a single object.
        element: Option<usize>,
        /// The property's own refusal.
        inner: Box<ParamError>,
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
            | Self::Invalid { name, .. }
            | Self::InObject { name, .. } => name,
            Self::Unknown { name, .. } => name,
        }
    }
}

impl ParamError {
    /// The sentence after `Error: `; `in_object` words it for a property of an object parameter
    /// (whose "parameters" are its properties).
    fn sentence(&self, f: &mut fmt::Formatter<'_>, in_object: bool) -> fmt::Result {
        match self {
            Self::Required { name } => write!(f, "'{name}' parameter is required."),
            Self::WrongType { name, expected } => write!(f, "'{name}' must be {expected}."),
            Self::OutOfRange {
                name,
                min,
                max,
                got,
            } => write!(f, "'{name}' must be between {min} and {max} (got {got})."),
            Self::NotOneOf {
                name,
                accepted,
                got,
            } => write!(
                f,
                "'{name}' must be one of: {} (got \"{}\").",
                accepted.join(", "),
                fragment(got)
            ),
            Self::Unknown { name, accepted } if in_object => {
                write!(f, "'{}' is not a property of this object. ", fragment(name))?;
                if accepted.is_empty() {
                    f.write_str("It takes no properties: send {}.")
                } else {
                    write!(f, "Accepted properties: {}.", accepted.join(", "))
                }
            }
            Self::Unknown { name, accepted } => {
                write!(f, "'{}' is not a parameter of this tool. ", fragment(name))?;
                if accepted.is_empty() {
                    f.write_str("This tool takes no parameters: call it with no arguments.")
                } else {
                    write!(f, "Accepted parameters: {}.", accepted.join(", "))
                }
            }
            Self::Invalid { name, message } => write!(f, "'{name}' {message}"),
            Self::InObject {
                name,
                element,
                inner,
            } => {
                write!(f, "'{name}' ")?;
                if let Some(index) = element {
                    write!(f, "element {index} ")?;
                }
                f.write_str("is invalid: ")?;
                inner.sentence(f, true)
            }
        }
    }
}

impl fmt::Display for ParamError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Error: ")?;
        self.sentence(f, false)
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
                    min: Number::Int(1),
                    max: Number::Int(100),
                    got: Number::Int(500),
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
            (
                ParamError::InObject {
                    name: "edits",
                    element: Some(1),
                    inner: Box::new(ParamError::Required { name: "old_string" }),
                },
                "Error: 'edits' element 1 is invalid: 'old_string' parameter is required.",
            ),
            (
                ParamError::InObject {
                    name: "filter",
                    element: None,
                    inner: Box::new(ParamError::Unknown {
                        name: "feild".to_owned(),
                        accepted: vec!["field", "value"],
                    }),
                },
                "Error: 'filter' is invalid: 'feild' is not a property of this object. \
                 Accepted properties: field, value.",
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
