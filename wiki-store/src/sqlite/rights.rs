//! The statements behind [`crate::RightsStore`].

use rusqlite::{Connection, params};

use crate::Result;
use crate::flow::rights::{RightsReads, RightsRows};
use crate::model::rights::{Right, RightRule, RightScope, Subject};
use crate::model::wiki::WikiId;
use crate::rights::GroupMembership;
use crate::sqlite::convert::DbResultExt;
use crate::sqlite::write::WriteTx;
use crate::stored::{StoredRule, scope_columns, subject_of, subject_parts};

const RULE_COLUMNS: &str = "wiki, space, page, subject_kind, subject, right_name, effect";

impl RightsReads for &Connection {
    fn wiki_rules(&mut self, wiki: &WikiId) -> Result<Vec<RightRule>> {
        let sql = format!("SELECT {RULE_COLUMNS} FROM rights WHERE wiki = ?1");
        self.prepare_cached(&sql)
            .db()?
            .query_map([wiki.as_str()], raw_rule)
            .db()?
            .map(|raw| raw.db().and_then(StoredRule::decode))
            .collect()
    }

    fn all_rules(&mut self) -> Result<Vec<RightRule>> {
        let sql = format!("SELECT {RULE_COLUMNS} FROM rights");
        self.prepare_cached(&sql)
            .db()?
            .query_map([], raw_rule)
            .db()?
            .map(|raw| raw.db().and_then(StoredRule::decode))
            .collect()
    }

    fn memberships(&mut self) -> Result<Vec<GroupMembership>> {
        self.prepare_cached("SELECT group_name, member_kind, member FROM group_members")
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
            .db()
    }
}

/// The IMMEDIATE transaction already excludes every other writer: the wiki is read.
impl RightsRows for WriteTx<'_> {
    fn upsert_rule(&mut self, rule: &RightRule) -> Result<bool> {
        let (wiki, space, page) = scope_columns(&rule.scope);
        let (kind, subject) = subject_parts(&rule.subject);
        let changed = self
            .prepare_cached(
                "INSERT INTO rights (wiki, space, page, subject_kind, subject, right_name, effect) \
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7) \
                 ON CONFLICT DO UPDATE SET effect = excluded.effect WHERE effect <> excluded.effect",
            )
            .db()?
            .execute(params![wiki, space, page, kind, subject, rule.right.as_str(), rule.effect.as_str()])
            .db()?;
        Ok(changed > 0)
    }

    fn delete_rule(&mut self, scope: &RightScope, subject: &Subject, right: Right) -> Result<bool> {
        let (wiki, space, page) = scope_columns(scope);
        let (kind, name) = subject_parts(subject);
        let removed = self
            .prepare_cached(
                "DELETE FROM rights WHERE wiki = ?1 AND space = ?2 AND page = ?3 \
                 AND subject_kind = ?4 AND subject = ?5 AND right_name = ?6",
            )
            .db()?
            .execute(params![wiki, space, page, kind, name, right.as_str()])
            .db()?;
        Ok(removed > 0)
    }
}

fn raw_rule(row: &rusqlite::Row<'_>) -> rusqlite::Result<StoredRule> {
    Ok(StoredRule {
        wiki: row.get(0)?,
        space: row.get(1)?,
        page: row.get(2)?,
        subject_kind: row.get(3)?,
        subject: row.get(4)?,
        right: row.get(5)?,
        effect: row.get(6)?,
    })
}
