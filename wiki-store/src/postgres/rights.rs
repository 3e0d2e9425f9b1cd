//! The PostgreSQL implementation of [`crate::RightsStore`].

use postgres::Row;

use crate::Result;
use crate::api::RightsStore;
use crate::flow::rights::{self, RightsRows};
use crate::model::rights::{Right, RightRule, RightScope, Subject};
use crate::model::wiki::WikiId;
use crate::postgres::PostgresStore;
use crate::postgres::convert::RowExt;
use crate::postgres::write::WriteTx;
use crate::rights::{GroupMembership, RightsSnapshot};
use crate::stored::{StoredRule, scope_columns, subject_of, subject_parts};

const RULE_COLUMNS: &str = "wiki, space, page, subject_kind, subject, right_name, effect";

impl RightsStore for PostgresStore {
    fn set_right(&self, rule: &RightRule) -> Result<()> {
        self.write(|tx| rights::set(tx, rule))
    }

    fn remove_right(&self, scope: &RightScope, subject: &Subject, right: Right) -> Result<()> {
        self.write(|tx| rights::remove(tx, scope, subject, right))
    }

    fn list_rights(&self, wiki: &WikiId) -> Result<Vec<RightRule>> {
        self.read(|conn| {
            let mut rules = conn
                .query(
                    &format!(
                        "SELECT {RULE_COLUMNS} FROM rights WHERE wiki = $1 \
                         ORDER BY space, page, subject_kind, subject, right_name"
                    ),
                    &[&wiki.as_str()],
                )?
                .iter()
                .map(|row| raw_rule(row)?.decode())
                .collect::<Result<Vec<_>>>()?;
            rules.sort();
            Ok(rules)
        })
    }

    fn rights_snapshot(&self) -> Result<RightsSnapshot> {
        self.snapshot(|conn| {
            let rules = conn
                .query(&format!("SELECT {RULE_COLUMNS} FROM rights"), &[])?
                .iter()
                .map(|row| raw_rule(row)?.decode())
                .collect::<Result<Vec<_>>>()?;
            let memberships = conn
                .query(
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
                .collect::<Result<Vec<_>>>()?;
            let registered = conn
                .query("SELECT name FROM users", &[])?
                .iter()
                .map(|row| row.col(0))
                .collect::<Result<Vec<String>>>()?;
            Ok(RightsSnapshot::new(rules, memberships, registered))
        })
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
