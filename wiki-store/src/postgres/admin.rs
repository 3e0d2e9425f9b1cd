//! The statements behind [`crate::AdminStore`]. Each operation is one short
//! transaction; taking a pending sign-in is one `DELETE ... RETURNING`, so of replicas taking
//! the same one at once exactly one gets it.

use crate::Result;
use crate::flow::admin::{AdminReads, AdminRows, cursor_bounds, newest_first};
use crate::model::admin::{
    AdminSession, AuditCall, AuditCursor, AuditFilter, AuditRow, SecretDigest,
};
use crate::postgres::convert::RowExt;
use crate::postgres::pool::Conn;
use crate::postgres::write::WriteTx;

impl AdminReads for Conn {
    fn session_stored(&mut self, digest: &SecretDigest) -> Result<bool> {
        self.query_one(
            "SELECT EXISTS (SELECT 1 FROM admin_sessions WHERE digest = $1)",
            &[&digest.as_slice()],
        )?
        .col(0)
    }

    fn audit_page(
        &mut self,
        filter: &AuditFilter<'_>,
        cursor: AuditCursor,
        limit: u32,
    ) -> Result<Vec<AuditRow>> {
        let wikis: Option<Vec<&str>> = filter
            .wikis
            .map(|wikis| wikis.iter().map(String::as_str).collect());
        let limit = i64::from(limit);
        let (before, after, order) = cursor_bounds(cursor);
        let sql = format!(
            "SELECT id, at_ms, wiki, tool, user_name, outcome, reason, duration_ms \
             FROM audit_calls \
             WHERE ($1::text IS NULL OR wiki = $1) AND ($2::text IS NULL OR tool = $2) \
             AND ($3::text IS NULL OR user_name = $3) AND ($4::text IS NULL OR outcome = $4) \
             AND ($5::text IS NULL OR reason = $5) \
             AND ($6::text[] IS NULL OR wiki = ANY ($6)) \
             AND ($8::bigint IS NULL OR at_ms >= $8) AND ($9::bigint IS NULL OR at_ms < $9) \
             AND ($10::bigint IS NULL OR id < $10) AND ($11::bigint IS NULL OR id > $11) \
             ORDER BY id {order} LIMIT $7"
        );
        let mut rows = self
            .query(
                &sql,
                &[
                    &filter.wiki,
                    &filter.tool,
                    &filter.user,
                    &filter.outcome,
                    &filter.reason,
                    &wikis,
                    &limit,
                    &filter.from_ms,
                    &filter.to_ms,
                    &before,
                    &after,
                ],
            )?
            .iter()
            .map(|row| {
                Ok(AuditRow {
                    id: row.col(0)?,
                    call: AuditCall {
                        at_ms: row.col(1)?,
                        wiki: row.col(2)?,
                        tool: row.col(3)?,
                        user: row.col(4)?,
                        outcome: row.col(5)?,
                        reason: row.col(6)?,
                        duration_ms: row.col(7)?,
                    },
                })
            })
            .collect::<Result<Vec<_>>>()?;
        newest_first(&mut rows, cursor);
        Ok(rows)
    }
}

impl AdminRows for WriteTx<'_> {
    fn delete_expired_sessions(&mut self, now_ms: i64) -> Result<()> {
        self.execute(
            "DELETE FROM admin_sessions WHERE expires_ms <= $1 OR last_used_ms + idle_ms <= $1",
            &[&now_ms],
        )?;
        Ok(())
    }

    fn keep_recent_sessions(&mut self, keep: i64) -> Result<()> {
        self.execute(
            "DELETE FROM admin_sessions WHERE digest IN (SELECT digest FROM admin_sessions \
             ORDER BY last_used_ms DESC, digest OFFSET $1)",
            &[&keep],
        )?;
        Ok(())
    }

    fn insert_session(&mut self, session: &AdminSession) -> Result<()> {
        self.execute(
            "INSERT INTO admin_sessions (digest, user_name, created_ms, last_used_ms, idle_ms, \
             expires_ms) VALUES ($1, $2, $3, $4, $5, $6)",
            &[
                &session.digest.as_slice(),
                &session.user,
                &session.created_ms,
                &session.last_used_ms,
                &session.idle_ms,
                &session.expires_ms,
            ],
        )?;
        Ok(())
    }

    fn use_session(&mut self, digest: &SecretDigest, now_ms: i64) -> Result<Option<AdminSession>> {
        self.query_opt(
            "UPDATE admin_sessions SET last_used_ms = $2 WHERE digest = $1 \
             AND expires_ms > $2 AND last_used_ms + idle_ms > $2 \
             RETURNING user_name, created_ms, last_used_ms, idle_ms, expires_ms",
            &[&digest.as_slice(), &now_ms],
        )?
        .map(|row| {
            Ok(AdminSession {
                digest: *digest,
                user: row.col(0)?,
                created_ms: row.col(1)?,
                last_used_ms: row.col(2)?,
                idle_ms: row.col(3)?,
                expires_ms: row.col(4)?,
            })
        })
        .transpose()
    }

    fn delete_session(&mut self, digest: &SecretDigest) -> Result<bool> {
        let deleted = self.execute(
            "DELETE FROM admin_sessions WHERE digest = $1",
            &[&digest.as_slice()],
        )?;
        Ok(deleted > 0)
    }

    fn delete_sessions_of(&mut self, user: &str) -> Result<u64> {
        self.execute("DELETE FROM admin_sessions WHERE user_name = $1", &[&user])
    }

    fn delete_expired_logins(&mut self, now_ms: i64) -> Result<()> {
        self.execute(
            "DELETE FROM admin_logins WHERE expires_ms <= $1",
            &[&now_ms],
        )?;
        Ok(())
    }

    fn count_logins(&mut self) -> Result<i64> {
        self.query_one("SELECT count(*) FROM admin_logins", &[])?
            .col(0)
    }

    fn upsert_login(&mut self, digest: &SecretDigest, expires_ms: i64) -> Result<()> {
        self.execute(
            "INSERT INTO admin_logins (digest, expires_ms) VALUES ($1, $2) \
             ON CONFLICT (digest) DO UPDATE SET expires_ms = excluded.expires_ms",
            &[&digest.as_slice(), &expires_ms],
        )?;
        Ok(())
    }

    fn take_login(&mut self, digest: &SecretDigest) -> Result<Option<i64>> {
        self.query_opt(
            "DELETE FROM admin_logins WHERE digest = $1 RETURNING expires_ms",
            &[&digest.as_slice()],
        )?
        .map(|row| row.col(0))
        .transpose()
    }

    fn insert_audit(&mut self, calls: &[AuditCall]) -> Result<()> {
        let at: Vec<i64> = calls.iter().map(|call| call.at_ms).collect();
        let wiki: Vec<&str> = calls.iter().map(|call| call.wiki.as_str()).collect();
        let tool: Vec<&str> = calls.iter().map(|call| call.tool.as_str()).collect();
        let user: Vec<&str> = calls.iter().map(|call| call.user.as_str()).collect();
        let outcome: Vec<&str> = calls.iter().map(|call| call.outcome.as_str()).collect();
        let reason: Vec<Option<&str>> = calls.iter().map(|call| call.reason.as_deref()).collect();
        let duration: Vec<i64> = calls.iter().map(|call| call.duration_ms).collect();
        // One statement for the batch; WITH ORDINALITY keeps the calls' order in the ids.
        self.execute(
            "INSERT INTO audit_calls (at_ms, wiki, tool, user_name, outcome, reason, duration_ms) \
             SELECT a, w, t, u, o, r, d FROM UNNEST($1::bigint[], $2::text[], $3::text[], \
             $4::text[], $5::text[], $6::text[], $7::bigint[]) WITH ORDINALITY \
             AS calls (a, w, t, u, o, r, d, n) ORDER BY n",
            &[&at, &wiki, &tool, &user, &outcome, &reason, &duration],
        )?;
        Ok(())
    }

    fn delete_audit_before(&mut self, at_ms: i64) -> Result<()> {
        self.execute("DELETE FROM audit_calls WHERE at_ms < $1", &[&at_ms])?;
        Ok(())
    }

    fn keep_newest_audit(&mut self, keep: i64) -> Result<()> {
        self.execute(
            "DELETE FROM audit_calls WHERE id <= \
             (SELECT id FROM audit_calls ORDER BY id DESC LIMIT 1 OFFSET $1)",
            &[&keep],
        )?;
        Ok(())
    }
}
