//! The farm's wikis over any backend: a creation or deletion queues its wiki's event.

use crate::Result;
use crate::api::WikiStore;
use crate::backend::Backend;
use crate::flow::Transaction;
use crate::model::wiki::{Wiki, WikiId};
use crate::plan::wiki::{
    created_event, deleted_event, unknown_wiki, validate_delete, validate_new_wiki, wiki_exists,
};
use crate::stored::from_ms;

/// What wiki writes change.
pub(crate) trait WikiRows: Transaction {
    /// Stores a new wiki; `false` when the id is taken (and nothing was written).
    fn insert_wiki(&mut self, id: &WikiId, pretty_name: &str, created_ms: i64) -> Result<bool>;

    /// Deletes a wiki with everything in it; whether it existed.
    fn delete_wiki(&mut self, id: &WikiId) -> Result<bool>;
}

/// What wiki reads fetch.
pub(crate) trait WikiReads {
    /// Every wiki, ordered by id.
    fn wikis(&mut self) -> Result<Vec<Wiki>>;

    /// The wiki `id`, if it exists.
    fn wiki(&mut self, id: &WikiId) -> Result<Option<Wiki>>;
}

impl<B: Backend> WikiStore for B {
    fn create_wiki(&self, id: &WikiId, pretty_name: &str) -> Result<Wiki> {
        validate_new_wiki(pretty_name)?;
        self.write(|tx| {
            let created_ms = tx.now_ms();
            if !tx.insert_wiki(id, pretty_name, created_ms)? {
                return Err(wiki_exists(id));
            }
            let (wiki, event) = created_event(id);
            tx.emit(wiki, event);
            Ok(Wiki {
                id: id.clone(),
                pretty_name: pretty_name.to_owned(),
                created: from_ms(created_ms),
            })
        })
    }

    fn list_wikis(&self) -> Result<Vec<Wiki>> {
        self.read(|rows| rows.wikis())
    }

    fn wiki(&self, id: &WikiId) -> Result<Option<Wiki>> {
        self.read(|rows| rows.wiki(id))
    }

    fn delete_wiki(&self, id: &WikiId) -> Result<()> {
        validate_delete(id)?;
        self.write(|tx| {
            if !tx.delete_wiki(id)? {
                return Err(unknown_wiki(id));
            }
            let (wiki, event) = deleted_event(id);
            tx.emit(wiki, event);
            Ok(())
        })
    }
}
