//! The statements behind [`crate::UserStore`].

use rusqlite::{Connection, OptionalExtension, params};

use crate::Result;
use crate::flow::users::{Account, AccountReads, AccountRows, Member, StoredGroup};
use crate::model::user::User;
use crate::sqlite::convert::DbResultExt;
use crate::sqlite::write::WriteTx;
use crate::stored::from_ms;

impl AccountRows for WriteTx<'_> {
    fn account_exists(&mut self, account: Account, name: &str, _share: bool) -> Result<bool> {
        // The IMMEDIATE transaction already holds every row still.
        let sql = match account {
            Account::User => "SELECT 1 FROM users WHERE name = ?1",
            Account::Group => "SELECT 1 FROM groups WHERE name = ?1",
        };
        exists(self, sql, name)
    }

    fn insert_user(
        &mut self,
        name: &str,
        display_name: Option<&str>,
        created_ms: i64,
    ) -> Result<()> {
        self.prepare_cached(
            "INSERT INTO users (name, display_name, created_ms) VALUES (?1, ?2, ?3)",
        )
        .db()?
        .execute(params![name, display_name, created_ms])
        .db()?;
        Ok(())
    }

    fn insert_group(&mut self, name: &str, created_ms: i64) -> Result<()> {
        self.prepare_cached("INSERT INTO groups (name, created_ms) VALUES (?1, ?2)")
            .db()?
            .execute(params![name, created_ms])
            .db()?;
        Ok(())
    }

    fn delete_account(&mut self, account: Account, name: &str) -> Result<bool> {
        let sql = match account {
            Account::User => "DELETE FROM users WHERE name = ?1",
            Account::Group => "DELETE FROM groups WHERE name = ?1",
        };
        Ok(self.prepare_cached(sql).db()?.execute([name]).db()? > 0)
    }

    fn forget_subject(&mut self, account: Account, name: &str) -> Result<()> {
        let kind = account.kind();
        self.prepare_cached("DELETE FROM group_members WHERE member_kind = ?1 AND member = ?2")
            .db()?
            .execute([kind, name])
            .db()?;
        self.prepare_cached("DELETE FROM rights WHERE subject_kind = ?1 AND subject = ?2")
            .db()?
            .execute([kind, name])
            .db()?;
        Ok(())
    }

    fn insert_member(&mut self, group: &str, kind: &str, name: &str) -> Result<bool> {
        let added = self
            .prepare_cached(
                "INSERT INTO group_members (group_name, member_kind, member) VALUES (?1, ?2, ?3) \
                 ON CONFLICT DO NOTHING",
            )
            .db()?
            .execute(params![group, kind, name])
            .db()?;
        Ok(added > 0)
    }

    fn delete_member(&mut self, group: &str, kind: &str, name: &str) -> Result<bool> {
        let removed = self
            .prepare_cached("DELETE FROM group_members WHERE group_name = ?1 AND member_kind = ?2 AND member = ?3")
            .db()?
            .execute(params![group, kind, name])
            .db()?;
        Ok(removed > 0)
    }
}

impl AccountReads for &Connection {
    fn group_exists(&mut self, name: &str) -> Result<bool> {
        exists(self, "SELECT 1 FROM groups WHERE name = ?1", name)
    }

    fn user_names(&mut self) -> Result<Vec<String>> {
        self.prepare_cached("SELECT name FROM users ORDER BY name")
            .db()?
            .query_map([], |row| row.get(0))
            .db()?
            .collect::<rusqlite::Result<Vec<String>>>()
            .db()
    }

    fn members(&mut self, group: &str) -> Result<Vec<Member>> {
        self.prepare_cached("SELECT member_kind, member FROM group_members WHERE group_name = ?1 ORDER BY member_kind, member")
            .db()?
            .query_map([group], |row| Ok((row.get(0)?, row.get(1)?)))
            .db()?
            .collect::<rusqlite::Result<_>>()
            .db()
    }

    fn groups_with_members(&mut self) -> Result<Vec<StoredGroup>> {
        let names: Vec<String> = self
            .prepare_cached("SELECT name FROM groups ORDER BY name")
            .db()?
            .query_map([], |row| row.get(0))
            .db()?
            .collect::<rusqlite::Result<_>>()
            .db()?;
        names
            .into_iter()
            .map(|name| {
                let members = self.members(&name)?;
                Ok((name, members))
            })
            .collect()
    }

    fn user(&mut self, name: &str) -> Result<Option<User>> {
        self.prepare_cached("SELECT name, display_name, created_ms FROM users WHERE name = ?1")
            .db()?
            .query_row([name], user_row)
            .optional()
            .db()
    }

    fn users(&mut self) -> Result<Vec<User>> {
        self.prepare_cached("SELECT name, display_name, created_ms FROM users ORDER BY name")
            .db()?
            .query_map([], user_row)
            .db()?
            .collect::<rusqlite::Result<Vec<_>>>()
            .db()
    }
}

fn user_row(row: &rusqlite::Row<'_>) -> rusqlite::Result<User> {
    Ok(User {
        name: row.get(0)?,
        display_name: row.get(1)?,
        created: from_ms(row.get(2)?),
    })
}

fn exists(conn: &Connection, sql: &str, key: &str) -> Result<bool> {
    Ok(conn
        .prepare_cached(sql)
        .db()?
        .query_row([key], |_| Ok(()))
        .optional()
        .db()?
        .is_some())
}
