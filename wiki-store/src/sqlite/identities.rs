//! The statements behind [`crate::IdentityStore`].

use rusqlite::{Connection, OptionalExtension, params};

use crate::Result;
use crate::flow::identities::{IdentityReads, IdentityRows};
use crate::model::identity::{IdentityAdoption, IdentityLink};
use crate::sqlite::convert::DbResultExt;
use crate::sqlite::write::WriteTx;
use crate::stored::from_ms;

fn link_of(conn: &Connection, issuer: &str, subject: &str) -> Result<Option<String>> {
    conn.prepare_cached("SELECT user_name FROM identity_links WHERE issuer = ?1 AND subject = ?2")
        .db()?
        .query_row([issuer, subject], |row| row.get(0))
        .optional()
        .db()
}

impl IdentityRows for WriteTx<'_> {
    fn link_of(&mut self, issuer: &str, subject: &str) -> Result<Option<String>> {
        link_of(self, issuer, subject)
    }

    fn linked_at(&mut self, issuer: &str, user: &str) -> Result<bool> {
        Ok(self
            .prepare_cached("SELECT 1 FROM identity_links WHERE user_name = ?1 AND issuer = ?2")
            .db()?
            .query_row([user, issuer], |_| Ok(()))
            .optional()
            .db()?
            .is_some())
    }

    fn insert_link(
        &mut self,
        issuer: &str,
        subject: &str,
        user: &str,
        created_ms: i64,
    ) -> Result<()> {
        self.prepare_cached(
            "INSERT INTO identity_links (issuer, subject, user_name, created_ms) \
             VALUES (?1, ?2, ?3, ?4)",
        )
        .db()?
        .execute(params![issuer, subject, user, created_ms])
        .db()?;
        Ok(())
    }

    fn delete_link(&mut self, issuer: &str, subject: &str) -> Result<bool> {
        Ok(self
            .prepare_cached("DELETE FROM identity_links WHERE issuer = ?1 AND subject = ?2")
            .db()?
            .execute([issuer, subject])
            .db()?
            > 0)
    }

    fn upsert_adoption(&mut self, issuer: &str, user: &str, expires_ms: i64) -> Result<()> {
        self.prepare_cached(
            "INSERT INTO identity_adoptions (issuer, user_name, expires_ms) VALUES (?1, ?2, ?3) \
             ON CONFLICT (issuer, user_name) DO UPDATE SET expires_ms = excluded.expires_ms",
        )
        .db()?
        .execute(params![issuer, user, expires_ms])
        .db()?;
        Ok(())
    }

    fn take_adoption(&mut self, issuer: &str, user: &str) -> Result<Option<i64>> {
        self.prepare_cached(
            "DELETE FROM identity_adoptions WHERE issuer = ?1 AND user_name = ?2 \
             RETURNING expires_ms",
        )
        .db()?
        .query_row([issuer, user], |row| row.get(0))
        .optional()
        .db()
    }

    fn settle_upgrade(&mut self) -> Result<()> {
        self.prepare_cached("DELETE FROM identity_upgrade")
            .db()?
            .execute([])
            .db()?;
        Ok(())
    }
}

impl IdentityReads for &Connection {
    fn linked_user(&mut self, issuer: &str, subject: &str) -> Result<Option<String>> {
        link_of(self, issuer, subject)
    }

    fn links(&mut self) -> Result<Vec<IdentityLink>> {
        self.prepare_cached(
            "SELECT issuer, subject, user_name, created_ms FROM identity_links \
             ORDER BY user_name, issuer, subject",
        )
        .db()?
        .query_map([], |row| {
            Ok(IdentityLink {
                issuer: row.get(0)?,
                subject: row.get(1)?,
                user: row.get(2)?,
                created: from_ms(row.get(3)?),
            })
        })
        .db()?
        .collect::<rusqlite::Result<Vec<_>>>()
        .db()
    }

    fn adoptions(&mut self, now_ms: i64) -> Result<Vec<IdentityAdoption>> {
        self.prepare_cached(
            "SELECT issuer, user_name, expires_ms FROM identity_adoptions \
             WHERE expires_ms > ?1 ORDER BY issuer, user_name",
        )
        .db()?
        .query_map([now_ms], |row| {
            Ok(IdentityAdoption {
                issuer: row.get(0)?,
                user: row.get(1)?,
                expires: from_ms(row.get(2)?),
            })
        })
        .db()?
        .collect::<rusqlite::Result<Vec<_>>>()
        .db()
    }

    fn upgrade_pending(&mut self) -> Result<bool> {
        Ok(self
            .prepare_cached("SELECT 1 FROM identity_upgrade")
            .db()?
            .query_row([], |_| Ok(()))
            .optional()
            .db()?
            .is_some())
    }
}
