//! Locales of document rows, in the stored form `fr` or `pt_BR`.

use std::fmt;

/// The longest storable serialized locale (a language and a region: `pt_BR`).
pub const MAX_LOCALE_CHARS: usize = 5;

/// Why a locale was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum LocaleError {
    /// Not a locale at all (forms like `fr` or `pt_BR` are expected).
    #[error("not a valid locale")]
    Invalid,
    /// A valid locale with a script or variant, longer than the storage keeps.
    #[error("locale too specific for the storage")]
    TooSpecific,
}

/// A parsed locale: lowercase language, optional uppercase region, joined by `_`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Locale(String);

impl Locale {
    /// Parses `fr`, `pt_BR`, `pt-br` or `PT_br` into the stored form; refuses scripts and variants.
    pub fn parse(input: &str) -> Result<Self, LocaleError> {
        let mut parts = input.split(['_', '-']);
        let language = parts.next().unwrap_or_default();
        if !(2..=3).contains(&language.len()) || !language.chars().all(|c| c.is_ascii_alphabetic())
        {
            return Err(LocaleError::Invalid);
        }
        let mut out = language.to_ascii_lowercase();
        let mut extra = 0usize;
        for (index, part) in parts.enumerate() {
            let valid =
                (2..=8).contains(&part.len()) && part.chars().all(|c| c.is_ascii_alphanumeric());
            if !valid {
                return Err(LocaleError::Invalid);
            }
            out.push('_');
            if index == 0 && part.len() == 2 && part.chars().all(|c| c.is_ascii_alphabetic()) {
                out.push_str(&part.to_ascii_uppercase());
            } else {
                out.push_str(part);
                extra += 1;
            }
        }
        if extra > 0 || out.len() > MAX_LOCALE_CHARS {
            return Err(LocaleError::TooSpecific);
        }
        Ok(Locale(out))
    }

    /// English, the default language of new documents unless configured otherwise.
    pub fn english() -> Self {
        Locale("en".to_owned())
    }

    /// The stored form.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for Locale {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn languages_and_regions_are_normalized() {
        assert_eq!(Locale::parse("fr").unwrap().as_str(), "fr");
        assert_eq!(Locale::parse("FR").unwrap().as_str(), "fr");
        assert_eq!(Locale::parse("pt_BR").unwrap().as_str(), "pt_BR");
        assert_eq!(Locale::parse("pt-br").unwrap().as_str(), "pt_BR");
    }

    #[test]
    fn scripts_variants_and_numeric_regions_are_too_specific() {
        assert_eq!(Locale::parse("zh_Hant"), Err(LocaleError::TooSpecific));
        assert_eq!(Locale::parse("es_419"), Err(LocaleError::TooSpecific));
        assert_eq!(Locale::parse("de_DE_1996"), Err(LocaleError::TooSpecific));
    }

    #[test]
    fn garbage_is_invalid() {
        for input in [
            "", "f", "french", "fr_", "fr__FR", "12", "fr FR", "en_US\n", "é",
        ] {
            assert_eq!(Locale::parse(input), Err(LocaleError::Invalid), "{input:?}");
        }
    }
}
