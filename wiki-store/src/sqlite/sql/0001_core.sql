-- 0001: the core tables: wikis, documents (one row per locale), revisions, links, the full-text
-- index and the change sequence. Never edit a released migration: append a new one.

CREATE TABLE wikis (
    id          TEXT PRIMARY KEY NOT NULL,   -- WikiId: [a-z0-9][a-z0-9_-]{0,63}
    pretty_name TEXT NOT NULL,
    created_ms  INTEGER NOT NULL
) STRICT;

INSERT INTO wikis (id, pretty_name, created_ms)
VALUES ('main', 'Main Wiki', CAST(unixepoch('subsec') * 1000 AS INTEGER));

-- One row per (document, locale). The default row has locale '' and language = the document's
-- default locale; a translation row has locale = language = its locale. Other aggregates (objects,
-- attachments, rights on a page) belong to the document and reference the DEFAULT row's id.
CREATE TABLE documents (
    id            INTEGER PRIMARY KEY,
    wiki          TEXT NOT NULL REFERENCES wikis (id) ON DELETE CASCADE,
    space         TEXT NOT NULL,             -- serialized, escaped SpacePath: 'Sales.Europe'
    name          TEXT NOT NULL,             -- unescaped page name
    locale        TEXT NOT NULL DEFAULT '',  -- '' = default row
    language      TEXT NOT NULL,
    title         TEXT NOT NULL,
    content       TEXT NOT NULL,
    syntax        TEXT NOT NULL,
    hidden        INTEGER NOT NULL CHECK (hidden IN (0, 1)),
    creator       TEXT NOT NULL,
    author        TEXT NOT NULL,
    created_ms    INTEGER NOT NULL,
    updated_ms    INTEGER NOT NULL,
    version_major INTEGER NOT NULL CHECK (version_major >= 1),
    version_minor INTEGER NOT NULL CHECK (version_minor >= 1),
    UNIQUE (wiki, space, name, locale)
) STRICT;

-- Tree views and space-prefix filters: range scans on (wiki, space) with the counted columns.
CREATE INDEX documents_tree ON documents (wiki, space, locale, hidden, updated_ms);
-- Browsing newest/oldest.
CREATE INDEX documents_updated ON documents (updated_ms);

-- Every revision of every row, with its full content.
CREATE TABLE revisions (
    document_id INTEGER NOT NULL REFERENCES documents (id) ON DELETE CASCADE,
    major       INTEGER NOT NULL,
    minor       INTEGER NOT NULL,
    title       TEXT NOT NULL,
    content     TEXT NOT NULL,
    syntax      TEXT NOT NULL,
    hidden      INTEGER NOT NULL CHECK (hidden IN (0, 1)),
    author      TEXT NOT NULL,
    comment     TEXT NOT NULL,
    saved_ms    INTEGER NOT NULL,
    PRIMARY KEY (document_id, major, minor)
) STRICT, WITHOUT ROWID;

-- Wiki links extracted from a row's content on save, in authored order. Targets may not exist.
CREATE TABLE links (
    source_id    INTEGER NOT NULL REFERENCES documents (id) ON DELETE CASCADE,
    position     INTEGER NOT NULL,
    target_wiki  TEXT NOT NULL,
    target_space TEXT NOT NULL,
    target_name  TEXT NOT NULL,
    attachment   TEXT,                       -- NULL: a link to the document itself
    PRIMARY KEY (source_id, position)
) STRICT, WITHOUT ROWID;

CREATE INDEX links_target ON links (target_wiki, target_space, target_name);

-- Full-text index over title and content, kept in step with `documents` by triggers, so it is
-- updated in the same transaction as the content whoever writes the row.
CREATE VIRTUAL TABLE documents_fts USING fts5 (
    title,
    content,
    content = 'documents',
    content_rowid = 'id',
    tokenize = 'porter unicode61 remove_diacritics 2'
);

-- Title weighs five times content in the default ranking.
INSERT INTO documents_fts (documents_fts, rank) VALUES ('rank', 'bm25(10.0, 2.0)');

CREATE TRIGGER documents_fts_insert AFTER INSERT ON documents BEGIN
    INSERT INTO documents_fts (rowid, title, content) VALUES (new.id, new.title, new.content);
END;

CREATE TRIGGER documents_fts_delete AFTER DELETE ON documents BEGIN
    INSERT INTO documents_fts (documents_fts, rowid, title, content)
    VALUES ('delete', old.id, old.title, old.content);
END;

CREATE TRIGGER documents_fts_update AFTER UPDATE OF title, content ON documents BEGIN
    INSERT INTO documents_fts (documents_fts, rowid, title, content)
    VALUES ('delete', old.id, old.title, old.content);
    INSERT INTO documents_fts (rowid, title, content) VALUES (new.id, new.title, new.content);
END;

-- The change sequence: one row, advanced by every writing transaction that changes anything a
-- server caches (documents, configuration, rights, users, tokens). Another process polls it.
CREATE TABLE change_seq (
    id    INTEGER PRIMARY KEY CHECK (id = 1),
    value INTEGER NOT NULL
) STRICT;

INSERT INTO change_seq (id, value) VALUES (1, 0);
