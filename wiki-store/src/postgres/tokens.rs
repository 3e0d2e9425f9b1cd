//! The PostgreSQL implementation of [`crate::TokenStore`].

use time::OffsetDateTime;

use crate::Result;
use crate::api::TokenStore;
use crate::flow::tokens::{self, TokenRows};
use crate::model::token::{IssuedToken, TokenInfo};
use crate::plan::account::validate_token_request;
use crate::postgres::PostgresStore;
use crate::postgres::convert::RowExt;
use crate::postgres::write::WriteTx;
use crate::secret::token::{self, GeneratedToken};
use crate::stored::{from_ms, to_ms};

impl TokenStore for PostgresStore {
    fn create_token(&self, user: &str, label: &str) -> Result<IssuedToken> {
        let label = validate_token_request(user, label)?;
        let generated = token::generate();
        self.write(|tx| tokens::create(tx, &generated, user, label))
    }

    fn list_tokens(&self, user: Option<&str>) -> Result<Vec<TokenInfo>> {
        self.read(|conn| {
            conn.query(
                "SELECT prefix, user_name, label, created_ms, last_used_ms FROM api_tokens \
                 WHERE $1::text IS NULL OR user_name = $1 ORDER BY created_ms, prefix",
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
                })
            })
            .collect()
        })
    }

    fn revoke_token(&self, prefix: &str) -> Result<()> {
        self.write(|tx| tokens::revoke(tx, prefix))
    }

    /// One statement in its own transaction, outside the write path: it neither advances the
    /// sequence nor notifies, and it only writes a later time, so replicas flushing the same
    /// token at once never conflict (a concurrent update re-checks the condition on the newer
    /// row and keeps the latest time).
    fn record_token_use(&self, prefix: &str, at: OffsetDateTime) -> Result<()> {
        let at = to_ms(at);
        self.read(|conn| {
            conn.execute(
                "UPDATE api_tokens SET last_used_ms = $2 \
                 WHERE prefix = $1 AND (last_used_ms IS NULL OR last_used_ms < $2)",
                &[&prefix, &at],
            )
            .map(drop)
        })
    }

    fn resolve_token(&self, presented: &str) -> Result<Option<String>> {
        let Some(presented) = token::parse(presented) else {
            return Ok(None);
        };
        self.read(|conn| {
            let stored = conn
                .query_opt(
                    "SELECT digest, user_name FROM api_tokens WHERE prefix = $1",
                    &[&presented.prefix],
                )?
                .map(|row| {
                    Ok::<_, crate::StoreError>((row.col::<Vec<u8>>(0)?, row.col::<String>(1)?))
                })
                .transpose()?;
            Ok(presented.authenticate(stored))
        })
    }
}

impl TokenRows for WriteTx<'_> {
    fn insert_token(
        &mut self,
        token: &GeneratedToken,
        user: &str,
        label: &str,
        created_ms: i64,
    ) -> Result<()> {
        self.execute(
            "INSERT INTO api_tokens (prefix, digest, user_name, label, created_ms) VALUES ($1, $2, $3, $4, $5)",
            &[&token.prefix, &token.digest.0.as_slice(), &user, &label, &created_ms],
        )?;
        Ok(())
    }

    fn delete_token(&mut self, prefix: &str) -> Result<bool> {
        Ok(self.execute("DELETE FROM api_tokens WHERE prefix = $1", &[&prefix])? > 0)
    }
}
