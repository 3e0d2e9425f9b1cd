//! Class changes: which class a name means, the reserved configuration class, and a field change
//! checked against the current class.
//!
//! A backend changes a class by checking the change ([`validate_field_change`], then the owning
//! document's [`crate::plan::owner::Touch::validate`]), reading the class in its transaction and
//! asking [`plan_field_change`]: `None` means the change leaves the class as it is (the touch's
//! `untouched` answers for the document), else it touches the class document and executes the
//! [`PlannedChange`].

use crate::error::{Entity, InvalidInput};
use crate::model::class::{ClassDefinition, validate_field_name};
use crate::model::mcp_config::MCP_CONFIG_CLASS;
use crate::model::object::{ClassChange, FieldChange};
use crate::model::rules::{FieldRules, MESSAGE_ATTRIBUTE};
use crate::model::wiki::WikiId;
use crate::objects::validation::{check_rules, field_spec};
use crate::plan::owner::Touch;
use crate::plan::text::check_label;
use crate::reference::{DocumentReference, RelativeReference};
use crate::stored::attributes_json;
use crate::{Result, StoreError};

/// The longest field label, in characters.
const MAX_PRETTY_NAME: usize = 255;

/// Parses a class name in `wiki`: a prefix naming another wiki is refused (classes are
/// wiki-local), and `Space` alone means `Space.WebHome` like any reference.
pub(crate) fn class_reference(class: &str, wiki: &WikiId) -> Result<DocumentReference> {
    let relative = RelativeReference::parse(class)?;
    if relative.wiki.as_ref().is_some_and(|prefix| prefix != wiki) {
        return Err(InvalidInput::Name {
            what: "class",
            reason: format!(
                "a class used in wiki {wiki} must be a class of that wiki; drop the prefix"
            ),
        }
        .into());
    }
    Ok(relative.in_wiki(wiki))
}

/// Refuses the MCP configuration class: only [`crate::ConfigStore`] writes it.
pub(crate) fn refuse_reserved(class: &DocumentReference) -> Result<()> {
    let class = class.local();
    if class == MCP_CONFIG_CLASS {
        return Err(InvalidInput::ReservedClass { class }.into());
    }
    Ok(())
}

/// Checks a class change before any transaction: not the reserved class, a valid field name and
/// label, and the class document's save parameters. Returns the touch of the class document (a
/// first field creates it).
pub(crate) fn validate_class_change<'c>(
    change: &'c ClassChange,
    limits: &crate::config::Limits,
) -> Result<Touch<'c>> {
    refuse_reserved(&change.class_document)?;
    validate_field_change(&change.change)?;
    let touch = Touch {
        reference: &change.class_document,
        author: &change.author,
        comment: &change.comment,
        major: change.major,
        expected: change.expected,
        title: None,
        create: matches!(change.change, FieldChange::Add { .. }),
        hidden_on_create: false,
    }
    .validated(limits)?;
    Ok(touch)
}

fn validate_field_change(change: &FieldChange) -> Result<()> {
    let pretty_name = match change {
        FieldChange::Add {
            name,
            pretty_name,
            field_type,
            rules,
        } => {
            validate_field_name(name)?;
            check_rules(name, field_type, rules)?;
            pretty_name.as_deref()
        }
        FieldChange::Modify { pretty_name, .. } => pretty_name.as_deref(),
        FieldChange::Remove { .. } => None,
    };
    match pretty_name {
        Some(pretty) => check_label("field label", pretty, MAX_PRETTY_NAME),
        None => Ok(()),
    }
}

/// A field change checked against the current class, ready to write.
#[derive(Debug, PartialEq)]
pub(crate) enum PlannedChange<'c> {
    /// Insert the field at the end, or re-enable a removed one under its new type.
    Upsert {
        name: &'c str,
        field_type: &'static str,
        pretty_name: Option<&'c str>,
        /// The stored attributes ([`attributes_json`]).
        attributes: String,
    },
    /// New attributes (merged and re-validated) and, if `Some`, a new label (`Some(None)` clears
    /// it).
    Modify {
        name: &'c str,
        pretty_name: Option<Option<&'c str>>,
        attributes: String,
    },
    /// Hide the field and its values.
    Disable { name: &'c str },
}

/// The change to write, or `None` when a modification leaves the field exactly as it is (the
/// merged attributes rebuild the same type, and the label, if given, is the current one).
pub(crate) fn plan_field_change<'c>(
    class: Option<&ClassDefinition>,
    class_document: &DocumentReference,
    change: &'c FieldChange,
) -> Result<Option<PlannedChange<'c>>> {
    let enabled = |name: &str| class.and_then(|c| c.field(name));
    let unknown = |name: &str| -> StoreError {
        match class {
            Some(class) => InvalidInput::UnknownField {
                class: class.name.clone(),
                field: name.to_owned(),
                known: class.enabled_names(),
            }
            .into(),
            None => StoreError::not_found(Entity::Class, class_document.local()),
        }
    };
    match change {
        FieldChange::Add { name, .. } if enabled(name).is_some() => {
            Err(StoreError::AlreadyExists {
                entity: Entity::Field,
                key: name.clone(),
            })
        }
        FieldChange::Add {
            name,
            field_type,
            rules,
            pretty_name,
        } => Ok(Some(PlannedChange::Upsert {
            name,
            field_type: field_type.name(),
            pretty_name: pretty_name.as_deref(),
            attributes: attributes_json(field_type, rules)?,
        })),
        FieldChange::Modify {
            name,
            pretty_name,
            attributes,
        } => {
            let field = enabled(name).ok_or_else(|| unknown(name))?;
            let mut merged = field.field_type.attributes();
            merged.extend(field.rules.attributes());
            merged.extend(attributes.iter().map(|(k, v)| (k.clone(), v.clone())));
            // Clearing the pattern clears its message; a message given while the field has no
            // pattern would never be shown, so it is refused.
            if FieldRules::orphan_message(&merged) {
                if FieldRules::orphan_message(attributes) {
                    return Err(InvalidInput::AttributeValue {
                        attribute: "validation_message",
                        expected: "a validation_regexp to go with it (the message explains the \
                                   pattern)",
                    }
                    .into());
                }
                merged.remove(MESSAGE_ATTRIBUTE);
            }
            let (field_type, rules) = field_spec(name, field.field_type.name(), &merged)?;
            let pretty_name = pretty_name.as_deref().map(|p| (!p.is_empty()).then_some(p));
            let same_label = pretty_name.is_none_or(|label| label == field.pretty_name.as_deref());
            if field_type == field.field_type && rules == field.rules && same_label {
                return Ok(None);
            }
            Ok(Some(PlannedChange::Modify {
                name,
                pretty_name,
                attributes: attributes_json(&field_type, &rules)?,
            }))
        }
        FieldChange::Remove { name } if enabled(name).is_none() => Err(unknown(name)),
        FieldChange::Remove { name } => Ok(Some(PlannedChange::Disable { name })),
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;
    use crate::model::class::{FieldDefinition, FieldType};

    fn class_document() -> DocumentReference {
        DocumentReference::parse("Blog.PostClass", &WikiId::main())
            .unwrap_or_else(|e| panic!("{e}"))
    }

    fn class() -> ClassDefinition {
        ClassDefinition {
            name: "Blog.PostClass".into(),
            fields: vec![
                FieldDefinition {
                    name: "title".into(),
                    pretty_name: Some("Title".into()),
                    field_type: FieldType::String,
                    rules: FieldRules::default(),
                    disabled: false,
                },
                FieldDefinition {
                    name: "old".into(),
                    pretty_name: None,
                    field_type: FieldType::Boolean,
                    rules: FieldRules::default(),
                    disabled: true,
                },
            ],
        }
    }

    #[test]
    fn classes_are_wiki_local_and_the_configuration_class_is_reserved() {
        let dev = WikiId::new("dev").unwrap_or_else(|e| panic!("{e}"));
        assert!(class_reference("Blog.PostClass", &dev).is_ok());
        assert!(class_reference("dev:Blog.PostClass", &dev).is_ok());
        assert!(class_reference("main:Blog.PostClass", &dev).is_err());
        let reserved = class_reference(MCP_CONFIG_CLASS, &dev).unwrap_or_else(|e| panic!("{e}"));
        assert!(matches!(
            refuse_reserved(&reserved),
            Err(StoreError::Invalid(InvalidInput::ReservedClass { .. }))
        ));
    }

    #[test]
    fn a_modification_to_the_current_state_plans_nothing() {
        let same = FieldChange::Modify {
            name: "title".into(),
            pretty_name: Some("Title".into()),
            attributes: BTreeMap::new(),
        };
        assert_eq!(
            plan_field_change(Some(&class()), &class_document(), &same).ok(),
            Some(None)
        );
        let relabel = FieldChange::Modify {
            name: "title".into(),
            pretty_name: Some(String::new()),
            attributes: BTreeMap::new(),
        };
        assert!(matches!(
            plan_field_change(Some(&class()), &class_document(), &relabel),
            Ok(Some(PlannedChange::Modify {
                pretty_name: Some(None),
                ..
            }))
        ));
    }

    #[test]
    fn adding_a_removed_field_re_enables_it_and_an_enabled_one_is_refused() {
        let add = |name: &str| FieldChange::Add {
            name: name.into(),
            field_type: FieldType::TextArea,
            rules: FieldRules::default(),
            pretty_name: None,
        };
        assert!(matches!(
            plan_field_change(Some(&class()), &class_document(), &add("old")),
            Ok(Some(PlannedChange::Upsert {
                field_type: "TextArea",
                ..
            }))
        ));
        assert!(matches!(
            plan_field_change(Some(&class()), &class_document(), &add("title")),
            Err(StoreError::AlreadyExists {
                entity: Entity::Field,
                ..
            })
        ));
        let remove = FieldChange::Remove { name: "old".into() };
        assert!(matches!(
            plan_field_change(Some(&class()), &class_document(), &remove),
            Err(StoreError::Invalid(InvalidInput::UnknownField { known, .. })) if known == ["title"]
        ));
        assert!(matches!(
            plan_field_change(None, &class_document(), &remove),
            Err(StoreError::NotFound {
                entity: Entity::Class,
                ..
            })
        ));
    }
}
