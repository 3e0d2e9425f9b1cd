//! `rename_all` rules: the wire name of a snake_case field or a PascalCase variant.

/// A `rename_all` rule, spelled as serde spells it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum RenameRule {
    /// `lowercase`
    Lower,
    /// `UPPERCASE`
    Upper,
    /// `PascalCase`
    Pascal,
    /// `camelCase`
    Camel,
    /// `snake_case`
    Snake,
    /// `SCREAMING_SNAKE_CASE`
    ScreamingSnake,
    /// `kebab-case`
    Kebab,
    /// `SCREAMING-KEBAB-CASE`
    ScreamingKebab,
}

impl RenameRule {
    /// Every rule with its spelling, for parsing and for the "expected one of" message.
    pub(crate) const ALL: &[(&str, RenameRule)] = &[
        ("lowercase", Self::Lower),
        ("UPPERCASE", Self::Upper),
        ("PascalCase", Self::Pascal),
        ("camelCase", Self::Camel),
        ("snake_case", Self::Snake),
        ("SCREAMING_SNAKE_CASE", Self::ScreamingSnake),
        ("kebab-case", Self::Kebab),
        ("SCREAMING-KEBAB-CASE", Self::ScreamingKebab),
    ];

    pub(crate) fn from_name(name: &str) -> Option<Self> {
        Self::ALL
            .iter()
            .find(|(spelling, _)| *spelling == name)
            .map(|(_, rule)| *rule)
    }

    /// The accepted spellings, comma-separated.
    pub(crate) fn spellings() -> String {
        Self::ALL
            .iter()
            .map(|(spelling, _)| *spelling)
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// Applies the rule to a Rust name, snake_case (fields) or PascalCase (variants).
    pub(crate) fn apply(self, rust_name: &str) -> String {
        let words = words(rust_name);
        match self {
            Self::Lower => words.concat(),
            Self::Upper => words.concat().to_uppercase(),
            Self::Pascal => words.iter().map(|w| capitalize(w)).collect(),
            Self::Camel => words
                .iter()
                .enumerate()
                .map(|(i, w)| if i == 0 { w.clone() } else { capitalize(w) })
                .collect(),
            Self::Snake => words.join("_"),
            Self::ScreamingSnake => words.join("_").to_uppercase(),
            Self::Kebab => words.join("-"),
            Self::ScreamingKebab => words.join("-").to_uppercase(),
        }
    }
}

/// The lowercase words of a snake_case or PascalCase name (`show_hidden`, `ShowHidden`).
fn words(name: &str) -> Vec<String> {
    let mut words: Vec<String> = Vec::new();
    let mut current = String::new();
    let mut previous_lower = false;
    for c in name.chars() {
        if c == '_' {
            if !current.is_empty() {
                words.push(std::mem::take(&mut current));
            }
            previous_lower = false;
            continue;
        }
        if c.is_uppercase() && previous_lower && !current.is_empty() {
            words.push(std::mem::take(&mut current));
        }
        previous_lower = c.is_lowercase() || c.is_ascii_digit();
        current.extend(c.to_lowercase());
    }
    if !current.is_empty() {
        words.push(current);
    }
    words
}

fn capitalize(word: &str) -> String {
    let mut chars = word.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// The default wire value of an enum variant: lower snake_case (`ShowHidden` -> `show_hidden`).
pub(crate) fn variant_wire_name(variant: &str) -> String {
    RenameRule::Snake.apply(variant)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_rename_to_every_case() {
        let cases = [
            (RenameRule::Camel, "showHidden"),
            (RenameRule::Pascal, "ShowHidden"),
            (RenameRule::Snake, "show_hidden"),
            (RenameRule::Kebab, "show-hidden"),
            (RenameRule::ScreamingSnake, "SHOW_HIDDEN"),
            (RenameRule::ScreamingKebab, "SHOW-HIDDEN"),
            (RenameRule::Lower, "showhidden"),
            (RenameRule::Upper, "SHOWHIDDEN"),
        ];
        for (rule, expected) in cases {
            assert_eq!(rule.apply("show_hidden"), expected, "{rule:?}");
        }
    }

    #[test]
    fn variants_become_lower_snake_case() {
        assert_eq!(variant_wire_name("ShowHidden"), "show_hidden");
        assert_eq!(variant_wire_name("Html"), "html");
        assert_eq!(variant_wire_name("Utf8Text"), "utf8_text");
    }

    #[test]
    fn camel_case_keeps_single_words_lowercase() {
        assert_eq!(RenameRule::Camel.apply("limit"), "limit");
        assert_eq!(RenameRule::Camel.apply("base_version"), "baseVersion");
    }

    #[test]
    fn every_spelling_parses_back_to_its_rule() {
        for (spelling, rule) in RenameRule::ALL {
            assert_eq!(RenameRule::from_name(spelling), Some(*rule));
        }
        assert_eq!(RenameRule::from_name("camelcase"), None);
    }
}
