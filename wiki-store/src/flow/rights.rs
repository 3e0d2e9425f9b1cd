//! Setting and removing rights rules, over [`RightsRows`]: a rule names a wiki and a subject
//! that must exist (held until the write ends on PostgreSQL, so neither can be deleted under the
//! rule), a rule set to the effect it already has writes nothing, and every change queues the
//! wiki's rights event.

use crate::Result;
use crate::flow::users::AccountRows;
use crate::model::rights::{Right, RightRule, RightScope, Subject};
use crate::model::wiki::WikiId;
use crate::plan::account::{rights_changed, unknown_rule};
use crate::plan::wiki::unknown_wiki;

/// What rights writes read and write beyond the accounts.
pub(crate) trait RightsRows: AccountRows {
    /// Whether the wiki exists, holding it against deletion for the rest of the transaction
    /// where the backend locks rows.
    fn hold_wiki(&mut self, wiki: &WikiId) -> Result<bool>;

    /// Stores `rule`, or sets its effect on the stored rule of the same scope, subject and
    /// right; whether anything changed.
    fn upsert_rule(&mut self, rule: &RightRule) -> Result<bool>;

    /// Deletes the rule of `scope`, `subject` and `right`; whether there was one.
    fn delete_rule(&mut self, scope: &RightScope, subject: &Subject, right: Right) -> Result<bool>;
}

/// Sets a rule; a no-op when it is already stored with this effect.
pub(crate) fn set<T: RightsRows>(tx: &mut T, rule: &RightRule) -> Result<()> {
    let wiki = rule.scope.wiki();
    if !tx.hold_wiki(wiki)? {
        return Err(unknown_wiki(wiki));
    }
    tx.require_subject(&rule.subject)?;
    if tx.upsert_rule(rule)? {
        let (wiki, event) = rights_changed(wiki);
        tx.emit(wiki, event);
    } else {
        tx.nothing_changed();
    }
    Ok(())
}

/// Removes a rule, refused when there is none.
pub(crate) fn remove<T: RightsRows>(
    tx: &mut T,
    scope: &RightScope,
    subject: &Subject,
    right: Right,
) -> Result<()> {
    if !tx.delete_rule(scope, subject, right)? {
        return Err(unknown_rule(scope, subject, right));
    }
    let (wiki, event) = rights_changed(scope.wiki());
    tx.emit(wiki, event);
    Ok(())
}
