//! The SQLite implementation of [`crate::RightsStore`].

use rusqlite::{Connection, OptionalExtension, params};

use crate::Result;
use crate::api::RightsStore;
use crate::error::{Entity, StoreError};
use crate::model::change::ChangeKind;
use crate::model::rights::{Right, RightRule, RightScope, Subject};
use crate::model::wiki::WikiId;
use crate::reference::{DocumentReference, SpacePath};
use crate::rights::{GroupMembership, RightsSnapshot};
use crate::sqlite::SqliteStore;
use crate::sqlite::convert::{DbResultExt, corrupt};
use crate::sqlite::users::{require_subject, subject_of, subject_parts};

const RULE_COLUMNS: &str = "wiki, space, page, subject_kind, subject, right_name, effect";

impl RightsStore for SqliteStore {
    fn set_right(&self, rule: &RightRule) -> Result<()> {
        let (wiki, space, page) = scope_columns(&rule.scope);
        let (kind, subject) = subject_parts(&rule.subject);
        self.write(|tx| {
            require_wiki(tx, rule.scope.wiki())?;
            require_subject(tx, &rule.subject)?;
            let changed = tx
                .prepare_cached(
                    "INSERT INTO rights (wiki, space, page, subject_kind, subject, right_name, effect) \
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7) \
                     ON CONFLICT DO UPDATE SET effect = excluded.effect WHERE effect <> excluded.effect",
                )
                .db()?
                .execute(params![wiki, space, page, kind, subject, rule.right.as_str(), rule.effect.as_str()])
                .db()?;
            if changed == 0 {
                tx.nothing_changed();
            } else {
                tx.emit(rule.scope.wiki().clone(), ChangeKind::RightsChanged);
            }
            Ok(())
        })
    }

    fn remove_right(&self, scope: &RightScope, subject: &Subject, right: Right) -> Result<()> {
        let (wiki, space, page) = scope_columns(scope);
        let (kind, name) = subject_parts(subject);
        self.write(|tx| {
            let removed = tx
                .prepare_cached(
                    "DELETE FROM rights WHERE wiki = ?1 AND space = ?2 AND page = ?3 \
                     AND subject_kind = ?4 AND subject = ?5 AND right_name = ?6",
                )
                .db()?
                .execute(params![wiki, space, page, kind, name, right.as_str()])
                .db()?;
            if removed == 0 {
                return Err(StoreError::not_found(
                    Entity::Right,
                    format!("{right} for {subject} on {scope}"),
                ));
            }
            tx.emit(scope.wiki().clone(), ChangeKind::RightsChanged);
            Ok(())
        })
    }

    fn list_rights(&self, wiki: &WikiId) -> Result<Vec<RightRule>> {
        self.read(|conn| {
            let sql = format!(
                "SELECT {RULE_COLUMNS} FROM rights WHERE wiki = ?1 \
                 ORDER BY space, page, subject_kind, subject, right_name"
            );
            let mut rules = conn
                .prepare_cached(&sql)
                .db()?
                .query_map([wiki.as_str()], raw_rule)
                .db()?
                .map(|raw| raw.db().and_then(RawRule::decode))
                .collect::<Result<Vec<_>>>()?;
            rules.sort();
            Ok(rules)
        })
    }

    fn rights_snapshot(&self) -> Result<RightsSnapshot> {
        self.read(|conn| {
            let sql = format!("SELECT {RULE_COLUMNS} FROM rights");
            let rules = conn
                .prepare_cached(&sql)
                .db()?
                .query_map([], raw_rule)
                .db()?
                .map(|raw| raw.db().and_then(RawRule::decode))
                .collect::<Result<Vec<_>>>()?;
            let memberships = conn
                .prepare_cached("SELECT group_name, member_kind, member FROM group_members")
                .db()?
                .query_map([], |row| {
                    let kind: String = row.get(1)?;
                    Ok(GroupMembership {
                        group: row.get(0)?,
                        member: subject_of(&kind, row.get(2)?),
                    })
                })
                .db()?
                .collect::<rusqlite::Result<Vec<_>>>()
                .db()?;
            let registered = conn
                .prepare_cached("SELECT name FROM users")
                .db()?
                .query_map([], |row| row.get::<_, String>(0))
                .db()?
                .collect::<rusqlite::Result<Vec<_>>>()
                .db()?;
            Ok(RightsSnapshot::new(rules, memberships, registered))
        })
    }
}

fn require_wiki(conn: &Connection, wiki: &WikiId) -> Result<()> {
    let found = conn
        .prepare_cached("SELECT 1 FROM wikis WHERE id = ?1")
        .db()?
        .query_row([wiki.as_str()], |_| Ok(()))
        .optional()
        .db()?;
    found.ok_or_else(|| StoreError::not_found(Entity::Wiki, wiki))
}

/// The stored `(wiki, space, page)` of a scope: empty strings mark the wiki and space levels.
fn scope_columns(scope: &RightScope) -> (&str, String, &str) {
    match scope {
        RightScope::Wiki(wiki) => (wiki.as_str(), String::new(), ""),
        RightScope::Space { wiki, space } => (wiki.as_str(), space.to_string(), ""),
        RightScope::Page(reference) => (
            reference.wiki().as_str(),
            reference.space().to_string(),
            reference.name(),
        ),
    }
}

/// A rules row as stored, decoded outside rusqlite's row callback so decoding errors stay ours.
struct RawRule {
    wiki: String,
    space: String,
    page: String,
    subject_kind: String,
    subject: String,
    right: String,
    effect: String,
}

fn raw_rule(row: &rusqlite::Row<'_>) -> rusqlite::Result<RawRule> {
    Ok(RawRule {
        wiki: row.get(0)?,
        space: row.get(1)?,
        page: row.get(2)?,
        subject_kind: row.get(3)?,
        subject: row.get(4)?,
        right: row.get(5)?,
        effect: row.get(6)?,
    })
}

impl RawRule {
    fn decode(self) -> Result<RightRule> {
        let bad = |_| corrupt("rights row");
        let wiki = WikiId::new(&self.wiki).map_err(|_| corrupt("rights row wiki"))?;
        let scope = match (self.space.as_str(), self.page.as_str()) {
            ("", _) => RightScope::Wiki(wiki),
            (space, "") => RightScope::Space {
                wiki,
                space: SpacePath::parse(space).map_err(bad)?,
            },
            (space, page) => RightScope::Page(
                DocumentReference::new(wiki, SpacePath::parse(space).map_err(bad)?, page)
                    .map_err(bad)?,
            ),
        };
        Ok(RightRule {
            scope,
            subject: subject_of(&self.subject_kind, self.subject),
            right: self
                .right
                .parse()
                .map_err(|_| corrupt("rights row right"))?,
            effect: self
                .effect
                .parse()
                .map_err(|_| corrupt("rights row effect"))?,
        })
    }
}
