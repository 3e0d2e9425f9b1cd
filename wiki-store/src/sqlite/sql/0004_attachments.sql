-- 0004: attachments and their versions. An attachment hangs on its document's default row;
-- every upload is a new version (1.1, 1.2, ...) with its bytes, both media types, author and
-- comment. Never edit a released migration: append a new one.

CREATE TABLE attachments (
    id          INTEGER PRIMARY KEY,
    document_id INTEGER NOT NULL REFERENCES documents (id) ON DELETE CASCADE,
    name        TEXT NOT NULL,
    UNIQUE (document_id, name)
) STRICT;

-- A rowid table (not WITHOUT ROWID): rows carry whole files.
CREATE TABLE attachment_versions (
    attachment_id INTEGER NOT NULL REFERENCES attachments (id) ON DELETE CASCADE,
    version_major INTEGER NOT NULL CHECK (version_major >= 1),
    version_minor INTEGER NOT NULL CHECK (version_minor >= 1),
    size          INTEGER NOT NULL CHECK (size >= 0),
    declared_mime TEXT NOT NULL,
    sniffed_mime  TEXT,
    author        TEXT NOT NULL,
    comment       TEXT NOT NULL,
    created_ms    INTEGER NOT NULL,
    content       BLOB NOT NULL,
    PRIMARY KEY (attachment_id, version_major, version_minor)
) STRICT;
