//! The SQLite implementation of [`crate::TokenStore`].

use rusqlite::{OptionalExtension, params};
use time::OffsetDateTime;

use crate::Result;
use crate::api::TokenStore;
use crate::flow::tokens::{self, TokenRows};
use crate::model::token::{IssuedToken, TokenInfo};
use crate::plan::account::validate_token_request;
use crate::secret::token::{self, GeneratedToken};
use crate::sqlite::SqliteStore;
use crate::sqlite::convert::DbResultExt;
use crate::sqlite::write::WriteTx;
use crate::stored::{from_ms, to_ms};

impl TokenStore for SqliteStore {
    fn create_token(&self, user: &str, label: &str) -> Result<IssuedToken> {
        let label = validate_token_request(user, label)?;
        let generated = token::generate();
        self.write(|tx| tokens::create(tx, &generated, user, label))
    }

    fn list_tokens(&self, user: Option<&str>) -> Result<Vec<TokenInfo>> {
        self.read(|conn| {
            conn.prepare_cached(
                "SELECT prefix, user_name, label, created_ms, last_used_ms FROM api_tokens \
                 WHERE ?1 IS NULL OR user_name = ?1 ORDER BY created_ms, prefix",
            )
            .db()?
            .query_map([user], |row| {
                Ok(TokenInfo {
                    prefix: row.get(0)?,
                    user: row.get(1)?,
                    label: row.get(2)?,
                    created: from_ms(row.get(3)?),
                    last_used: row.get::<_, Option<i64>>(4)?.map(from_ms),
                })
            })
            .db()?
            .collect::<rusqlite::Result<Vec<_>>>()
            .db()
        })
    }

    fn revoke_token(&self, prefix: &str) -> Result<()> {
        self.write(|tx| tokens::revoke(tx, prefix))
    }

    fn record_token_use(&self, prefix: &str, at: OffsetDateTime) -> Result<()> {
        self.write(|tx| {
            // One statement: only a later time is written, so concurrent recorders (two servers
            // over one file) cannot move it back.
            tx.prepare_cached(
                "UPDATE api_tokens SET last_used_ms = ?2 \
                 WHERE prefix = ?1 AND (last_used_ms IS NULL OR last_used_ms < ?2)",
            )
            .db()?
            .execute(params![prefix, to_ms(at)])
            .db()?;
            tx.nothing_changed();
            Ok(())
        })
    }

    fn resolve_token(&self, presented: &str) -> Result<Option<String>> {
        let Some(presented) = token::parse(presented) else {
            return Ok(None);
        };
        self.read(|conn| {
            let stored: Option<(Vec<u8>, String)> = conn
                .prepare_cached("SELECT digest, user_name FROM api_tokens WHERE prefix = ?1")
                .db()?
                .query_row([&presented.prefix], |row| Ok((row.get(0)?, row.get(1)?)))
                .optional()
                .db()?;
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
        self.prepare_cached(
            "INSERT INTO api_tokens (prefix, digest, user_name, label, created_ms) VALUES (?1, ?2, ?3, ?4, ?5)",
        )
        .db()?
        .execute(params![token.prefix, token.digest.0.as_slice(), user, label, created_ms])
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
}
