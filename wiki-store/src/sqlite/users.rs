//! The SQLite implementation of [`crate::UserStore`].

use rusqlite::{Connection, OptionalExtension, params};

use crate::Result;
use crate::api::UserStore;
use crate::model::rights::Subject;
use crate::model::user::{ALL_USERS_GROUP, Group, User};
use crate::plan::account::{
    self, all_users_group, built_in_user, group_exists as group_taken, group_of, not_a_member,
    refuse_all_users, refuse_guest, unknown_group, unknown_user, user_exists as user_taken,
    validate_new_group, validate_new_user, with_all_users,
};
use crate::sqlite::SqliteStore;
use crate::sqlite::convert::DbResultExt;
use crate::sqlite::write::WriteTx;
use crate::stored::{from_ms, now_ms, subject_parts};

impl UserStore for SqliteStore {
    fn create_user(&self, name: &str, display_name: Option<&str>) -> Result<User> {
        let display_name = validate_new_user(name, display_name)?;
        self.write(|tx| {
            if user_exists(tx, name)? {
                return Err(user_taken(name));
            }
            let created = now_ms();
            tx.prepare_cached(
                "INSERT INTO users (name, display_name, created_ms) VALUES (?1, ?2, ?3)",
            )
            .db()?
            .execute(params![name, display_name, created])
            .db()?;
            accounts_changed(tx);
            Ok(User {
                name: name.to_owned(),
                display_name: display_name.map(str::to_owned),
                created: from_ms(created),
            })
        })
    }

    fn user(&self, name: &str) -> Result<User> {
        if let Some(user) = built_in_user(name) {
            return Ok(user);
        }
        self.read(|conn| {
            conn.prepare_cached("SELECT name, display_name, created_ms FROM users WHERE name = ?1")
                .db()?
                .query_row([name], user_row)
                .optional()
                .db()?
                .ok_or_else(|| unknown_user(name))
        })
    }

    fn list_users(&self) -> Result<Vec<User>> {
        self.read(|conn| {
            conn.prepare_cached("SELECT name, display_name, created_ms FROM users ORDER BY name")
                .db()?
                .query_map([], user_row)
                .db()?
                .collect::<rusqlite::Result<Vec<_>>>()
                .db()
        })
    }

    fn delete_user(&self, name: &str) -> Result<()> {
        refuse_guest(name)?;
        self.write(|tx| {
            let deleted = tx
                .prepare_cached("DELETE FROM users WHERE name = ?1")
                .db()?
                .execute([name])
                .db()?;
            if deleted == 0 {
                return Err(unknown_user(name));
            }
            forget_subject(tx, "user", name)?;
            accounts_changed(tx);
            Ok(())
        })
    }

    fn create_group(&self, name: &str) -> Result<Group> {
        validate_new_group(name)?;
        self.write(|tx| {
            if group_exists(tx, name)? {
                return Err(group_taken(name));
            }
            tx.prepare_cached("INSERT INTO groups (name, created_ms) VALUES (?1, ?2)")
                .db()?
                .execute(params![name, now_ms()])
                .db()?;
            accounts_changed(tx);
            Ok(Group {
                name: name.to_owned(),
                users: Vec::new(),
                groups: Vec::new(),
            })
        })
    }

    fn group(&self, name: &str) -> Result<Group> {
        self.read(|conn| {
            if name == ALL_USERS_GROUP {
                return all_users(conn);
            }
            if !group_exists(conn, name)? {
                return Err(unknown_group(name));
            }
            load_group(conn, name)
        })
    }

    fn list_groups(&self) -> Result<Vec<Group>> {
        self.read(|conn| {
            let names: Vec<String> = conn
                .prepare_cached("SELECT name FROM groups ORDER BY name")
                .db()?
                .query_map([], |row| row.get(0))
                .db()?
                .collect::<rusqlite::Result<_>>()
                .db()?;
            let groups = names
                .iter()
                .map(|name| load_group(conn, name))
                .collect::<Result<Vec<_>>>()?;
            Ok(with_all_users(groups, all_users(conn)?))
        })
    }

    fn delete_group(&self, name: &str) -> Result<()> {
        self.write(|tx| {
            let deleted = tx
                .prepare_cached("DELETE FROM groups WHERE name = ?1")
                .db()?
                .execute([name])
                .db()?;
            if deleted == 0 {
                return Err(unknown_group(name));
            }
            forget_subject(tx, "group", name)?;
            accounts_changed(tx);
            Ok(())
        })
    }

    fn add_member(&self, group: &str, member: &Subject) -> Result<()> {
        refuse_all_users(group)?;
        self.write(|tx| {
            if !group_exists(tx, group)? {
                return Err(unknown_group(group));
            }
            require_subject(tx, member)?;
            let (kind, name) = subject_parts(member);
            let added = tx
                .prepare_cached(
                    "INSERT INTO group_members (group_name, member_kind, member) VALUES (?1, ?2, ?3) \
                     ON CONFLICT DO NOTHING",
                )
                .db()?
                .execute(params![group, kind, name])
                .db()?;
            if added == 0 {
                tx.nothing_changed();
            } else {
                accounts_changed(tx);
            }
            Ok(())
        })
    }

    fn remove_member(&self, group: &str, member: &Subject) -> Result<()> {
        let (kind, name) = subject_parts(member);
        self.write(|tx| {
            let removed = tx
                .prepare_cached("DELETE FROM group_members WHERE group_name = ?1 AND member_kind = ?2 AND member = ?3")
                .db()?
                .execute(params![group, kind, name])
                .db()?;
            if removed == 0 {
                return Err(not_a_member(group, member));
            }
            accounts_changed(tx);
            Ok(())
        })
    }
}

/// Queues the event that tells subscribers users, groups, memberships or tokens changed.
pub(crate) fn accounts_changed(tx: &mut WriteTx<'_>) {
    let (wiki, event) = account::accounts_changed();
    tx.emit(wiki, event);
}

fn user_row(row: &rusqlite::Row<'_>) -> rusqlite::Result<User> {
    Ok(User {
        name: row.get(0)?,
        display_name: row.get(1)?,
        created: from_ms(row.get(2)?),
    })
}

/// The built-in group, listing every registered user.
fn all_users(conn: &Connection) -> Result<Group> {
    let users = conn
        .prepare_cached("SELECT name FROM users ORDER BY name")
        .db()?
        .query_map([], |row| row.get(0))
        .db()?
        .collect::<rusqlite::Result<Vec<String>>>()
        .db()?;
    Ok(all_users_group(users))
}

fn load_group(conn: &Connection, name: &str) -> Result<Group> {
    let members: Vec<(String, String)> = conn
        .prepare_cached("SELECT member_kind, member FROM group_members WHERE group_name = ?1 ORDER BY member_kind, member")
        .db()?
        .query_map([name], |row| Ok((row.get(0)?, row.get(1)?)))
        .db()?
        .collect::<rusqlite::Result<_>>()
        .db()?;
    Ok(group_of(name, members))
}

pub(crate) fn user_exists(conn: &Connection, name: &str) -> Result<bool> {
    exists(conn, "SELECT 1 FROM users WHERE name = ?1", name)
}

pub(crate) fn group_exists(conn: &Connection, name: &str) -> Result<bool> {
    exists(conn, "SELECT 1 FROM groups WHERE name = ?1", name)
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

/// Refuses a subject that does not exist (the guest and the all-users group always do).
pub(crate) fn require_subject(conn: &Connection, subject: &Subject) -> Result<()> {
    account::require_subject(
        subject,
        |name| user_exists(conn, name),
        |name| group_exists(conn, name),
    )
}

/// Removes every membership and rule naming a deleted user or group.
fn forget_subject(conn: &Connection, kind: &str, name: &str) -> Result<()> {
    conn.prepare_cached("DELETE FROM group_members WHERE member_kind = ?1 AND member = ?2")
        .db()?
        .execute([kind, name])
        .db()?;
    conn.prepare_cached("DELETE FROM rights WHERE subject_kind = ?1 AND subject = ?2")
        .db()?
        .execute([kind, name])
        .db()?;
    Ok(())
}
