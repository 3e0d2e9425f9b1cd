//! Which `#[param(...)]` key applies to which field type, decided by traits: the macro never
//! matches type names. For each key an author writes, `#[mcp_tool]` emits a compile-time check
//! naming the field's type (spanned on the key), and the type either implements that key's trait
//! or the build fails with the trait's message, which says what the key is for and where it
//! applies. A new parameter type opts into a key by implementing its trait here.
//!
//! `default` and `range` values are also checked against what the type holds, in const
//! evaluation: a float on an integer type, or an integer the type cannot hold (`-1` on a `u32`),
//! fails the build with the message the macro wrote for that literal.

use std::collections::BTreeMap;

use super::number::{Number, NumberKind};
use super::{Keep, ParamObject};

/// A numeric parameter type and what it holds.
pub trait Numeric {
    /// The values it holds.
    const KIND: NumberKind;
}

/// `#[param(default = N)]`: the value of an absent argument.
#[diagnostic::on_unimplemented(
    message = "`default` does not apply to `{Self}`",
    label = "`default` is for number parameters",
    note = "`default = N` gives a number parameter (i64, u32, u64, usize, f64 or their Option) \
            its value when the argument is absent; a `bool` is false when absent, an `Option` \
            None: remove `default`, or handle the absent case in `execute`"
)]
pub trait DefaultKey: Numeric {}

/// `#[param(range = a..=b)]`: the values accepted.
#[diagnostic::on_unimplemented(
    message = "`range` does not apply to `{Self}`",
    label = "`range` is for number parameters",
    note = "`range = a..=b` (or `a..`, a minimum alone) bounds a number parameter (i64, u32, \
            u64, usize, f64 or their Option); remove it, or check the value in `execute` with a message of your own"
)]
pub trait RangeKey: Numeric {}

/// `#[param(clamp)]`: an argument above `range` is lowered to its maximum instead of refused.
#[diagnostic::on_unimplemented(
    message = "`clamp` does not apply to `{Self}`",
    label = "`clamp` is for number parameters with a `range`",
    note = "`clamp` moves a number (i64, u32, u64, usize, f64 or their Option) into its `range` \
            instead of refusing it; remove it"
)]
pub trait ClampKey: Numeric {}

/// `#[param(raw)]`: text kept exactly as sent (not trimmed, blank allowed).
#[diagnostic::on_unimplemented(
    message = "`raw` does not apply to `{Self}`",
    label = "`raw` is for text parameters",
    note = "`raw` keeps text exactly as sent, such as page content: it applies to String, \
            Option<String>, Keep<String> and Vec<String>; remove it"
)]
pub trait RawKey {}

/// `#[param(required)]`: a parameter that is optional by default (absent = empty) must be sent.
#[diagnostic::on_unimplemented(
    message = "`required` does not apply to `{Self}`",
    label = "the type already says whether it is required",
    note = "`required` applies to collections, which are empty when absent (Vec<String>, \
            BTreeMap<String, String>, Vec<T> of a ParamObject); other types say it in the type: \
            `T` is required, `Option<T>` optional"
)]
pub trait RequiredKey {}

/// `#[param(extended)]`: advertised only in the extended schema variant.
#[diagnostic::on_unimplemented(
    message = "`extended` does not apply to `{Self}`: the parameter must be optional",
    label = "make it `Option<...>` (or `Keep<...>`)",
    note = "an `extended` parameter is left out of the standard schema, so clients of that \
            variant never send it: the tool must work when it is absent"
)]
pub trait ExtendedKey {}

macro_rules! numeric {
    ($($ty:ty => $kind:expr),* $(,)?) => {$(
        impl Numeric for $ty {
            const KIND: NumberKind = $kind;
        }
        impl Numeric for Option<$ty> {
            const KIND: NumberKind = $kind;
        }
        impl DefaultKey for $ty {}
        impl DefaultKey for Option<$ty> {}
        impl RangeKey for $ty {}
        impl RangeKey for Option<$ty> {}
        impl ClampKey for $ty {}
        impl ClampKey for Option<$ty> {}
    )*};
}

numeric!(
    i64 => NumberKind::integer(i64::MIN as i128, i64::MAX as i128),
    u32 => NumberKind::integer(0, u32::MAX as i128),
    u64 => NumberKind::integer(0, u64::MAX as i128),
    usize => NumberKind::integer(0, usize::MAX as i128),
    f64 => NumberKind::FLOAT,
);

impl RawKey for String {}
impl RawKey for Option<String> {}
impl RawKey for Keep<String> {}
impl RawKey for Vec<String> {}

impl RequiredKey for Vec<String> {}
impl RequiredKey for BTreeMap<String, String> {}
impl<T: ParamObject> RequiredKey for Vec<T> {}

impl<T> ExtendedKey for Option<T> {}
impl<T> ExtendedKey for Keep<T> {}

/// What the macro says when a `default` or `range` literal does not fit the field's type; each
/// message is complete (it names the key, the literal and the type as written).
#[derive(Debug, Clone, Copy)]
pub struct NumberMessages {
    /// A float literal on an integer type.
    pub not_integer: &'static str,
    /// An integer below the type's least value.
    pub too_low: &'static str,
    /// An integer above the type's greatest value.
    pub too_high: &'static str,
}

/// Fails const evaluation with the matching message when `value` does not fit `kind`.
const fn check_fits(kind: NumberKind, value: Number, messages: &NumberMessages) {
    match value {
        Number::Float(_) if kind.integer => panic!("{}", messages.not_integer),
        Number::Int(value) if kind.integer && value < kind.min => {
            panic!("{}", messages.too_low)
        }
        Number::Int(value) if kind.integer && value > kind.max => {
            panic!("{}", messages.too_high)
        }
        _ => {}
    }
}

/// `#[param(default = value)]` on a `T`: applies, and fits.
pub const fn default_key<T: DefaultKey + ?Sized>(value: Number, messages: &NumberMessages) {
    check_fits(T::KIND, value, messages);
}

/// `#[param(range = min..=max)]` or `#[param(range = min..)]` on a `T`: applies, and the
/// bounds given fit.
pub const fn range_key<T: RangeKey + ?Sized>(
    (min, max): (Number, Option<Number>),
    messages: &NumberMessages,
) {
    check_fits(T::KIND, min, messages);
    if let Some(max) = max {
        check_fits(T::KIND, max, messages);
    }
}

/// `#[param(clamp)]` on a `T`.
pub const fn clamp_key<T: ClampKey + ?Sized>() {}

/// `#[param(raw)]` on a `T`.
pub const fn raw_key<T: RawKey + ?Sized>() {}

/// `#[param(required)]` on a `T`.
pub const fn required_key<T: RequiredKey + ?Sized>() {}

/// `#[param(extended)]` on a `T`.
pub const fn extended_key<T: ExtendedKey + ?Sized>() {}
