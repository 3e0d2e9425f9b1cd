//! The statements behind [`crate::TokenStore`].

use crate::Result;
use crate::flow::tokens::{TokenReads, TokenRows};
use crate::model::token::TokenInfo;
use crate::postgres::convert::RowExt;
use crate::postgres::pool::Conn;
use crate::postgres::write::WriteTx;
use crate::secret::token::GeneratedToken;
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
        self.execute(
            "INSERT INTO api_tokens (prefix, digest, user_name, label, created_ms, scope, expires_ms) \
             VALUES ($1, $2, $3, $4, $5, $6, $7)",
            &[
                &token.prefix,
                &token.digest.0.as_slice(),
                &user,
                &label,
                &created_ms,
                &scope.json,
                &scope.expires_ms,
            ],
        )?;
        Ok(())
    }

    fn delete_token(&mut self, prefix: &str) -> Result<bool> {
        Ok(self.execute("DELETE FROM api_tokens WHERE prefix = $1", &[&prefix])? > 0)
    }

    /// Replicas flushing the same token at once never conflict: a concurrent update waits for
    /// the row, re-checks the condition on the newer version and keeps the latest time.
    fn record_use(&mut self, prefix: &str, at_ms: i64) -> Result<()> {
        self.execute(
            "UPDATE api_tokens SET last_used_ms = $2 \
             WHERE prefix = $1 AND (last_used_ms IS NULL OR last_used_ms < $2)",
            &[&prefix, &at_ms],
        )?;
        Ok(())
    }
}

impl TokenReads for Conn {
    fn tokens(&mut self, user: Option<&str>) -> Result<Vec<TokenInfo>> {
        self.query(
            "SELECT prefix, user_name, label, created_ms, last_used_ms, scope, expires_ms \
             FROM api_tokens WHERE $1::text IS NULL OR user_name = $1 ORDER BY created_ms, prefix",
            &[&user],
        )?
        .iter()
        .map(|row| {
            Ok(TokenInfo {
                prefix: row.col(0)?,
                user: row.col(1)?,
                label: row.col(2)?,
                created: from_ms(row.col(3)?),
                last_used: row.col::<Option<i64>>(4)?.map(from_ms),
                scope: token_scope_from_columns(ScopeColumns {
                    json: row.col(5)?,
                    expires_ms: row.col(6)?,
                })?,
            })
        })
        .collect()
    }

    fn token_digest(&mut self, prefix: &str) -> Result<Option<(Vec<u8>, (String, ScopeColumns))>> {
        self.query_opt(
            "SELECT digest, user_name, scope, expires_ms FROM api_tokens WHERE prefix = $1",
            &[&prefix],
        )?
        .map(|row| {
            let scope = ScopeColumns {
                json: row.col(2)?,
                expires_ms: row.col(3)?,
            };
            Ok((row.col(0)?, (row.col(1)?, scope)))
        })
        .transpose()
    }
}
