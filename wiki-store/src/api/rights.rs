//! Rights: who may view, edit, delete or administer a wiki, space or page.

use crate::Result;
use crate::model::rights::{Right, RightRule, RightScope, Subject};
use crate::model::wiki::WikiId;
use crate::rights::{RightsSnapshot, Verdict};

/// Rights: who may view, edit, delete or administer a wiki, space or page.
///
/// Storage only; every decision is made by [`crate::rights`] over a [`RightsSnapshot`], so all
/// backends answer alike. Every write advances the change sequence, which is how a server in
/// another process knows to reload its snapshot.
pub trait RightsStore {
    /// Sets a rule, replacing the effect of an existing rule for the same scope, subject and right.
    /// The wiki and the subject must exist (the guest always does).
    fn set_right(&self, rule: &RightRule) -> Result<()>;

    /// Removes the rule for this scope, subject and right; [`crate::StoreError::NotFound`] if none.
    fn remove_right(&self, scope: &RightScope, subject: &Subject, right: Right) -> Result<()>;

    /// The rules stored in `wiki`, sorted by scope, subject and right.
    fn list_rights(&self, wiki: &WikiId) -> Result<Vec<RightRule>>;

    /// Every rule and group membership of the farm, ready to answer many questions.
    fn rights_snapshot(&self) -> Result<RightsSnapshot>;

    /// Whether `user` may exercise `right` on `target`, with the reason. Loads a snapshot: callers
    /// asking many questions should take one [`RightsStore::rights_snapshot`] instead.
    fn check_right(&self, user: &str, right: Right, target: &RightScope) -> Result<Verdict> {
        let snapshot = self.rights_snapshot()?;
        Ok(snapshot.decide(&snapshot.principal(user), right, target))
    }
}
