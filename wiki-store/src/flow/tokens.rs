//! API token issue and revocation, over [`TokenRows`]: a token names a user who must exist
//! (held until the write ends on PostgreSQL, so a concurrent deletion of the user cannot leave
//! the token behind), and either write queues the accounts event.

use crate::Result;
use crate::flow::users::{Account, AccountRows, changed};
use crate::model::token::{IssuedToken, TokenInfo};
use crate::plan::account::{unknown_token, unknown_user};
use crate::secret::token::GeneratedToken;
use crate::stored::{from_ms, now_ms};

/// What token writes store beyond the accounts.
pub(crate) trait TokenRows: AccountRows {
    /// Stores `token`'s prefix and digest (never the token in clear) for `user`.
    fn insert_token(
        &mut self,
        token: &GeneratedToken,
        user: &str,
        label: &str,
        created_ms: i64,
    ) -> Result<()>;

    /// Deletes the token `prefix`; whether it was stored.
    fn delete_token(&mut self, prefix: &str) -> Result<bool>;
}

/// Stores a generated token for `user` (validated: `label` is the checked one) and returns it
/// in clear, the only time it is.
pub(crate) fn create<T: TokenRows>(
    tx: &mut T,
    token: &GeneratedToken,
    user: &str,
    label: &str,
) -> Result<IssuedToken> {
    if !tx.account_exists(Account::User, user, true)? {
        return Err(unknown_user(user));
    }
    let created = now_ms();
    tx.insert_token(token, user, label, created)?;
    changed(tx);
    Ok(IssuedToken {
        token: token.clear.clone(),
        info: TokenInfo {
            prefix: token.prefix.clone(),
            user: user.to_owned(),
            label: label.to_owned(),
            created: from_ms(created),
            last_used: None,
        },
    })
}

/// Revokes the token `prefix`, refused when there is none.
pub(crate) fn revoke<T: TokenRows>(tx: &mut T, prefix: &str) -> Result<()> {
    if !tx.delete_token(prefix)? {
        return Err(unknown_token(prefix));
    }
    changed(tx);
    Ok(())
}
