-- 0003: structured data. A class is defined by a document (its fields hang on the document's
-- default row); objects hang on the default row of the document that holds them and name their
-- class by its wiki-local reference, so objects survive their class document (as in XWiki).
-- Never edit a released migration: append a new one.

CREATE TABLE class_fields (
    document_id INTEGER NOT NULL REFERENCES documents (id) ON DELETE CASCADE,
    name        TEXT NOT NULL,
    position    INTEGER NOT NULL,
    field_type  TEXT NOT NULL,
    pretty_name TEXT,
    attributes  TEXT NOT NULL,   -- JSON object of the type's attributes (FieldType::attributes)
    disabled    INTEGER NOT NULL DEFAULT 0 CHECK (disabled IN (0, 1)),
    PRIMARY KEY (document_id, name)
) STRICT, WITHOUT ROWID;

CREATE TABLE objects (
    id          INTEGER PRIMARY KEY,
    document_id INTEGER NOT NULL REFERENCES documents (id) ON DELETE CASCADE,
    class       TEXT NOT NULL,   -- the class document's local reference, 'Blog.PostClass'
    number      INTEGER NOT NULL CHECK (number >= 0),
    UNIQUE (document_id, class, number)
) STRICT;

CREATE INDEX objects_class ON objects (class, document_id);

-- One typed value per field: TEXT, INTEGER or REAL as the field type stores it (see
-- objects::coerce). Values of removed fields stay, so re-adding the field shows them again.
CREATE TABLE object_values (
    object_id INTEGER NOT NULL REFERENCES objects (id) ON DELETE CASCADE,
    field     TEXT NOT NULL,
    value     ANY NOT NULL,
    PRIMARY KEY (object_id, field)
) STRICT, WITHOUT ROWID;
