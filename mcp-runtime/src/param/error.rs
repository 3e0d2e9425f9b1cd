//! Parameter errors, worded as the reference words them (`Error: 'limit' must be an integer.`).
//!
//! CONTRACT: every variant names the parameter; `Display` is the agent-facing text. The runtime
//! helper owns the final wording of each variant (facts §3.5) and guards every echoed value.

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
        /// The rest of the sentence after `Error: '<name>' `.
        message: String,
    },
}

impl std::fmt::Display for ParamError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
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
                "Error: '{name}' must be one of: {} (got \"{got}\").",
                accepted.join(", ")
            ),
            Self::Unknown { name, accepted } => write!(
                f,
                "Error: '{name}' is not a parameter of this tool. Accepted parameters: {}.",
                if accepted.is_empty() {
                    "none (call it with no arguments)".to_owned()
                } else {
                    accepted.join(", ")
                }
            ),
            Self::Invalid { name, message } => write!(f, "Error: '{name}' {message}"),
        }
    }
}

impl std::error::Error for ParamError {}
