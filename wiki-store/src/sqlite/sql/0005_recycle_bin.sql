-- 0005: the recycle bin. Deleting a document moves every row of it (all translations, with
-- their revisions and links), its attachments (all versions), its class fields and its objects
-- into these tables, in one transaction; restoring moves them back under new ids. Deleting an
-- attachment moves that attachment alone. Rows keep their old ids (old_*) only to re-link
-- children on restore. Never edit a released migration: append a new one.

CREATE TABLE trash_entries (
    id            INTEGER PRIMARY KEY,
    wiki          TEXT NOT NULL REFERENCES wikis (id) ON DELETE CASCADE,
    space         TEXT NOT NULL,
    name          TEXT NOT NULL,
    attachment    TEXT,              -- NULL: the whole document; else this attachment
    version_major INTEGER NOT NULL,  -- the document's version when deleted
    version_minor INTEGER NOT NULL,
    deleted_by    TEXT NOT NULL,
    comment       TEXT NOT NULL,
    deleted_ms    INTEGER NOT NULL
) STRICT;

CREATE INDEX trash_entries_wiki ON trash_entries (wiki, deleted_ms);

CREATE TABLE trash_documents (
    entry_id      INTEGER NOT NULL REFERENCES trash_entries (id) ON DELETE CASCADE,
    old_id        INTEGER NOT NULL,
    locale        TEXT NOT NULL,
    language      TEXT NOT NULL,
    title         TEXT NOT NULL,
    content       TEXT NOT NULL,
    syntax        TEXT NOT NULL,
    hidden        INTEGER NOT NULL,
    creator       TEXT NOT NULL,
    author        TEXT NOT NULL,
    created_ms    INTEGER NOT NULL,
    updated_ms    INTEGER NOT NULL,
    version_major INTEGER NOT NULL,
    version_minor INTEGER NOT NULL,
    PRIMARY KEY (entry_id, old_id)
) STRICT;

CREATE TABLE trash_revisions (
    entry_id        INTEGER NOT NULL REFERENCES trash_entries (id) ON DELETE CASCADE,
    old_document_id INTEGER NOT NULL,
    major           INTEGER NOT NULL,
    minor           INTEGER NOT NULL,
    title           TEXT NOT NULL,
    content         TEXT NOT NULL,
    syntax          TEXT NOT NULL,
    hidden          INTEGER NOT NULL,
    author          TEXT NOT NULL,
    comment         TEXT NOT NULL,
    saved_ms        INTEGER NOT NULL
) STRICT;

CREATE INDEX trash_revisions_entry ON trash_revisions (entry_id);

CREATE TABLE trash_links (
    entry_id        INTEGER NOT NULL REFERENCES trash_entries (id) ON DELETE CASCADE,
    old_document_id INTEGER NOT NULL,
    position        INTEGER NOT NULL,
    target_wiki     TEXT NOT NULL,
    target_space    TEXT NOT NULL,
    target_name     TEXT NOT NULL,
    attachment      TEXT
) STRICT;

CREATE INDEX trash_links_entry ON trash_links (entry_id);

CREATE TABLE trash_attachments (
    entry_id INTEGER NOT NULL REFERENCES trash_entries (id) ON DELETE CASCADE,
    old_id   INTEGER NOT NULL,
    name     TEXT NOT NULL,
    PRIMARY KEY (entry_id, old_id)
) STRICT;

CREATE TABLE trash_attachment_versions (
    entry_id          INTEGER NOT NULL REFERENCES trash_entries (id) ON DELETE CASCADE,
    old_attachment_id INTEGER NOT NULL,
    version_major     INTEGER NOT NULL,
    version_minor     INTEGER NOT NULL,
    size              INTEGER NOT NULL,
    declared_mime     TEXT NOT NULL,
    sniffed_mime      TEXT,
    author            TEXT NOT NULL,
    comment           TEXT NOT NULL,
    created_ms        INTEGER NOT NULL,
    content           BLOB NOT NULL
) STRICT;

CREATE INDEX trash_attachment_versions_entry ON trash_attachment_versions (entry_id);

CREATE TABLE trash_class_fields (
    entry_id    INTEGER NOT NULL REFERENCES trash_entries (id) ON DELETE CASCADE,
    name        TEXT NOT NULL,
    position    INTEGER NOT NULL,
    field_type  TEXT NOT NULL,
    pretty_name TEXT,
    attributes  TEXT NOT NULL,
    disabled    INTEGER NOT NULL,
    PRIMARY KEY (entry_id, name)
) STRICT;

CREATE TABLE trash_objects (
    entry_id INTEGER NOT NULL REFERENCES trash_entries (id) ON DELETE CASCADE,
    old_id   INTEGER NOT NULL,
    class    TEXT NOT NULL,
    number   INTEGER NOT NULL,
    PRIMARY KEY (entry_id, old_id)
) STRICT;

CREATE TABLE trash_object_values (
    entry_id      INTEGER NOT NULL REFERENCES trash_entries (id) ON DELETE CASCADE,
    old_object_id INTEGER NOT NULL,
    field         TEXT NOT NULL,
    value         ANY NOT NULL
) STRICT;

CREATE INDEX trash_object_values_entry ON trash_object_values (entry_id);
