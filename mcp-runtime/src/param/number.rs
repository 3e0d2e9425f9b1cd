//! [`Number`]: a `#[param(default = …)]` or `#[param(range = …)]` value as the author wrote it,
//! whatever the field's numeric type, and the bounds each numeric type holds.
//!
//! One representation for every numeric kind keeps [`ParamSpec`](super::ParamSpec) plain data:
//! an integer literal is an `i128` (it covers `i64` and `u64` alike), a float literal an `f64`.
//! Whether a literal fits the field's type is checked at compile time (`keys.rs`), so a
//! parser never meets a bound its type cannot hold.

use std::fmt;

use serde_json::Value;

/// A number from a declaration: an integer or a (finite) float literal.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Number {
    /// An integer literal (`20`, `-1`, `18446744073709551615`).
    Int(i128),
    /// A float literal (`0.5`, `-1.0`, `1e3`).
    Float(f64),
}

impl Number {
    /// The value as an `f64` (an integer beyond 2^53 is rounded).
    #[allow(clippy::cast_precision_loss)]
    pub const fn as_f64(self) -> f64 {
        match self {
            Self::Int(value) => value as f64,
            Self::Float(value) => value,
        }
    }

    /// The value as an integer, or `None` for a float literal.
    pub const fn as_int(self) -> Option<i128> {
        match self {
            Self::Int(value) => Some(value),
            Self::Float(_) => None,
        }
    }

    /// The value as JSON, for a schema's `minimum`, `maximum` and `default`.
    pub fn to_json(self) -> Value {
        match self {
            Self::Int(value) => i64::try_from(value)
                .map(Value::from)
                .or_else(|_| u64::try_from(value).map(Value::from))
                .unwrap_or_else(|_| Value::from(self.as_f64())),
            Self::Float(value) => Value::from(value),
        }
    }
}

impl fmt::Display for Number {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Int(value) => value.fmt(f),
            Self::Float(value) => value.fmt(f),
        }
    }
}

/// What a numeric parameter type holds, read by the compile-time checks of `default` and
/// `range` literals (`keys.rs`) and by the parsers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NumberKind {
    /// The least integer the type holds (unused for floats).
    pub min: i128,
    /// The greatest integer the type holds (unused for floats).
    pub max: i128,
    /// Whether the type holds integers only (a float literal does not fit it).
    pub integer: bool,
}

impl NumberKind {
    /// An integer type holding `min..=max`.
    pub const fn integer(min: i128, max: i128) -> Self {
        Self {
            min,
            max,
            integer: true,
        }
    }

    /// `f64`.
    pub const FLOAT: Self = Self {
        min: 0,
        max: 0,
        integer: false,
    };
}
