//! The statements behind [`crate::AdminStore`].

use rusqlite::{Connection, OptionalExtension, Row, params, params_from_iter};

use crate::Result;
use crate::flow::admin::{AdminReads, AdminRows, cursor_bounds, newest_first};
use crate::model::admin::{
    AdminSession, AuditCall, AuditCursor, AuditFilter, AuditRow, SecretDigest,
};
use crate::sqlite::convert::DbResultExt;
use crate::sqlite::write::WriteTx;

fn session(digest: &SecretDigest, row: &Row<'_>) -> rusqlite::Result<AdminSession> {
    Ok(AdminSession {
        digest: *digest,
        user: row.get(0)?,
        created_ms: row.get(1)?,
        last_used_ms: row.get(2)?,
        idle_ms: row.get(3)?,
        expires_ms: row.get(4)?,
    })
}

impl AdminReads for &Connection {
    fn session_stored(&mut self, digest: &SecretDigest) -> Result<bool> {
        self.prepare_cached("SELECT EXISTS (SELECT 1 FROM admin_sessions WHERE digest = ?1)")
            .db()?
            .query_row([digest.as_slice()], |row| row.get(0))
            .db()
    }

    fn audit_page(
        &mut self,
        filter: &AuditFilter<'_>,
        cursor: AuditCursor,
        limit: u32,
    ) -> Result<Vec<AuditRow>> {
        // The wiki set is a list of bound parameters (`?11`, `?12`, ...): never text in the SQL.
        let wikis = filter.wikis.map_or(String::new(), |wikis| {
            let marks: Vec<String> = (0..wikis.len()).map(|i| format!("?{}", i + 11)).collect();
            format!(" AND wiki IN ({})", marks.join(", "))
        });
        let (before, after, order) = cursor_bounds(cursor);
        let sql = format!(
            "SELECT id, at_ms, wiki, tool, user_name, outcome, reason, duration_ms \
             FROM audit_calls \
             WHERE (?1 IS NULL OR wiki = ?1) AND (?2 IS NULL OR tool = ?2) \
             AND (?3 IS NULL OR user_name = ?3) AND (?4 IS NULL OR outcome = ?4) \
             AND (?5 IS NULL OR reason = ?5) AND (?7 IS NULL OR at_ms >= ?7) \
             AND (?8 IS NULL OR at_ms < ?8) AND (?9 IS NULL OR id < ?9) \
             AND (?10 IS NULL OR id > ?10){wikis} ORDER BY id {order} LIMIT ?6"
        );
        let text = |value: Option<&str>| {
            value.map_or(rusqlite::types::Value::Null, |v| v.to_owned().into())
        };
        let number = |value: Option<i64>| value.map_or(rusqlite::types::Value::Null, Into::into);
        let mut values: Vec<rusqlite::types::Value> = vec![
            text(filter.wiki),
            text(filter.tool),
            text(filter.user),
            text(filter.outcome),
            text(filter.reason),
            i64::from(limit).into(),
            number(filter.from_ms),
            number(filter.to_ms),
            number(before),
            number(after),
        ];
        for wiki in filter.wikis.unwrap_or_default() {
            values.push(wiki.clone().into());
        }
        let mut statement = self.prepare(&sql).db()?;
        let rows = statement
            .query_map(params_from_iter(values.iter()), |row| {
                Ok(AuditRow {
                    id: row.get(0)?,
                    call: AuditCall {
                        at_ms: row.get(1)?,
                        wiki: row.get(2)?,
                        tool: row.get(3)?,
                        user: row.get(4)?,
                        outcome: row.get(5)?,
                        reason: row.get(6)?,
                        duration_ms: row.get(7)?,
                    },
                })
            })
            .db()?;
        let mut rows = rows.collect::<rusqlite::Result<Vec<_>>>().db()?;
        newest_first(&mut rows, cursor);
        Ok(rows)
    }
}

impl AdminRows for WriteTx<'_> {
    fn delete_expired_sessions(&mut self, now_ms: i64) -> Result<()> {
        self.prepare_cached(
            "DELETE FROM admin_sessions WHERE expires_ms <= ?1 OR last_used_ms + idle_ms <= ?1",
        )
        .db()?
        .execute([now_ms])
        .db()?;
        Ok(())
    }

    fn keep_recent_sessions(&mut self, keep: i64) -> Result<()> {
        self.prepare_cached(
            "DELETE FROM admin_sessions WHERE digest IN (SELECT digest FROM admin_sessions \
             ORDER BY last_used_ms DESC, digest LIMIT -1 OFFSET ?1)",
        )
        .db()?
        .execute([keep])
        .db()?;
        Ok(())
    }

    fn insert_session(&mut self, session: &AdminSession) -> Result<()> {
        self.prepare_cached(
            "INSERT INTO admin_sessions (digest, user_name, created_ms, last_used_ms, idle_ms, \
             expires_ms) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        )
        .db()?
        .execute(params![
            session.digest.as_slice(),
            session.user,
            session.created_ms,
            session.last_used_ms,
            session.idle_ms,
            session.expires_ms
        ])
        .db()?;
        Ok(())
    }

    fn use_session(&mut self, digest: &SecretDigest, now_ms: i64) -> Result<Option<AdminSession>> {
        self.prepare_cached(
            "UPDATE admin_sessions SET last_used_ms = ?2 WHERE digest = ?1 \
             AND expires_ms > ?2 AND last_used_ms + idle_ms > ?2 \
             RETURNING user_name, created_ms, last_used_ms, idle_ms, expires_ms",
        )
        .db()?
        .query_row(params![digest.as_slice(), now_ms], |row| {
            session(digest, row)
        })
        .optional()
        .db()
    }

    fn delete_session(&mut self, digest: &SecretDigest) -> Result<bool> {
        let deleted = self
            .prepare_cached("DELETE FROM admin_sessions WHERE digest = ?1")
            .db()?
            .execute([digest.as_slice()])
            .db()?;
        Ok(deleted > 0)
    }

    fn delete_sessions_of(&mut self, user: &str) -> Result<u64> {
        let deleted = self
            .prepare_cached("DELETE FROM admin_sessions WHERE user_name = ?1")
            .db()?
            .execute([user])
            .db()?;
        Ok(deleted as u64)
    }

    fn delete_expired_logins(&mut self, now_ms: i64) -> Result<()> {
        self.prepare_cached("DELETE FROM admin_logins WHERE expires_ms <= ?1")
            .db()?
            .execute([now_ms])
            .db()?;
        Ok(())
    }

    fn count_logins(&mut self) -> Result<i64> {
        self.prepare_cached("SELECT count(*) FROM admin_logins")
            .db()?
            .query_row([], |row| row.get(0))
            .db()
    }

    fn upsert_login(&mut self, digest: &SecretDigest, expires_ms: i64) -> Result<()> {
        self.prepare_cached(
            "INSERT INTO admin_logins (digest, expires_ms) VALUES (?1, ?2) \
             ON CONFLICT (digest) DO UPDATE SET expires_ms = excluded.expires_ms",
        )
        .db()?
        .execute(params![digest.as_slice(), expires_ms])
        .db()?;
        Ok(())
    }

    fn take_login(&mut self, digest: &SecretDigest) -> Result<Option<i64>> {
        self.prepare_cached("DELETE FROM admin_logins WHERE digest = ?1 RETURNING expires_ms")
            .db()?
            .query_row([digest.as_slice()], |row| row.get(0))
            .optional()
            .db()
    }

    fn insert_audit(&mut self, calls: &[AuditCall]) -> Result<()> {
        let mut insert = self
            .prepare_cached(
                "INSERT INTO audit_calls (at_ms, wiki, tool, user_name, outcome, reason, \
                 duration_ms) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
            )
            .db()?;
        for call in calls {
            insert
                .execute(params![
                    call.at_ms,
                    call.wiki,
                    call.tool,
                    call.user,
                    call.outcome,
                    call.reason,
                    call.duration_ms
                ])
                .db()?;
        }
        Ok(())
    }

    fn delete_audit_before(&mut self, at_ms: i64) -> Result<()> {
        self.prepare_cached("DELETE FROM audit_calls WHERE at_ms < ?1")
            .db()?
            .execute([at_ms])
            .db()?;
        Ok(())
    }

    fn keep_newest_audit(&mut self, keep: i64) -> Result<()> {
        self.prepare_cached(
            "DELETE FROM audit_calls WHERE id <= \
             (SELECT id FROM audit_calls ORDER BY id DESC LIMIT 1 OFFSET ?1)",
        )
        .db()?
        .execute([keep])
        .db()?;
        Ok(())
    }
}
