//! Rights, the subjects they are granted to, and the scopes they apply at.
//!
//! The semantics (how rules combine into a yes or no) live in [`crate::rights`]; this module only
//! names the pieces, so storage and the resolver share one vocabulary.

use std::fmt;
use std::str::FromStr;

use crate::error::{InvalidInput, StoreError};
use crate::model::wiki::WikiId;
use crate::reference::{DocumentReference, SpacePath};

/// A right that can be allowed or denied.
///
/// Rights are independent of each other, as in XWiki: `edit` does not imply `view` (an admin who
/// allows only `edit` on a space gets exactly that). The one implication is `admin`, which implies
/// every right at the level where it is allowed and below it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Right {
    /// Read a document, its history, attachments and objects.
    View,
    /// Change a document, its attachments and objects.
    Edit,
    /// Move a document or an attachment to the recycle bin.
    Delete,
    /// Administer: implies every other right where it is allowed.
    Admin,
}

impl Right {
    /// Every right, in a stable order (for listings of effective rights).
    pub const ALL: [Right; 4] = [Right::View, Right::Edit, Right::Delete, Right::Admin];

    /// The lowercase name used in storage and on the command line.
    pub fn as_str(self) -> &'static str {
        match self {
            Right::View => "view",
            Right::Edit => "edit",
            Right::Delete => "delete",
            Right::Admin => "admin",
        }
    }
}

impl fmt::Display for Right {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Right {
    type Err = StoreError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Right::ALL
            .into_iter()
            .find(|right| right.as_str() == s)
            .ok_or(StoreError::Invalid(InvalidInput::Keyword {
                what: "right",
                expected: "view, edit, delete, admin",
            }))
    }
}

/// Whether a rule grants or refuses its right.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Effect {
    /// The right is granted.
    Allow,
    /// The right is refused; at the same level a deny beats any allow.
    Deny,
}

impl Effect {
    /// The lowercase name used in storage and on the command line.
    pub fn as_str(self) -> &'static str {
        match self {
            Effect::Allow => "allow",
            Effect::Deny => "deny",
        }
    }
}

impl fmt::Display for Effect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Effect {
    type Err = StoreError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "allow" => Ok(Effect::Allow),
            "deny" => Ok(Effect::Deny),
            _ => Err(StoreError::Invalid(InvalidInput::Keyword {
                what: "effect",
                expected: "allow, deny",
            })),
        }
    }
}

/// Who a rule is about: one user, or every member of a group (nested groups included).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Subject {
    /// A user, by name.
    User(String),
    /// A group, by name; applies to its members and the members of its member groups.
    Group(String),
}

impl fmt::Display for Subject {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Subject::User(name) => write!(f, "user {name}"),
            Subject::Group(name) => write!(f, "group {name}"),
        }
    }
}

/// Where a rule applies, or what a question is asked about.
///
/// A space scope covers the space, every nested space and every page in them. A page scope covers
/// that one page (all its translations: translations share the default row's rights).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum RightScope {
    /// The whole wiki.
    Wiki(WikiId),
    /// A space, its nested spaces and their pages.
    Space {
        /// The wiki.
        wiki: WikiId,
        /// The space.
        space: SpacePath,
    },
    /// One page.
    Page(DocumentReference),
}

impl RightScope {
    /// The wiki the scope is in.
    pub fn wiki(&self) -> &WikiId {
        match self {
            RightScope::Wiki(wiki) | RightScope::Space { wiki, .. } => wiki,
            RightScope::Page(reference) => reference.wiki(),
        }
    }

    /// The levels that can decide a question about this scope, nearest first: the page itself,
    /// then each enclosing space from the innermost out, then the wiki.
    pub fn chain(&self) -> Vec<RightScope> {
        let mut chain = Vec::new();
        let mut space = match self {
            RightScope::Wiki(_) => None,
            RightScope::Space { space, .. } => Some(space.clone()),
            RightScope::Page(reference) => {
                chain.push(self.clone());
                Some(reference.space().clone())
            }
        };
        while let Some(current) = space {
            space = current.parent();
            chain.push(RightScope::Space {
                wiki: self.wiki().clone(),
                space: current,
            });
        }
        chain.push(RightScope::Wiki(self.wiki().clone()));
        chain
    }
}

impl fmt::Display for RightScope {
    /// `wiki main`, `space main:Sales.Europe`, `page main:Sales.Europe.Plan`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RightScope::Wiki(wiki) => write!(f, "wiki {wiki}"),
            RightScope::Space { wiki, space } => write!(f, "space {wiki}:{space}"),
            RightScope::Page(reference) => write!(f, "page {reference}"),
        }
    }
}

/// One stored rule: `effect` `right` to `subject` at `scope`.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct RightRule {
    /// Where the rule applies.
    pub scope: RightScope,
    /// Who it is about.
    pub subject: Subject,
    /// Which right.
    pub right: Right,
    /// Allow or deny.
    pub effect: Effect,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reference::ReferenceError;

    #[test]
    fn right_and_effect_names_round_trip() {
        for right in Right::ALL {
            assert_eq!(right.as_str().parse::<Right>().ok(), Some(right));
        }
        assert!("View".parse::<Right>().is_err());
        assert_eq!("deny".parse::<Effect>().ok(), Some(Effect::Deny));
        assert!("maybe".parse::<Effect>().is_err());
    }

    #[test]
    fn chain_runs_from_the_page_out_to_the_wiki() -> Result<(), ReferenceError> {
        let wiki = WikiId::main();
        let page = RightScope::Page(DocumentReference::parse("A.B.P", &wiki)?);
        let space = |path: &str| -> Result<RightScope, ReferenceError> {
            Ok(RightScope::Space {
                wiki: wiki.clone(),
                space: SpacePath::parse(path)?,
            })
        };
        assert_eq!(
            page.chain(),
            vec![
                page.clone(),
                space("A.B")?,
                space("A")?,
                RightScope::Wiki(wiki.clone())
            ]
        );
        assert_eq!(
            space("A")?.chain(),
            vec![space("A")?, RightScope::Wiki(wiki.clone())]
        );
        assert_eq!(
            RightScope::Wiki(wiki.clone()).chain(),
            vec![RightScope::Wiki(wiki)]
        );
        Ok(())
    }
}
