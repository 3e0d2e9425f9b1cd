//! The statements behind [`crate::TokenStore`].

use rusqlite::{Connection, OptionalExtension, params};

use crate::Result;
use crate::flow::tokens::{TokenReads, TokenRows};
use crate::model::token::{TokenInfo, TokenScope};
use crate::secret::token::GeneratedToken;
use crate::sqlite::convert::DbResultExt;
use crate::sqlite::write::WriteTx;
use crate::stored::{ScopeColumns, from_ms, token_scope_from_columns};

impl TokenRows for WriteTx<'_> {
    fn insert_token(
        &mut self,
        token: &GeneratedToken,
        user: &str,
        label: &str,
        created_ms: i64,
        scope: &ScopeColumns,
    ) -> Result<()> {
        self.prepare_cached(
            "INSERT INTO api_tokens (prefix, digest, user_name, label, created_ms, scope, expires_ms) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
        )
        .db()?
        .execute(params![
            token.prefix,
            token.digest.0.as_slice(),
            user,
            label,
            created_ms,
            scope.json,
            scope.expires_ms
        ])
        .db()?;
        Ok(())
    }

    fn delete_token(&mut self, prefix: &str) -> Result<bool> {
        let removed = self
            .prepare_cached("DELETE FROM api_tokens WHERE prefix = ?1")
            .db()?
            .execute([prefix])
            .db()?;
        Ok(removed > 0)
    }

    fn record_use(&mut self, prefix: &str, at_ms: i64) -> Result<()> {
        self.prepare_cached(
            "UPDATE api_tokens SET last_used_ms = ?2 \
             WHERE prefix = ?1 AND (last_used_ms IS NULL OR last_used_ms < ?2)",
        )
        .db()?
        .execute(params![prefix, at_ms])
        .db()?;
        Ok(())
    }
}

impl TokenReads for &Connection {
    fn tokens(&mut self, user: Option<&str>) -> Result<Vec<TokenInfo>> {
        self.prepare_cached(
            "SELECT prefix, user_name, label, created_ms, last_used_ms, scope, expires_ms \
             FROM api_tokens WHERE ?1 IS NULL OR user_name = ?1 ORDER BY created_ms, prefix",
        )
        .db()?
        .query_map([user], |row| {
            let scope = ScopeColumns {
                json: row.get(5)?,
                expires_ms: row.get(6)?,
            };
            Ok((
                TokenInfo {
                    prefix: row.get(0)?,
                    user: row.get(1)?,
                    label: row.get(2)?,
                    created: from_ms(row.get(3)?),
                    last_used: row.get::<_, Option<i64>>(4)?.map(from_ms),
                    scope: TokenScope::full(),
                },
                scope,
            ))
        })
        .db()?
        .map(|row| {
            let (info, scope) = row.db()?;
            Ok(TokenInfo {
                scope: token_scope_from_columns(scope)?,
                ..info
            })
        })
        .collect()
    }

    fn token_digest(&mut self, prefix: &str) -> Result<Option<(Vec<u8>, (String, ScopeColumns))>> {
        self.prepare_cached(
            "SELECT digest, user_name, scope, expires_ms FROM api_tokens WHERE prefix = ?1",
        )
        .db()?
        .query_row([prefix], |row| {
            let scope = ScopeColumns {
                json: row.get(2)?,
                expires_ms: row.get(3)?,
            };
            Ok((row.get(0)?, (row.get(1)?, scope)))
        })
        .optional()
        .db()
    }
}
