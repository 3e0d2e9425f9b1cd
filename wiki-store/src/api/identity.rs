//! Identities at an identity provider linked to wiki users (see [`crate::model::identity`]).

use std::time::Duration;

use crate::Result;
use crate::model::identity::Identities;
use crate::model::user::User;

/// Which wiki user an `(issuer, subject)` identity signs in.
///
/// Issuers are 1 to [`MAX_ISSUER`](crate::model::identity::MAX_ISSUER) bytes, subjects 1 to
/// [`MAX_SUBJECT`](crate::model::identity::MAX_SUBJECT), neither with control characters
/// ([`crate::InvalidInput::Identity`] otherwise). Every write that changes a link advances the
/// change sequence (servers drop what they cached of identities); a user's links go with the
/// user.
pub trait IdentityStore {
    /// The user `(issuer, subject)` is linked to, if any. A read: it never takes a writer.
    fn linked_user(&self, issuer: &str, subject: &str) -> Result<Option<String>>;

    /// Links `(issuer, subject)` to the registered user `user` (the guest refused); a pending
    /// adoption of `user` by `issuer` is settled by it. Linking it to the user it already
    /// signs in changes nothing (`false`); linked to another user, it is
    /// [`crate::StoreError::AlreadyExists`] (unlink it first).
    fn link_identity(&self, issuer: &str, subject: &str, user: &str) -> Result<bool>;

    /// Removes the link of `(issuer, subject)`; whether there was one.
    fn unlink_identity(&self, issuer: &str, subject: &str) -> Result<bool>;

    /// Every link and unexpired adoption, and whether the farm still awaits the decision of
    /// how its existing users meet their identities.
    fn identities(&self) -> Result<Identities>;

    /// A new identity's first sign-in: creates the user `name` (no group, no right of its own)
    /// linked to `(issuer, subject)`, in one transaction.
    /// [`crate::StoreError::AlreadyExists`] naming the user when the name is taken, by a local
    /// user or another identity's (the caller refuses: names are never shared by matching),
    /// or naming the link when the identity got linked meanwhile.
    fn create_linked_user(&self, issuer: &str, subject: &str, name: &str) -> Result<User>;

    /// Puts `users` up for adoption by `issuer` for `lasting` (at most a year): until then,
    /// the first identity of `issuer` whose token names one of them claims it (see
    /// [`IdentityStore::claim_adopted_identity`]). Users already linked at `issuer` are
    /// skipped; an unknown user is [`crate::StoreError::NotFound`] and nothing is recorded.
    /// Records the administrator's decision: [`Identities::upgrade_pending`] becomes false.
    /// Returns how many users were put up.
    fn adopt_identities(&self, issuer: &str, users: &[String], lasting: Duration) -> Result<u64>;

    /// Links `(issuer, subject)` to `user` if an unexpired adoption of `user` by `issuer` is
    /// pending, and settles it, in one transaction (of identities claiming one user at once,
    /// exactly one gets it); whether it did.
    fn claim_adopted_identity(&self, issuer: &str, subject: &str, user: &str) -> Result<bool>;
}
