//! The PostgreSQL implementation of [`crate::UserStore`].
//!
//! A write that depends on a user or group existing (a membership, a rule, a token) reads it
//! `FOR SHARE`: a concurrent deletion then waits for it to commit and removes what it added, or
//! has committed already and the write finds the subject gone, so nothing is left naming a
//! deleted user or group.

use crate::Result;
use crate::api::UserStore;
use crate::model::rights::Subject;
use crate::model::user::{ALL_USERS_GROUP, Group, User};
use crate::plan::account::{
    self, all_users_group, built_in_user, group_exists as group_taken, group_of, not_a_member,
    refuse_all_users, refuse_guest, unknown_group, unknown_user, user_exists as user_taken,
    validate_new_group, validate_new_user, with_all_users,
};
use crate::postgres::PostgresStore;
use crate::postgres::convert::RowExt;
use crate::postgres::pool::Conn;
use crate::postgres::write::WriteTx;
use crate::stored::{from_ms, now_ms, subject_parts};

impl UserStore for PostgresStore {
    fn create_user(&self, name: &str, display_name: Option<&str>) -> Result<User> {
        let display_name = validate_new_user(name, display_name)?;
        self.write(|tx| {
            if user_exists(tx, name)? {
                return Err(user_taken(name));
            }
            let created = now_ms();
            tx.execute(
                "INSERT INTO users (name, display_name, created_ms) VALUES ($1, $2, $3)",
                &[&name, &display_name, &created],
            )?;
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
            conn.query_opt(
                "SELECT name, display_name, created_ms FROM users WHERE name = $1",
                &[&name],
            )?
            .map(|row| user_row(&row))
            .transpose()?
            .ok_or_else(|| unknown_user(name))
        })
    }

    fn list_users(&self) -> Result<Vec<User>> {
        self.read(|conn| {
            conn.query(
                "SELECT name, display_name, created_ms FROM users ORDER BY name",
                &[],
            )?
            .iter()
            .map(user_row)
            .collect()
        })
    }

    fn delete_user(&self, name: &str) -> Result<()> {
        refuse_guest(name)?;
        self.write(|tx| {
            let deleted = tx.execute("DELETE FROM users WHERE name = $1", &[&name])?;
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
            tx.execute(
                "INSERT INTO groups (name, created_ms) VALUES ($1, $2)",
                &[&name, &now_ms()],
            )?;
            accounts_changed(tx);
            Ok(Group {
                name: name.to_owned(),
                users: Vec::new(),
                groups: Vec::new(),
            })
        })
    }

    fn group(&self, name: &str) -> Result<Group> {
        self.snapshot(|conn| {
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
        self.snapshot(|conn| {
            let rows = conn.query(
                "SELECT g.name, m.member_kind, m.member FROM groups g \
                 LEFT JOIN group_members m ON m.group_name = g.name \
                 ORDER BY g.name, m.member_kind, m.member",
                &[],
            )?;
            let mut stored: Vec<(String, Vec<(String, String)>)> = Vec::new();
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
            let groups = stored
                .into_iter()
                .map(|(name, members)| group_of(&name, members))
                .collect();
            Ok(with_all_users(groups, all_users(conn)?))
        })
    }

    fn delete_group(&self, name: &str) -> Result<()> {
        self.write(|tx| {
            let deleted = tx.execute("DELETE FROM groups WHERE name = $1", &[&name])?;
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
            if !group_exists_locked(tx, group)? {
                return Err(unknown_group(group));
            }
            require_subject(tx, member)?;
            let (kind, name) = subject_parts(member);
            let added = tx.execute(
                "INSERT INTO group_members (group_name, member_kind, member) VALUES ($1, $2, $3) \
                 ON CONFLICT DO NOTHING",
                &[&group, &kind, &name],
            )?;
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
            let removed = tx.execute(
                "DELETE FROM group_members WHERE group_name = $1 AND member_kind = $2 AND member = $3",
                &[&group, &kind, &name],
            )?;
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

fn user_row(row: &postgres::Row) -> Result<User> {
    Ok(User {
        name: row.col(0)?,
        display_name: row.col(1)?,
        created: from_ms(row.col(2)?),
    })
}

/// The built-in group, listing every registered user.
fn all_users(conn: &mut Conn) -> Result<Group> {
    let users = conn
        .query("SELECT name FROM users ORDER BY name", &[])?
        .iter()
        .map(|row| row.col(0))
        .collect::<Result<Vec<String>>>()?;
    Ok(all_users_group(users))
}

fn load_group(conn: &mut Conn, name: &str) -> Result<Group> {
    let members = conn
        .query(
            "SELECT member_kind, member FROM group_members WHERE group_name = $1 ORDER BY member_kind, member",
            &[&name],
        )?
        .iter()
        .map(|row| Ok((row.col(0)?, row.col(1)?)))
        .collect::<Result<Vec<(String, String)>>>()?;
    Ok(group_of(name, members))
}

pub(crate) fn user_exists(conn: &mut Conn, name: &str) -> Result<bool> {
    Ok(conn
        .query_opt("SELECT 1 FROM users WHERE name = $1", &[&name])?
        .is_some())
}

/// Whether the user exists, holding its row `FOR SHARE` until the transaction ends.
pub(crate) fn user_exists_locked(conn: &mut Conn, name: &str) -> Result<bool> {
    Ok(conn
        .query_opt("SELECT 1 FROM users WHERE name = $1 FOR SHARE", &[&name])?
        .is_some())
}

fn group_exists(conn: &mut Conn, name: &str) -> Result<bool> {
    Ok(conn
        .query_opt("SELECT 1 FROM groups WHERE name = $1", &[&name])?
        .is_some())
}

fn group_exists_locked(conn: &mut Conn, name: &str) -> Result<bool> {
    Ok(conn
        .query_opt("SELECT 1 FROM groups WHERE name = $1 FOR SHARE", &[&name])?
        .is_some())
}

/// Refuses a subject that does not exist (the guest and the all-users group always do), holding
/// a stored one `FOR SHARE` until the transaction ends.
pub(crate) fn require_subject(conn: &mut Conn, subject: &Subject) -> Result<()> {
    // The rule asks about one kind or the other, never both: one connection serves either.
    let conn = std::cell::RefCell::new(conn);
    account::require_subject(
        subject,
        |name| user_exists_locked(&mut conn.borrow_mut(), name),
        |name| group_exists_locked(&mut conn.borrow_mut(), name),
    )
}

/// Removes every membership and rule naming a deleted user or group.
fn forget_subject(conn: &mut Conn, kind: &str, name: &str) -> Result<()> {
    conn.execute(
        "DELETE FROM group_members WHERE member_kind = $1 AND member = $2",
        &[&kind, &name],
    )?;
    conn.execute(
        "DELETE FROM rights WHERE subject_kind = $1 AND subject = $2",
        &[&kind, &name],
    )?;
    Ok(())
}
