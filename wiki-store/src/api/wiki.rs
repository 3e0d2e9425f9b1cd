//! The farm of wikis.

use crate::Result;
use crate::model::wiki::{Wiki, WikiId};

/// Creating, listing and deleting the wikis of the farm. The main wiki always exists.
pub trait WikiStore {
    /// Creates a wiki; refuses an existing id with [`crate::StoreError::AlreadyExists`].
    fn create_wiki(&self, id: &WikiId, pretty_name: &str) -> Result<Wiki>;

    /// All wikis, sorted by id.
    fn list_wikis(&self) -> Result<Vec<Wiki>>;

    /// One wiki, or `None`.
    fn wiki(&self, id: &WikiId) -> Result<Option<Wiki>>;

    /// Deletes a wiki and everything in it; the main wiki cannot be deleted.
    fn delete_wiki(&self, id: &WikiId) -> Result<()>;
}
