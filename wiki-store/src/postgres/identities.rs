//! The statements behind [`crate::IdentityStore`] on PostgreSQL. The user a link or adoption
//! names is read `FOR SHARE` (as memberships and tokens do), so a concurrent deletion of the
//! user either waits for the write or has removed the user before it; two writers linking one
//! identity at once collide on its primary key and the write reruns, finding the other's link.

use crate::Result;
use crate::flow::identities::{IdentityReads, IdentityRows};
use crate::model::identity::{IdentityAdoption, IdentityLink};
use crate::postgres::convert::RowExt;
use crate::postgres::pool::Conn;
use crate::postgres::write::WriteTx;
use crate::stored::from_ms;

const LINK_OF: &str = "SELECT user_name FROM identity_links WHERE issuer = $1 AND subject = $2";

impl IdentityRows for WriteTx<'_> {
    fn link_of(&mut self, issuer: &str, subject: &str) -> Result<Option<String>> {
        self.query_opt(LINK_OF, &[&issuer, &subject])?
            .map(|row| row.col(0))
            .transpose()
    }

    fn linked_at(&mut self, issuer: &str, user: &str) -> Result<bool> {
        Ok(self
            .query_opt(
                "SELECT 1 FROM identity_links WHERE user_name = $1 AND issuer = $2 LIMIT 1",
                &[&user, &issuer],
            )?
            .is_some())
    }

    fn insert_link(
        &mut self,
        issuer: &str,
        subject: &str,
        user: &str,
        created_ms: i64,
    ) -> Result<()> {
        self.execute(
            "INSERT INTO identity_links (issuer, subject, user_name, created_ms) \
             VALUES ($1, $2, $3, $4)",
            &[&issuer, &subject, &user, &created_ms],
        )?;
        Ok(())
    }

    fn delete_link(&mut self, issuer: &str, subject: &str) -> Result<bool> {
        Ok(self.execute(
            "DELETE FROM identity_links WHERE issuer = $1 AND subject = $2",
            &[&issuer, &subject],
        )? > 0)
    }

    fn upsert_adoption(&mut self, issuer: &str, user: &str, expires_ms: i64) -> Result<()> {
        self.execute(
            "INSERT INTO identity_adoptions (issuer, user_name, expires_ms) VALUES ($1, $2, $3) \
             ON CONFLICT (issuer, user_name) DO UPDATE SET expires_ms = excluded.expires_ms",
            &[&issuer, &user, &expires_ms],
        )?;
        Ok(())
    }

    fn take_adoption(&mut self, issuer: &str, user: &str) -> Result<Option<i64>> {
        self.query_opt(
            "DELETE FROM identity_adoptions WHERE issuer = $1 AND user_name = $2 \
             RETURNING expires_ms",
            &[&issuer, &user],
        )?
        .map(|row| row.col(0))
        .transpose()
    }

    fn settle_upgrade(&mut self) -> Result<()> {
        self.execute("DELETE FROM identity_upgrade", &[])?;
        Ok(())
    }
}

impl IdentityReads for Conn {
    fn linked_user(&mut self, issuer: &str, subject: &str) -> Result<Option<String>> {
        self.query_opt(LINK_OF, &[&issuer, &subject])?
            .map(|row| row.col(0))
            .transpose()
    }

    fn links(&mut self) -> Result<Vec<IdentityLink>> {
        self.query(
            "SELECT issuer, subject, user_name, created_ms FROM identity_links \
             ORDER BY user_name, issuer, subject",
            &[],
        )?
        .iter()
        .map(|row| {
            Ok(IdentityLink {
                issuer: row.col(0)?,
                subject: row.col(1)?,
                user: row.col(2)?,
                created: from_ms(row.col(3)?),
            })
        })
        .collect()
    }

    fn adoptions(&mut self, now_ms: i64) -> Result<Vec<IdentityAdoption>> {
        self.query(
            "SELECT issuer, user_name, expires_ms FROM identity_adoptions \
             WHERE expires_ms > $1 ORDER BY issuer, user_name",
            &[&now_ms],
        )?
        .iter()
        .map(|row| {
            Ok(IdentityAdoption {
                issuer: row.col(0)?,
                user: row.col(1)?,
                expires: from_ms(row.col(2)?),
            })
        })
        .collect()
    }

    fn upgrade_pending(&mut self) -> Result<bool> {
        Ok(self
            .query_opt("SELECT 1 FROM identity_upgrade", &[])?
            .is_some())
    }
}
