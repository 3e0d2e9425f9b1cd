//! Class fields and objects, over [`ObjectRows`] (writes) and [`ObjectReads`] (reads).
//!
//! An object write takes the owning document first ([`crate::flow::owner`]), then reads the
//! class (held `FOR SHARE` on PostgreSQL, so it cannot change under values coerced by it),
//! coerces every value before anything is written, and writes nothing when the object already
//! holds them and the document would not change either.

use std::collections::{BTreeMap, HashMap};

use crate::Result;
use crate::api::ObjectStore;
use crate::backend::Backend;
use crate::flow::Transaction;
use crate::flow::documents::DocumentReads;
use crate::flow::owner::{self, OwnerRows, require_locked};
use crate::model::class::ClassDefinition;
use crate::model::document::SaveOutcome;
use crate::model::locale::Locale;
use crate::model::object::{
    ClassChange, ClassUsage, ObjectDelete, ObjectHit, ObjectPage, ObjectRecord, ObjectWrite,
    ObjectWriteOutcome,
};
use crate::model::version::Version;
use crate::model::wiki::WikiId;
use crate::objects::coerce::StoredValue;
use crate::objects::query::{CheckedQuery, ObjectQuery, SCAN_CEILING, check_query};
use crate::plan::class::{
    PlannedChange, class_reference, plan_field_change, validate_class_change,
};
use crate::plan::document::all_unchanged;
use crate::plan::object::{
    NewValue, coerce_values, holds_values, object_touch, unknown_class, unknown_object,
    validate_object_delete, validate_object_writes, visible_values,
};
use crate::plan::owner::Touch;
use crate::reference::DocumentReference;
use crate::scan::AuthorizedScan;
use crate::stored::corrupt;
pub(crate) use crate::structure::StoredObject;

/// What class and object writes read and write inside a backend's write transaction.
pub(crate) trait ObjectRows: OwnerRows {
    /// The class `class_document` defines, disabled fields included (`None` if it defines no
    /// field), its document held against changes for the rest of the transaction where the
    /// backend locks rows (a plain read where the write transaction already excludes every
    /// other writer).
    fn hold_class(
        &mut self,
        class_document: &DocumentReference,
    ) -> Result<Option<ClassDefinition>> {
        self.reads().load_class(class_document)
    }

    /// The id of object `class`/`number` of the default row `document_id`, if it exists.
    fn object_id(&mut self, document_id: i64, class: &str, number: u32) -> Result<Option<i64>>;

    /// Adds an object of `class` to the default row `document_id` under the next free number:
    /// its id and number.
    fn insert_object(&mut self, document_id: i64, class: &str) -> Result<(i64, u32)>;

    /// Sets the fields of `values` on object `object_id`, clearing those whose value is `None`.
    fn write_values(&mut self, object_id: i64, values: &[NewValue<'_>]) -> Result<()>;

    /// Deletes object `object_id` and its values.
    fn delete_object(&mut self, object_id: i64) -> Result<()>;

    /// Writes a planned field change on the class document's default row `document_id`.
    fn change_field(&mut self, document_id: i64, change: PlannedChange<'_>) -> Result<()>;
}

/// Creates or updates one object: the owning document is taken, the class and every value are
/// checked before anything is written, then the document is saved, then the object and its
/// values. An update whose values (and title) are already stored writes nothing: the
/// outcome's document is then [`SaveOutcome::Unchanged`], and the caller decides whether the
/// whole transaction was a no-op.
pub(crate) fn write_object<T: ObjectRows>(
    tx: &mut T,
    touch: &Touch<'_>,
    class_document: &DocumentReference,
    number: Option<u32>,
    values: &BTreeMap<String, String>,
    locale: &Locale,
) -> Result<ObjectWriteOutcome> {
    let document_id = tx.lock_owner(touch.reference)?;
    let class = tx
        .hold_class(class_document)?
        .ok_or_else(|| unknown_class(class_document))?;
    let coerced = coerce_values(&class, values, number.is_none())?;
    let existing = match number {
        Some(number) => {
            let unknown = || unknown_object(&class.name, number, touch.reference);
            let document_id = document_id.ok_or_else(unknown)?;
            let object_id = tx
                .object_id(document_id, &class.name, number)?
                .ok_or_else(unknown)?;
            Some((object_id, number))
        }
        None => None,
    };
    if let Some((object_id, number)) = existing
        && holds_values(&coerced, &tx.reads().object_values(object_id)?)
        && let Some(version) = owner::untouched(tx, touch)?
    {
        return Ok(ObjectWriteOutcome {
            number,
            created_object: false,
            document: SaveOutcome::Unchanged { version },
        });
    }
    let (document_id, touched) = owner::touch(tx, touch, locale)?;
    let (object_id, number) = match existing {
        Some(found) => found,
        None => tx.insert_object(document_id, &class.name)?,
    };
    tx.write_values(object_id, &coerced)?;
    Ok(ObjectWriteOutcome {
        number,
        created_object: existing.is_none(),
        document: touched.outcome(),
    })
}

/// What object reads fetch inside one read.
pub(crate) trait ObjectReads: DocumentReads {
    /// The class `class_document` defines, disabled fields included; `None` if it defines no
    /// field.
    fn load_class(&mut self, class_document: &DocumentReference)
    -> Result<Option<ClassDefinition>>;

    /// The objects of the default row `document_id` with their stored values, ordered by class
    /// and number.
    fn stored_objects(&mut self, document_id: i64) -> Result<Vec<StoredObject>>;

    /// Every stored value of object `object_id`, by field.
    fn object_values(&mut self, object_id: i64) -> Result<Vec<(String, StoredValue)>>;

    /// Classes with objects in `wiki` and how many each has, by name, at most [`SCAN_CEILING`].
    fn class_usage(&mut self, wiki: &WikiId) -> Result<Vec<ClassUsage>>;

    /// The objects in `wiki` that `checked` selects, in its order, each offered to `scan`
    /// (which asks `authorize` and decides what is paged) until it stops; the paged ones with
    /// every stored value.
    fn object_hits(
        &mut self,
        wiki: &WikiId,
        checked: &CheckedQuery,
        scan: &mut AuthorizedScan,
        authorize: &mut dyn FnMut(&DocumentReference) -> bool,
    ) -> Result<Vec<StoredHit>>;
}

/// An object a query pages, as stored: which values readers see is decided above the backend
/// ([`crate::plan::object::visible_values`]).
pub(crate) struct StoredHit {
    pub(crate) reference: DocumentReference,
    pub(crate) version: Version,
    pub(crate) number: u32,
    pub(crate) values: Vec<(String, StoredValue)>,
}

impl<B: Backend> ObjectStore for B {
    fn class(&self, class_document: &DocumentReference) -> Result<Option<ClassDefinition>> {
        self.read(|rows| rows.load_class(class_document))
    }

    /// The class document is taken, the change checked against the class as it is then, the
    /// document saved, then the field row changes. A modification that leaves the field as it
    /// is writes nothing (after the compare-and-set check).
    fn change_class(&self, change: &ClassChange) -> Result<SaveOutcome> {
        let touch = validate_class_change(change, &self.config().limits)?;
        let locale = &self.config().default_locale;
        self.write(|tx| {
            tx.lock_owner(touch.reference)?;
            let class = tx.reads().load_class(touch.reference)?;
            let Some(planned) = plan_field_change(class.as_ref(), touch.reference, &change.change)?
            else {
                let version = owner::untouched(tx, &touch)?
                    .ok_or_else(|| corrupt("class without its document row"))?;
                tx.nothing_changed();
                return Ok(SaveOutcome::Unchanged { version });
            };
            let (document_id, touched) = owner::touch(tx, &touch, locale)?;
            tx.change_field(document_id, planned)?;
            Ok(touched.outcome())
        })
    }

    fn class_usage(&self, wiki: &WikiId) -> Result<Vec<ClassUsage>> {
        self.read(|rows| rows.class_usage(wiki))
    }

    /// Values through each object's class (none when its class no longer exists).
    fn objects(&self, reference: &DocumentReference) -> Result<Vec<ObjectRecord>> {
        self.snapshot(|rows| {
            let document_id = rows.require_document(reference)?;
            let stored = rows.stored_objects(document_id)?;
            let mut classes = ClassCache::default();
            stored
                .into_iter()
                .map(|(class, number, values)| {
                    let definition =
                        classes.get(reference.wiki(), &class, |class| rows.load_class(class))?;
                    Ok(ObjectRecord {
                        number,
                        values: visible_values(definition, values),
                        class,
                    })
                })
                .collect()
        })
    }

    fn write_object(&self, write: &ObjectWrite) -> Result<ObjectWriteOutcome> {
        let mut outcomes = self.write_objects(std::slice::from_ref(write))?;
        outcomes
            .pop()
            .ok_or_else(|| corrupt("object write outcome"))
    }

    /// In order; a no-op only when each write is.
    fn write_objects(&self, writes: &[ObjectWrite]) -> Result<Vec<ObjectWriteOutcome>> {
        let prepared = validate_object_writes(writes, &self.config().limits)?;
        let locale = &self.config().default_locale;
        self.write(|tx| {
            let outcomes = prepared
                .iter()
                .map(|(write, class)| {
                    write_object(
                        tx,
                        &object_touch(write),
                        class,
                        write.number,
                        &write.values,
                        locale,
                    )
                })
                .collect::<Result<Vec<_>>>()?;
            if all_unchanged(outcomes.iter().map(|outcome| &outcome.document)) {
                tx.nothing_changed();
            }
            Ok(outcomes)
        })
    }

    fn delete_object(&self, delete: &ObjectDelete) -> Result<SaveOutcome> {
        let (class, touch) = validate_object_delete(delete, &self.config().limits)?;
        let class = class.local();
        let locale = &self.config().default_locale;
        self.write(|tx| {
            let document_id = require_locked(tx, &delete.reference)?;
            let object_id = tx
                .object_id(document_id, &class, delete.number)?
                .ok_or_else(|| unknown_object(&class, delete.number, &delete.reference))?;
            let (_, touched) = owner::touch(tx, &touch, locale)?;
            tx.delete_object(object_id)?;
            Ok(touched.outcome())
        })
    }

    /// The class is resolved in `wiki` and the query checked against it (the class's own name
    /// in place of the agent's spelling) before any candidate is read; denied candidates do
    /// not count towards the ceiling.
    fn query_objects(
        &self,
        wiki: &WikiId,
        query: &ObjectQuery,
        offset: usize,
        limit: usize,
        authorize: &mut dyn FnMut(&DocumentReference) -> bool,
    ) -> Result<ObjectPage> {
        let class_document = class_reference(&query.class, wiki)?;
        self.snapshot(|rows| {
            let class = rows
                .load_class(&class_document)?
                .ok_or_else(|| unknown_class(&class_document))?;
            let checked = check_query(
                &class,
                &ObjectQuery {
                    class: class.name.clone(),
                    ..query.clone()
                },
            )?;
            let mut scan = AuthorizedScan::new(offset, limit, SCAN_CEILING);
            let hits = rows.object_hits(wiki, &checked, &mut scan, &mut *authorize)?;
            Ok(ObjectPage {
                hits: hits
                    .into_iter()
                    .map(|hit| ObjectHit {
                        reference: hit.reference,
                        version: hit.version,
                        object: ObjectRecord {
                            class: class.name.clone(),
                            number: hit.number,
                            values: visible_values(Some(&class), hit.values),
                        },
                    })
                    .collect(),
                total: scan.total(),
                truncated: scan.cut(),
            })
        })
    }
}

/// Class definitions looked up once per listing.
#[derive(Default)]
pub(crate) struct ClassCache {
    loaded: HashMap<String, Option<ClassDefinition>>,
}

impl ClassCache {
    /// The definition of `class` (a class document's name in `wiki`), loaded with `load` the
    /// first time it is asked for; `None` for a class that no longer exists or a name that is
    /// not a reference.
    pub(crate) fn get(
        &mut self,
        wiki: &WikiId,
        class: &str,
        load: impl FnOnce(&DocumentReference) -> Result<Option<ClassDefinition>>,
    ) -> Result<Option<&ClassDefinition>> {
        if !self.loaded.contains_key(class) {
            let definition = match class_reference(class, wiki) {
                Ok(reference) => load(&reference)?,
                Err(_) => None,
            };
            self.loaded.insert(class.to_owned(), definition);
        }
        Ok(self.loaded.get(class).and_then(Option::as_ref))
    }
}
