//! The MCP configuration of a wiki, an ordinary object of the reserved configuration class on a
//! hidden document, written and read through the objects flow ([`crate::flow::objects`]).
//!
//! A write first defines (or completes) the class, then takes the document before it looks up
//! the object, so two first configurations of a wiki cannot each add one. A read answers the
//! defaults while nothing is stored; the caller fails closed on an error.

use crate::Result;
use crate::api::ConfigStore;
use crate::backend::Backend;
use crate::flow::Transaction;
use crate::flow::documents::DocumentReads;
use crate::flow::objects::{ObjectReads, ObjectRows, write_object};
use crate::flow::owner::{self, OwnerRows};
use crate::model::document::SaveOutcome;
use crate::model::locale::Locale;
use crate::model::mcp_config::{MCP_CONFIG_CLASS, MCP_CONFIG_DOCUMENT, McpConfig};
use crate::model::rules::FieldRules;
use crate::model::wiki::WikiId;
use crate::plan::class::PlannedChange;
use crate::plan::config::{
    class_touch, config_read, config_touch, config_values, missing_fields, or_fail_closed,
    reference_in,
};
use crate::plan::object::visible_values;
use crate::plan::wiki::unknown_wiki;
use crate::reference::DocumentReference;
use crate::stored::{attributes_json, corrupt};

/// What a configuration write needs beyond an object write.
pub(crate) trait ConfigRows: ObjectRows {
    /// The lowest number of an object of `class` on the default row `document_id`.
    fn first_object_number(&mut self, document_id: i64, class: &str) -> Result<Option<u32>>;
}

/// What a configuration read fetches inside one read (one snapshot).
pub(crate) trait ConfigReads: ObjectReads {
    /// The id of the lowest-numbered object of `class` on the default row `document_id`.
    fn first_object_id(&mut self, document_id: i64, class: &str) -> Result<Option<i64>>;
}

impl<B: Backend> ConfigStore for B {
    fn mcp_config(&self, wiki: &WikiId) -> McpConfig {
        // An `Err` means "unreadable", and the caller fails closed.
        let read = self.snapshot(|rows| {
            if !rows.wiki_exists(wiki)? {
                return Err(unknown_wiki(wiki));
            }
            let document = reference_in(wiki, MCP_CONFIG_DOCUMENT)?;
            let Some(document_id) = rows.default_row_id(&document)? else {
                return config_read(None);
            };
            let Some(object_id) = rows.first_object_id(document_id, MCP_CONFIG_CLASS)? else {
                return config_read(None);
            };
            let class = rows
                .load_class(&reference_in(wiki, MCP_CONFIG_CLASS)?)?
                .ok_or_else(|| corrupt("configuration object without its class"))?;
            let values = visible_values(Some(&class), rows.object_values(object_id)?);
            config_read(Some(&values))
        });
        or_fail_closed(wiki, read)
    }

    /// Defines the class first if needed; a no-op when neither the class nor the values change.
    fn set_mcp_config(
        &self,
        wiki: &WikiId,
        config: &McpConfig,
        author: &str,
    ) -> Result<SaveOutcome> {
        let values = config_values(config)?;
        let class_document = reference_in(wiki, MCP_CONFIG_CLASS)?;
        let document = reference_in(wiki, MCP_CONFIG_DOCUMENT)?;
        let touch = config_touch(&document, author);
        touch.validate(&self.config().limits)?;
        let locale = &self.config().default_locale;
        self.write(|tx| {
            let defined = ensure_class(tx, &class_document, author, locale)?;
            let number = match tx.lock_owner(&document)? {
                Some(document_id) => tx.first_object_number(document_id, MCP_CONFIG_CLASS)?,
                None => None,
            };
            let outcome = write_object(tx, &touch, &class_document, number, &values, locale)?;
            if !defined && matches!(outcome.document, SaveOutcome::Unchanged { .. }) {
                tx.nothing_changed();
            }
            Ok(outcome.document)
        })
    }
}

/// Defines (or completes) the configuration class in this wiki, as one save of its hidden
/// class document, when a field is missing. Whether it saved anything.
fn ensure_class<T: ConfigRows>(
    tx: &mut T,
    class_document: &DocumentReference,
    author: &str,
    locale: &Locale,
) -> Result<bool> {
    tx.lock_owner(class_document)?;
    let missing = missing_fields(tx.reads().load_class(class_document)?.as_ref());
    if missing.is_empty() {
        return Ok(false);
    }
    let (document_id, _) = owner::touch(tx, &class_touch(class_document, author), locale)?;
    for (name, field_type) in missing {
        tx.change_field(
            document_id,
            PlannedChange::Upsert {
                name,
                field_type: field_type.name(),
                pretty_name: None,
                attributes: attributes_json(&field_type, &FieldRules::default())?,
            },
        )?;
    }
    Ok(true)
}
