//! Locales as agents send them (`"fr"`, `"pt_BR"`), checked against what the wiki can store and
//! parsed into the store's [`Locale`], with refusals that teach the accepted forms.

use crate::untrusted::fragment;
use mcp_runtime::param::ParamError;
use wiki_store::model::locale::{Locale, LocaleError};

/// The longest serialized locale the wiki's storage keeps (`language_COUNTRY`): variants and
/// scripts are refused as "too specific" rather than silently truncated.
pub use wiki_store::model::locale::MAX_LOCALE_CHARS;

/// Parses the locale argument `param` (already trimmed, non-blank) into the store's form.
/// Accepts `_` or `-` between parts and any letter case (`PT-br` is `pt_BR`); a language with a
/// 3-digit region, a script or a variant is refused as too specific for storage rather than
/// silently truncated. The grammar is the store's ([`Locale::parse`]); this words its refusals
/// for an agent.
pub fn parse_locale(param: &'static str, text: &str) -> Result<Locale, ParamError> {
    Locale::parse(text).map_err(|error| ParamError::Invalid {
        name: param,
        message: match error {
            LocaleError::TooSpecific => format!(
                "is too specific for the wiki's storage (got \"{}\"): use a language such as \
                 \"fr\" or a language and country such as \"pt_BR\".",
                fragment(text)
            ),
            _ => format!(
                "must be a locale such as \"fr\" or \"pt_BR\" (got \"{}\").",
                fragment(text)
            ),
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<String, String> {
        parse_locale("locale", text)
            .map(|l| l.to_string())
            .map_err(|e| e.to_string())
    }

    #[test]
    fn accepts_language_and_language_country() {
        assert_eq!(parse("fr"), Ok("fr".to_owned()));
        assert_eq!(parse("pt_BR"), Ok("pt_BR".to_owned()));
        assert_eq!(parse("PT-br"), Ok("pt_BR".to_owned()));
        assert_eq!(parse("ast"), Ok("ast".to_owned()));
        let locale = parse_locale("locale", "pt_BR").map(|l| l.as_str().to_owned());
        assert_eq!(locale, Ok("pt_BR".to_owned()));
    }

    #[test]
    fn refuses_malformed_locales_teaching_the_forms() {
        for bad in ["french", "f", "fr_", "fr__BR", "12", "fr_B", "é"] {
            assert_eq!(
                parse(bad),
                Err(format!(
                    "Error: 'locale' must be a locale such as \"fr\" or \"pt_BR\" (got \"{bad}\")."
                )),
                "{bad}"
            );
        }
    }

    #[test]
    fn refuses_locales_too_specific_for_storage() {
        for specific in ["es_419", "ast_ES", "de_CH_1996", "fr_BRA"] {
            let refused = parse(specific).unwrap_err();
            assert!(
                refused.starts_with("Error: 'locale' is too specific for the wiki's storage"),
                "{refused}"
            );
        }
    }

    #[test]
    fn the_echo_is_guarded() {
        let refused = parse("x\ny").unwrap_err();
        assert!(refused.contains("(got \"xy\")"));
    }
}
