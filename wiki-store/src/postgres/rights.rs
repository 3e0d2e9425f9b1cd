//! The statements behind [`crate::RightsStore`].

use postgres::Row;

use crate::Result;
use crate::flow::rights::{RightsReads, RightsRows};
use crate::model::rights::{Right, RightRule, RightScope, Subject};
use crate::model::wiki::WikiId;
use crate::postgres::convert::RowExt;
use crate::postgres::pool::Conn;
use crate::postgres::write::WriteTx;
use crate::rights::GroupMembership;
use crate::stored::{StoredRule, scope_columns, subject_of, subject_parts};

const RULE_COLUMNS: &str = "wiki, space, page, subject_kind, subject, right_name, effect";

impl RightsReads for Conn {
    fn wiki_rules(&mut self, wiki: &WikiId) -> Result<Vec<RightRule>> {
        self.query(
            &format!("SELECT {RULE_COLUMNS} FROM rights WHERE wiki = $1"),
            &[&wiki.as_str()],
        )?
        .iter()
        .map(|row| raw_rule(row)?.decode())
        .collect()
    }

    fn all_rules(&mut self) -> Result<Vec<RightRule>> {
        self.query(&format!("SELECT {RULE_COLUMNS} FROM rights"), &[])?
            .iter()
            .map(|row| raw_rule(row)?.decode())
            .collect()
    }

    fn memberships(&mut self) -> Result<Vec<GroupMembership>> {
        self.query(
            "SELECT group_name, member_kind, member FROM group_members",
            &[],
        )?
        .iter()
        .map(|row| {
            Ok(GroupMembership {
                group: row.col(0)?,
                member: subject_of(row.col(1)?, row.col(2)?),
            })
        })
        .collect()
    }
}

impl RightsRows for WriteTx<'_> {
    fn hold_wiki(&mut self, wiki: &WikiId) -> Result<bool> {
        Ok(self
            .query_opt(
                "SELECT 1 FROM wikis WHERE id = $1 FOR SHARE",
                &[&wiki.as_str()],
            )?
            .is_some())
    }

    fn upsert_rule(&mut self, rule: &RightRule) -> Result<bool> {
        let (wiki, space, page) = scope_columns(&rule.scope);
        let (kind, subject) = subject_parts(&rule.subject);
        let changed = self.execute(
            "INSERT INTO rights (wiki, space, page, subject_kind, subject, right_name, effect) \
             VALUES ($1, $2, $3, $4, $5, $6, $7) \
             ON CONFLICT (wiki, space, page, subject_kind, subject, right_name) \
             DO UPDATE SET effect = excluded.effect WHERE rights.effect <> excluded.effect",
            &[
                &wiki,
                &space,
                &page,
                &kind,
                &subject,
                &rule.right.as_str(),
                &rule.effect.as_str(),
            ],
        )?;
        Ok(changed > 0)
    }

    fn delete_rule(&mut self, scope: &RightScope, subject: &Subject, right: Right) -> Result<bool> {
        let (wiki, space, page) = scope_columns(scope);
        let (kind, name) = subject_parts(subject);
        let removed = self.execute(
            "DELETE FROM rights WHERE wiki = $1 AND space = $2 AND page = $3 \
             AND subject_kind = $4 AND subject = $5 AND right_name = $6",
            &[&wiki, &space, &page, &kind, &name, &right.as_str()],
        )?;
        Ok(removed > 0)
    }
}

fn raw_rule(row: &Row) -> Result<StoredRule> {
    Ok(StoredRule {
        wiki: row.col(0)?,
        space: row.col(1)?,
        page: row.col(2)?,
        subject_kind: row.col(3)?,
        subject: row.col(4)?,
        right: row.col(5)?,
        effect: row.col(6)?,
    })
}
