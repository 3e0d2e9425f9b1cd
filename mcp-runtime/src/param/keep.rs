//! [`Keep`]: an optional parameter whose explicit empty value means something.

/// An optional parameter that keeps a present-but-empty value distinct from an absent one.
///
/// `Option<String>` treats a blank argument as absent, which is right for filters and wrong for
/// values that may legitimately be cleared: `Keep<String>` gives `Keep::Absent` when the argument
/// was not sent and `Keep::Present("")` when it was sent empty (the reference's `stringOrEmpty`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub enum Keep<T> {
    /// The argument was not sent (or was JSON `null`).
    #[default]
    Absent,
    /// The argument was sent, possibly empty.
    Present(T),
}

impl<T> Keep<T> {
    /// Whether the argument was sent.
    pub fn is_present(&self) -> bool {
        matches!(self, Self::Present(_))
    }

    /// The value, if sent.
    pub fn as_option(&self) -> Option<&T> {
        match self {
            Self::Absent => None,
            Self::Present(value) => Some(value),
        }
    }

    /// The value, if sent.
    pub fn into_option(self) -> Option<T> {
        match self {
            Self::Absent => None,
            Self::Present(value) => Some(value),
        }
    }
}

impl Keep<String> {
    /// The value as `&str`, if sent (possibly `""`).
    pub fn as_deref(&self) -> Option<&str> {
        self.as_option().map(String::as_str)
    }
}

impl<T> From<Option<T>> for Keep<T> {
    fn from(value: Option<T>) -> Self {
        value.map_or(Self::Absent, Self::Present)
    }
}

impl<T> From<Keep<T>> for Option<T> {
    fn from(value: Keep<T>) -> Self {
        value.into_option()
    }
}
