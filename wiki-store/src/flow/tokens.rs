//! API tokens, over [`TokenRows`] (writes) and [`TokenReads`]: a token names a user who must exist
//! (held until the write ends on PostgreSQL, so a concurrent deletion of the user cannot leave
//! the token behind), and either write queues the accounts event.

use time::OffsetDateTime;

use crate::Result;
use crate::api::TokenStore;
use crate::backend::Backend;
use crate::flow::Transaction;
use crate::flow::users::{Account, AccountRows, changed};
use crate::model::token::{IssuedToken, TokenGrant, TokenInfo, TokenScope};
use crate::plan::account::{
    unknown_token, unknown_user, validate_token_request, validate_token_scope,
};
use crate::secret::token::{self, GeneratedToken};
use crate::stored::{ScopeColumns, from_ms, to_ms, token_scope_columns, token_scope_from_columns};

/// What token writes store beyond the accounts.
pub(crate) trait TokenRows: AccountRows {
    /// Stores `token`'s prefix and digest (never the token in clear) for `user`, with its scope.
    fn insert_token(
        &mut self,
        token: &GeneratedToken,
        user: &str,
        label: &str,
        created_ms: i64,
        scope: &ScopeColumns,
    ) -> Result<()>;

    /// Deletes the token `prefix`; whether it was stored.
    fn delete_token(&mut self, prefix: &str) -> Result<bool>;

    /// Records that the token `prefix` was used at `at_ms`, in one statement that only writes
    /// a later time, so concurrent recorders cannot move it back.
    fn record_use(&mut self, prefix: &str, at_ms: i64) -> Result<()>;
}

/// What token reads fetch.
pub(crate) trait TokenReads {
    /// The tokens of `user` (of everyone for `None`), oldest first.
    fn tokens(&mut self, user: Option<&str>) -> Result<Vec<TokenInfo>>;

    /// The stored digest, user and scope of the token `prefix`, if any.
    #[allow(clippy::type_complexity)]
    fn token_digest(&mut self, prefix: &str) -> Result<Option<(Vec<u8>, (String, ScopeColumns))>>;
}

impl<B: Backend> TokenStore for B {
    /// Returns the token in clear, the only time it is.
    fn create_scoped_token(
        &self,
        user: &str,
        label: &str,
        scope: &TokenScope,
    ) -> Result<IssuedToken> {
        let label = validate_token_request(user, label)?;
        let scope = validate_token_scope(scope, self.config().clock.now())?;
        let columns = token_scope_columns(&scope)?;
        let token = token::generate();
        self.write(|tx| {
            if !tx.account_exists(Account::User, user, true)? {
                return Err(unknown_user(user));
            }
            let created = tx.now_ms();
            tx.insert_token(&token, user, label, created, &columns)?;
            changed(tx);
            Ok(IssuedToken {
                token: token.clear.clone(),
                info: TokenInfo {
                    prefix: token.prefix.clone(),
                    user: user.to_owned(),
                    label: label.to_owned(),
                    created: from_ms(created),
                    last_used: None,
                    scope: scope.clone(),
                },
            })
        })
    }

    fn list_tokens(&self, user: Option<&str>) -> Result<Vec<TokenInfo>> {
        self.read(|rows| rows.tokens(user))
    }

    fn revoke_token(&self, prefix: &str) -> Result<()> {
        self.write(|tx| {
            if !tx.delete_token(prefix)? {
                return Err(unknown_token(prefix));
            }
            changed(tx);
            Ok(())
        })
    }

    /// Not a change: the sequence stays put and nothing is notified.
    fn record_token_use(&self, prefix: &str, at: OffsetDateTime) -> Result<()> {
        let at_ms = to_ms(at);
        self.write(|tx| {
            tx.nothing_changed();
            tx.record_use(prefix, at_ms)
        })
    }

    fn resolve_token_grant(&self, presented: &str) -> Result<Option<TokenGrant>> {
        let Some(presented) = token::parse(presented) else {
            return Ok(None);
        };
        let stored = self.read(|rows| rows.token_digest(&presented.prefix))?;
        let Some((user, columns)) = presented.authenticate(stored) else {
            return Ok(None);
        };
        Ok(Some(TokenGrant {
            user,
            prefix: presented.prefix,
            scope: token_scope_from_columns(columns)?,
        }))
    }
}
