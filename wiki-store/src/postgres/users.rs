//! The statements behind [`crate::UserStore`].
//!
//! A write that depends on a user or group existing (a membership, a rule, a token) reads it
//! `FOR SHARE`: a concurrent deletion then waits for it to commit and removes what it added, or
//! has committed already and the write finds the subject gone, so nothing is left naming a
//! deleted user or group.

use crate::Result;
use crate::flow::users::{Account, AccountReads, AccountRows, Member, StoredGroup};
use crate::model::user::User;
use crate::postgres::convert::RowExt;
use crate::postgres::pool::Conn;
use crate::postgres::write::WriteTx;
use crate::stored::from_ms;

impl AccountRows for WriteTx<'_> {
    fn account_exists(&mut self, account: Account, name: &str, share: bool) -> Result<bool> {
        let sql = match (account, share) {
            (Account::User, false) => "SELECT 1 FROM users WHERE name = $1",
            (Account::User, true) => "SELECT 1 FROM users WHERE name = $1 FOR SHARE",
            (Account::Group, false) => "SELECT 1 FROM groups WHERE name = $1",
            (Account::Group, true) => "SELECT 1 FROM groups WHERE name = $1 FOR SHARE",
        };
        Ok(self.query_opt(sql, &[&name])?.is_some())
    }

    fn insert_user(
        &mut self,
        name: &str,
        display_name: Option<&str>,
        created_ms: i64,
    ) -> Result<()> {
        self.execute(
            "INSERT INTO users (name, display_name, created_ms) VALUES ($1, $2, $3)",
            &[&name, &display_name, &created_ms],
        )?;
        Ok(())
    }

    fn insert_group(&mut self, name: &str, created_ms: i64) -> Result<()> {
        self.execute(
            "INSERT INTO groups (name, created_ms) VALUES ($1, $2)",
            &[&name, &created_ms],
        )?;
        Ok(())
    }

    fn delete_account(&mut self, account: Account, name: &str) -> Result<bool> {
        let sql = match account {
            Account::User => "DELETE FROM users WHERE name = $1",
            Account::Group => "DELETE FROM groups WHERE name = $1",
        };
        Ok(self.execute(sql, &[&name])? > 0)
    }

    fn forget_subject(&mut self, account: Account, name: &str) -> Result<()> {
        let kind = account.kind();
        self.execute(
            "DELETE FROM group_members WHERE member_kind = $1 AND member = $2",
            &[&kind, &name],
        )?;
        self.execute(
            "DELETE FROM rights WHERE subject_kind = $1 AND subject = $2",
            &[&kind, &name],
        )?;
        Ok(())
    }

    fn insert_member(&mut self, group: &str, kind: &str, name: &str) -> Result<bool> {
        let added = self.execute(
            "INSERT INTO group_members (group_name, member_kind, member) VALUES ($1, $2, $3) \
             ON CONFLICT DO NOTHING",
            &[&group, &kind, &name],
        )?;
        Ok(added > 0)
    }

    fn delete_member(&mut self, group: &str, kind: &str, name: &str) -> Result<bool> {
        let removed = self.execute(
            "DELETE FROM group_members WHERE group_name = $1 AND member_kind = $2 AND member = $3",
            &[&group, &kind, &name],
        )?;
        Ok(removed > 0)
    }
}

impl AccountReads for Conn {
    fn group_exists(&mut self, name: &str) -> Result<bool> {
        Ok(self
            .query_opt("SELECT 1 FROM groups WHERE name = $1", &[&name])?
            .is_some())
    }

    fn user_names(&mut self) -> Result<Vec<String>> {
        self.query("SELECT name FROM users ORDER BY name", &[])?
            .iter()
            .map(|row| row.col(0))
            .collect()
    }

    fn members(&mut self, group: &str) -> Result<Vec<Member>> {
        self.query(
            "SELECT member_kind, member FROM group_members WHERE group_name = $1 ORDER BY member_kind, member",
            &[&group],
        )?
        .iter()
        .map(|row| Ok((row.col(0)?, row.col(1)?)))
        .collect()
    }

    fn groups_with_members(&mut self) -> Result<Vec<StoredGroup>> {
        let rows = self.query(
            "SELECT g.name, m.member_kind, m.member FROM groups g \
             LEFT JOIN group_members m ON m.group_name = g.name \
             ORDER BY g.name, m.member_kind, m.member",
            &[],
        )?;
        let mut stored: Vec<StoredGroup> = Vec::new();
        for row in &rows {
            let group: String = row.col(0)?;
            if stored.last().is_none_or(|(last, _)| *last != group) {
                stored.push((group, Vec::new()));
            }
            if let (Some(kind), Some(member), Some((_, members))) = (
                row.col::<Option<String>>(1)?,
                row.col::<Option<String>>(2)?,
                stored.last_mut(),
            ) {
                members.push((kind, member));
            }
        }
        Ok(stored)
    }

    fn user(&mut self, name: &str) -> Result<Option<User>> {
        self.query_opt(
            "SELECT name, display_name, created_ms FROM users WHERE name = $1",
            &[&name],
        )?
        .map(|row| user_row(&row))
        .transpose()
    }

    fn users(&mut self) -> Result<Vec<User>> {
        self.query(
            "SELECT name, display_name, created_ms FROM users ORDER BY name",
            &[],
        )?
        .iter()
        .map(user_row)
        .collect()
    }
}

fn user_row(row: &postgres::Row) -> Result<User> {
    Ok(User {
        name: row.col(0)?,
        display_name: row.col(1)?,
        created: from_ms(row.col(2)?),
    })
}
