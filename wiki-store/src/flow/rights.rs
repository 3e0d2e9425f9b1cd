//! Rights rules, over [`RightsRows`] (writes) and [`RightsReads`]: a rule names a wiki and a subject
//! that must exist (held until the write ends on PostgreSQL, so neither can be deleted under the
//! rule), a rule set to the effect it already has writes nothing, and every change queues the
//! wiki's rights event.

use crate::Result;
use crate::api::RightsStore;
use crate::backend::Backend;
use crate::flow::Transaction;
use crate::flow::documents::DocumentReads;
use crate::flow::users::{AccountReads, AccountRows};
use crate::model::rights::{Right, RightRule, RightScope, Subject};
use crate::model::wiki::WikiId;
use crate::plan::account::{rights_changed, unknown_rule};
use crate::plan::wiki::unknown_wiki;
use crate::rights::{GroupMembership, RightsSnapshot};

/// What rights writes read and write beyond the accounts.
pub(crate) trait RightsRows: AccountRows {
    /// Whether the wiki exists, holding it against deletion for the rest of the transaction
    /// where the backend locks rows (a plain read where the write transaction already excludes
    /// every other writer).
    fn hold_wiki(&mut self, wiki: &WikiId) -> Result<bool> {
        self.reads().wiki_exists(wiki)
    }

    /// Stores `rule`, or sets its effect on the stored rule of the same scope, subject and
    /// right; whether anything changed.
    fn upsert_rule(&mut self, rule: &RightRule) -> Result<bool>;

    /// Deletes the rule of `scope`, `subject` and `right`; whether there was one.
    fn delete_rule(&mut self, scope: &RightScope, subject: &Subject, right: Right) -> Result<bool>;
}

/// What rights reads fetch.
pub(crate) trait RightsReads: AccountReads {
    /// The rules of `wiki`, in any order.
    fn wiki_rules(&mut self, wiki: &WikiId) -> Result<Vec<RightRule>>;

    /// Every rule of the farm, in any order.
    fn all_rules(&mut self) -> Result<Vec<RightRule>>;

    /// Every stored group membership.
    fn memberships(&mut self) -> Result<Vec<GroupMembership>>;
}

impl<B: Backend> RightsStore for B {
    /// A no-op when the rule is already stored with this effect.
    fn set_right(&self, rule: &RightRule) -> Result<()> {
        self.write(|tx| {
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
        })
    }

    fn remove_right(&self, scope: &RightScope, subject: &Subject, right: Right) -> Result<()> {
        self.write(|tx| {
            if !tx.delete_rule(scope, subject, right)? {
                return Err(unknown_rule(scope, subject, right));
            }
            let (wiki, event) = rights_changed(scope.wiki());
            tx.emit(wiki, event);
            Ok(())
        })
    }

    fn list_rights(&self, wiki: &WikiId) -> Result<Vec<RightRule>> {
        let mut rules = self.read(|rows| rows.wiki_rules(wiki))?;
        rules.sort();
        Ok(rules)
    }

    fn rights_snapshot(&self) -> Result<RightsSnapshot> {
        self.snapshot(|rows| {
            Ok(RightsSnapshot::new(
                rows.all_rules()?,
                rows.memberships()?,
                rows.user_names()?,
            ))
        })
    }
}
