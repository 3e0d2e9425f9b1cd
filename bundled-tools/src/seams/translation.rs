//! Locale routing: the `locale` argument of a read picks exactly one row of a
//! document. The default language addresses the default row; any other locale addresses that
//! translation row only (no fallback to the default, which would show an agent text in the wrong
//! language under the name it asked for). A missing translation is an error that lists what
//! exists, so the agent can pick again without another call.
//!
//! Rights never depend on the locale: authorization uses the locale-free reference first.

use wiki_tool_sdk::locale::parse_locale;
use wiki_tool_sdk::prelude::*;
use wiki_tool_sdk::store::model::document::DocumentLocales;
use wiki_tool_sdk::store::model::locale::Locale;
use wiki_tool_sdk::store::reference::DocumentReference;
use wiki_tool_sdk::untrusted::fragment;

/// Parses the `locale` argument (already trimmed; `None` when absent or blank) into the store's
/// form. The server's parser words the refusals ("must be a locale", "too specific").
pub(crate) fn locale_argument(argument: Option<&str>) -> Result<Option<Locale>, ToolError> {
    let Some(text) = argument else {
        return Ok(None);
    };
    Ok(Some(parse_locale("locale", text)?))
}

/// The row to read: `None` for the default row, or the translation's locale. `requested` equal to
/// the default language means the default row.
pub(crate) fn route(
    locales: &DocumentLocales,
    requested: Option<Locale>,
    reference: &DocumentReference,
) -> Result<Option<Locale>, ToolError> {
    match requested {
        None => Ok(None),
        Some(locale) if locale == locales.default_locale => Ok(None),
        Some(locale) if locales.translations.contains(&locale) => Ok(Some(locale)),
        Some(locale) => Err(
            ToolError::new(missing_translation(locales, &locale, reference))
                .with_kind(ErrorKind::NotFound),
        ),
    }
}

/// `Translations: de, fr (default: en)`, or `None` when the document has no translation.
pub(crate) fn translations_line(locales: &DocumentLocales) -> Option<String> {
    if locales.translations.is_empty() {
        return None;
    }
    Some(format!(
        "Translations: {} (default: {})",
        join(&locales.translations),
        locales.default_locale
    ))
}

fn missing_translation(
    locales: &DocumentLocales,
    locale: &Locale,
    reference: &DocumentReference,
) -> String {
    let existing = if locales.translations.is_empty() {
        "It has no translations.".to_owned()
    } else {
        format!("Existing translations: {}.", join(&locales.translations))
    };
    format!(
        "Error: no \"{locale}\" translation of \"{}\". {existing} The default language is \
         \"{}\"; omit 'locale' to read the default row.",
        fragment(&reference.to_string()),
        locales.default_locale
    )
}

fn join(locales: &[Locale]) -> String {
    locales
        .iter()
        .map(Locale::as_str)
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use wiki_tool_sdk::store::model::wiki::WikiId;

    use super::*;

    fn locale(text: &str) -> Locale {
        Locale::parse(text).unwrap_or_else(|error| panic!("{text}: {error}"))
    }

    fn locales(translations: &[&str]) -> DocumentLocales {
        DocumentLocales {
            default_locale: locale("en"),
            translations: translations.iter().map(|t| locale(t)).collect(),
        }
    }

    fn page() -> DocumentReference {
        DocumentReference::parse("Sandbox.WebHome", &WikiId::main())
            .unwrap_or_else(|error| panic!("{error}"))
    }

    #[test]
    fn the_default_language_and_absence_read_the_default_row() {
        let both = locales(&["de", "fr"]);
        assert_eq!(route(&both, None, &page()), Ok(None));
        assert_eq!(route(&both, Some(locale("en")), &page()), Ok(None));
        assert_eq!(
            route(&both, Some(locale("fr")), &page()),
            Ok(Some(locale("fr")))
        );
    }

    #[test]
    fn a_missing_translation_lists_what_exists() {
        let refused = route(&locales(&["de", "fr"]), Some(locale("it")), &page());
        assert_eq!(
            refused.map_err(|error| error.message().to_owned()),
            Err(
                "Error: no \"it\" translation of \"main:Sandbox.WebHome\". Existing \
                 translations: de, fr. The default language is \"en\"; omit 'locale' to read \
                 the default row."
                    .to_owned()
            )
        );
        let none = route(&locales(&[]), Some(locale("fr_FR")), &page());
        assert!(none.is_err_and(|error| error.message().contains("It has no translations.")));
    }

    #[test]
    fn no_fallback_from_region_to_language() {
        assert!(route(&locales(&["pt"]), Some(locale("pt_BR")), &page()).is_err());
    }

    #[test]
    fn arguments_are_parsed_with_the_runtime_wording() {
        assert_eq!(locale_argument(None), Ok(None));
        assert_eq!(locale_argument(Some("PT-br")), Ok(Some(locale("pt_BR"))));
        let refused = locale_argument(Some("zz\u{2028}zz"));
        assert_eq!(
            refused.map_err(|error| wiki_tool_sdk::untrusted::escape(error.message()).into_owned()),
            Err(
                "Error: 'locale' must be a locale such as \"fr\" or \"pt_BR\" (got \
                 \"zz⟦U+2028⟧zz\")."
                    .to_owned()
            )
        );
        assert!(locale_argument(Some("de_CH_1996")).is_err_and(|error| {
            error
                .message()
                .contains("too specific for the wiki's storage")
        }));
    }

    #[test]
    fn translations_line_names_the_default() {
        assert_eq!(translations_line(&locales(&[])), None);
        assert_eq!(
            translations_line(&locales(&["de", "fr"])).as_deref(),
            Some("Translations: de, fr (default: en)")
        );
    }
}
