//! Identity links and adoptions over any backend, over [`IdentityRows`] (writes) and
//! [`IdentityReads`] (reads), checked by [`crate::plan::identity`] first.
//!
//! A write that changes which user an identity signs in queues the accounts event, so servers
//! drop the identities they cached; one that changes nothing leaves the change sequence alone.
//! A user's links and adoptions go with the user (the schema cascades the delete).

use std::time::Duration;

use crate::Result;
use crate::api::IdentityStore;
use crate::backend::Backend;
use crate::flow::Transaction;
use crate::flow::users::{self, Account, AccountRows};
use crate::model::identity::{Identities, IdentityAdoption, IdentityLink};
use crate::model::user::User;
use crate::plan::account::{refuse_guest, unknown_user, user_exists, validate_new_user};
use crate::plan::identity::{
    linked_elsewhere, validate_identity, validate_issuer, validate_lasting,
};
use crate::stored::from_ms;

/// What identity writes read and write inside a backend's write transaction.
pub(crate) trait IdentityRows: AccountRows {
    /// The user `(issuer, subject)` is linked to.
    fn link_of(&mut self, issuer: &str, subject: &str) -> Result<Option<String>>;

    /// Whether `user` has a link at `issuer`.
    fn linked_at(&mut self, issuer: &str, user: &str) -> Result<bool>;

    /// Stores a link (the identity is not linked yet).
    fn insert_link(
        &mut self,
        issuer: &str,
        subject: &str,
        user: &str,
        created_ms: i64,
    ) -> Result<()>;

    /// Deletes the link of `(issuer, subject)`; whether there was one.
    fn delete_link(&mut self, issuer: &str, subject: &str) -> Result<bool>;

    /// Stores (or renews) the adoption of `user` by `issuer` until `expires_ms`.
    fn upsert_adoption(&mut self, issuer: &str, user: &str, expires_ms: i64) -> Result<()>;

    /// Deletes the adoption of `user` by `issuer` and returns when it lapses, in one statement
    /// (of several takers, exactly one gets it).
    fn take_adoption(&mut self, issuer: &str, user: &str) -> Result<Option<i64>>;

    /// Records that an administrator decided how the farm's users meet their identities.
    fn settle_upgrade(&mut self) -> Result<()>;
}

/// What identity reads fetch.
pub(crate) trait IdentityReads {
    /// The user `(issuer, subject)` is linked to.
    fn linked_user(&mut self, issuer: &str, subject: &str) -> Result<Option<String>>;

    /// Every link, by user, issuer and subject.
    fn links(&mut self) -> Result<Vec<IdentityLink>>;

    /// The adoptions that lapse after `now_ms`, by issuer and user.
    fn adoptions(&mut self, now_ms: i64) -> Result<Vec<IdentityAdoption>>;

    /// Whether the farm still awaits the administrator's decision.
    fn upgrade_pending(&mut self) -> Result<bool>;
}

impl<B: Backend> IdentityStore for B {
    fn linked_user(&self, issuer: &str, subject: &str) -> Result<Option<String>> {
        validate_identity(issuer, subject)?;
        self.read(|rows| rows.linked_user(issuer, subject))
    }

    fn link_identity(&self, issuer: &str, subject: &str, user: &str) -> Result<bool> {
        validate_identity(issuer, subject)?;
        refuse_guest(user)?;
        self.write(|tx| {
            if !tx.account_exists(Account::User, user, true)? {
                return Err(unknown_user(user));
            }
            match tx.link_of(issuer, subject)? {
                Some(current) if current == user => {
                    tx.nothing_changed();
                    return Ok(false);
                }
                Some(_) => return Err(linked_elsewhere(issuer, subject)),
                None => {}
            }
            let linked = tx.now_ms();
            tx.insert_link(issuer, subject, user, linked)?;
            tx.take_adoption(issuer, user)?;
            users::changed(tx);
            Ok(true)
        })
    }

    fn unlink_identity(&self, issuer: &str, subject: &str) -> Result<bool> {
        validate_identity(issuer, subject)?;
        self.write(|tx| {
            let removed = tx.delete_link(issuer, subject)?;
            if removed {
                users::changed(tx);
            } else {
                tx.nothing_changed();
            }
            Ok(removed)
        })
    }

    fn identities(&self) -> Result<Identities> {
        self.snapshot(|rows| {
            Ok(Identities {
                links: rows.links()?,
                adoptions: rows.adoptions(self.now_ms())?,
                upgrade_pending: rows.upgrade_pending()?,
            })
        })
    }

    fn create_linked_user(&self, issuer: &str, subject: &str, name: &str) -> Result<User> {
        validate_identity(issuer, subject)?;
        validate_new_user(name, None)?;
        self.write(|tx| {
            if tx.link_of(issuer, subject)?.is_some() {
                return Err(linked_elsewhere(issuer, subject));
            }
            if tx.account_exists(Account::User, name, false)? {
                return Err(user_exists(name));
            }
            let created = tx.now_ms();
            tx.insert_user(name, None, created)?;
            tx.insert_link(issuer, subject, name, created)?;
            users::changed(tx);
            Ok(User {
                name: name.to_owned(),
                display_name: None,
                created: from_ms(created),
            })
        })
    }

    fn adopt_identities(&self, issuer: &str, users: &[String], lasting: Duration) -> Result<u64> {
        validate_issuer(issuer)?;
        let expires_ms = self.now_ms().saturating_add(validate_lasting(lasting)?);
        self.write(|tx| {
            let mut adopted = 0;
            for user in users {
                if !tx.account_exists(Account::User, user, true)? {
                    return Err(unknown_user(user));
                }
                if !tx.linked_at(issuer, user)? {
                    tx.upsert_adoption(issuer, user, expires_ms)?;
                    adopted += 1;
                }
            }
            tx.settle_upgrade()?;
            users::changed(tx);
            Ok(adopted)
        })
    }

    fn claim_adopted_identity(&self, issuer: &str, subject: &str, user: &str) -> Result<bool> {
        validate_identity(issuer, subject)?;
        refuse_guest(user)?;
        self.write(|tx| {
            let now = tx.now_ms();
            let claimable = tx.link_of(issuer, subject)?.is_none()
                && tx
                    .take_adoption(issuer, user)?
                    .is_some_and(|expires| now < expires);
            if !claimable {
                // At most a lapsed adoption went, which no listing shows.
                tx.nothing_changed();
                return Ok(false);
            }
            tx.insert_link(issuer, subject, user, now)?;
            users::changed(tx);
            Ok(true)
        })
    }
}
