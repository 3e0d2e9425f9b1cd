-- 0001: the whole farm: wikis, documents (one row per locale) with revisions, links and their
-- full-text vectors, users, groups, rights, API tokens, structured data, attachments, the recycle
-- bin, farm secrets and the change sequence. The columns are SQLite's (see wiki_store::stored):
-- references as wiki/space/name text, instants as milliseconds, '' for a default row, so a farm
-- copies from one backend to the other value for value. Never edit a released migration: append
-- a new one.
--
-- Every text column that is compared, ranged over or sorted is COLLATE "C": byte order, whatever
-- the database's default collation, as SQLite's BINARY. Space prefix filters rely on it
-- ('Sales.' < nested < 'Sales/'), and so do listings that must sort alike on both backends.

CREATE TABLE wikis (
    id          text COLLATE "C" PRIMARY KEY,   -- WikiId: [a-z0-9][a-z0-9_-]{0,63}
    pretty_name text NOT NULL,
    created_ms  bigint NOT NULL
);

INSERT INTO wikis (id, pretty_name, created_ms)
VALUES ('main', 'Main Wiki', (extract(epoch FROM clock_timestamp()) * 1000)::bigint);

-- One row per (document, locale); the default row has locale '' and language = the document's
-- default locale. Other aggregates hang on the DEFAULT row's id. `search` is the row's full-text
-- vector (title weighted A, content B), kept by the trigger below in the writing transaction.
CREATE TABLE documents (
    id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    wiki          text COLLATE "C" NOT NULL REFERENCES wikis (id) ON DELETE CASCADE,
    space         text COLLATE "C" NOT NULL,
    name          text COLLATE "C" NOT NULL,
    locale        text COLLATE "C" NOT NULL DEFAULT '',
    language      text COLLATE "C" NOT NULL,
    title         text COLLATE "C" NOT NULL,
    content       text NOT NULL,
    syntax        text NOT NULL,
    hidden        boolean NOT NULL,
    creator       text NOT NULL,
    author        text COLLATE "C" NOT NULL,
    created_ms    bigint NOT NULL,
    updated_ms    bigint NOT NULL,
    version_major bigint NOT NULL CHECK (version_major >= 1),
    version_minor bigint NOT NULL CHECK (version_minor >= 1),
    search        tsvector NOT NULL DEFAULT ''::tsvector,
    UNIQUE (wiki, space, name, locale)
);

-- Kept in the row (compressed) rather than out of line: ranking reads the vector of every
-- matching row, and fetching each from the TOAST table made a search over half of a 100,000-page
-- wiki five times slower. A vector too large for its row still moves out of line.
ALTER TABLE documents ALTER COLUMN search SET STORAGE MAIN;

CREATE INDEX documents_tree ON documents (wiki, space, locale, hidden, updated_ms);
CREATE INDEX documents_updated ON documents (updated_ms);
CREATE INDEX documents_search ON documents USING gin (search);

-- The 'simple' configuration: words lowercased, never stemmed, no stop words. A farm holds
-- wikis in many languages, and an English stemmer or stop list would mangle the others (and
-- make "not" or "the" unsearchable); every word an agent types matches that word.
CREATE FUNCTION documents_search_vector() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' OR NEW.title IS DISTINCT FROM OLD.title
       OR NEW.content IS DISTINCT FROM OLD.content THEN
        NEW.search := setweight(to_tsvector('simple', NEW.title), 'A')
                   || setweight(to_tsvector('simple', NEW.content), 'B');
    END IF;
    RETURN NEW;
END
$$;

CREATE TRIGGER documents_search_vector BEFORE INSERT OR UPDATE ON documents
FOR EACH ROW EXECUTE FUNCTION documents_search_vector();

-- The agent's words, all required: AND of one tsquery per word (see search.rs).
CREATE AGGREGATE all_words (tsquery) (SFUNC = tsquery_and, STYPE = tsquery);

CREATE TABLE revisions (
    document_id bigint NOT NULL REFERENCES documents (id) ON DELETE CASCADE,
    major       bigint NOT NULL,
    minor       bigint NOT NULL,
    title       text NOT NULL,
    content     text NOT NULL,
    syntax      text NOT NULL,
    hidden      boolean NOT NULL,
    author      text NOT NULL,
    comment     text NOT NULL,
    saved_ms    bigint NOT NULL,
    PRIMARY KEY (document_id, major, minor)
);

CREATE TABLE links (
    source_id    bigint NOT NULL REFERENCES documents (id) ON DELETE CASCADE,
    position     bigint NOT NULL,
    target_wiki  text COLLATE "C" NOT NULL,
    target_space text COLLATE "C" NOT NULL,
    target_name  text COLLATE "C" NOT NULL,
    attachment   text,
    PRIMARY KEY (source_id, position)
);

CREATE INDEX links_target ON links (target_wiki, target_space, target_name);

-- One row, advanced by every writing transaction that changes anything a server caches, as the
-- last statement before its commit (which also notifies `wiki_mcp_changes` with the new value).
CREATE TABLE change_seq (
    id    integer PRIMARY KEY CHECK (id = 1),
    value bigint NOT NULL
);

INSERT INTO change_seq (id, value) VALUES (1, 0);

CREATE TABLE users (
    name         text COLLATE "C" PRIMARY KEY,
    display_name text,
    created_ms   bigint NOT NULL
);

CREATE TABLE groups (
    name       text COLLATE "C" PRIMARY KEY,
    created_ms bigint NOT NULL
);

CREATE TABLE group_members (
    group_name  text COLLATE "C" NOT NULL REFERENCES groups (name) ON DELETE CASCADE,
    member_kind text COLLATE "C" NOT NULL CHECK (member_kind IN ('user', 'group')),
    member      text COLLATE "C" NOT NULL,
    PRIMARY KEY (group_name, member_kind, member)
);

CREATE INDEX group_members_member ON group_members (member_kind, member);

CREATE TABLE rights (
    wiki         text COLLATE "C" NOT NULL REFERENCES wikis (id) ON DELETE CASCADE,
    space        text COLLATE "C" NOT NULL,
    page         text COLLATE "C" NOT NULL,
    subject_kind text COLLATE "C" NOT NULL CHECK (subject_kind IN ('user', 'group')),
    subject      text COLLATE "C" NOT NULL,
    right_name   text COLLATE "C" NOT NULL CHECK (right_name IN ('view', 'edit', 'delete', 'admin')),
    effect       text NOT NULL CHECK (effect IN ('allow', 'deny')),
    PRIMARY KEY (wiki, space, page, subject_kind, subject, right_name),
    CHECK (page = '' OR space <> '')
);

CREATE INDEX rights_subject ON rights (subject_kind, subject);

-- Only the SHA-256 digest of a token is kept. `last_used_ms` is bookkeeping: several replicas
-- record uses with a conditional update that keeps the latest time.
CREATE TABLE api_tokens (
    prefix       text COLLATE "C" PRIMARY KEY,
    digest       bytea NOT NULL CHECK (length(digest) = 32),
    user_name    text COLLATE "C" NOT NULL REFERENCES users (name) ON DELETE CASCADE,
    label        text NOT NULL,
    created_ms   bigint NOT NULL,
    last_used_ms bigint
);

CREATE INDEX api_tokens_user ON api_tokens (user_name);

CREATE TABLE class_fields (
    document_id bigint NOT NULL REFERENCES documents (id) ON DELETE CASCADE,
    name        text COLLATE "C" NOT NULL,
    position    bigint NOT NULL,
    field_type  text NOT NULL,
    pretty_name text,
    attributes  text NOT NULL,   -- JSON object of the type's attributes, as SQLite stores it
    disabled    boolean NOT NULL DEFAULT false,
    PRIMARY KEY (document_id, name)
);

CREATE TABLE objects (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    document_id bigint NOT NULL REFERENCES documents (id) ON DELETE CASCADE,
    class       text COLLATE "C" NOT NULL,
    number      bigint NOT NULL CHECK (number >= 0),
    UNIQUE (document_id, class, number)
);

CREATE INDEX objects_class ON objects (class, document_id);

-- One typed value per field, as SQLite's ANY column holds it: exactly one of text, integer or
-- real. `number` is the numeric value of an integer or a real (exact: the real's shortest
-- decimal), so comparisons and sorting across integers and reals are numeric, as in SQLite,
-- and every number sorts before every text.
CREATE TABLE object_values (
    object_id  bigint NOT NULL REFERENCES objects (id) ON DELETE CASCADE,
    field      text COLLATE "C" NOT NULL,
    text_value text COLLATE "C",
    int_value  bigint,
    real_value double precision,
    number     numeric,
    PRIMARY KEY (object_id, field),
    CHECK (num_nonnulls(text_value, int_value, real_value) = 1),
    CHECK ((number IS NULL) = (text_value IS NOT NULL))
);

CREATE TABLE attachments (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    document_id bigint NOT NULL REFERENCES documents (id) ON DELETE CASCADE,
    name        text COLLATE "C" NOT NULL,
    UNIQUE (document_id, name)
);

-- Bytes in the database, so replicas need no shared disk. bytea rather than large objects: a
-- version is at most the configured cap (10 MiB by default), well within what bytea and TOAST
-- handle, and a bytea row is deleted with its row (large objects need their own unlinking).
CREATE TABLE attachment_versions (
    attachment_id bigint NOT NULL REFERENCES attachments (id) ON DELETE CASCADE,
    version_major bigint NOT NULL CHECK (version_major >= 1),
    version_minor bigint NOT NULL CHECK (version_minor >= 1),
    size          bigint NOT NULL CHECK (size >= 0),
    declared_mime text NOT NULL,
    sniffed_mime  text,
    author        text NOT NULL,
    comment       text NOT NULL,
    created_ms    bigint NOT NULL,
    content       bytea NOT NULL,
    PRIMARY KEY (attachment_id, version_major, version_minor)
);

-- Out of line and uncompressed: most attachments (images, PDFs, archives) are compressed
-- already, so compressing them again only costs CPU on every upload.
ALTER TABLE attachment_versions ALTER COLUMN content SET STORAGE EXTERNAL;

CREATE TABLE trash_entries (
    id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    wiki          text COLLATE "C" NOT NULL REFERENCES wikis (id) ON DELETE CASCADE,
    space         text COLLATE "C" NOT NULL,
    name          text COLLATE "C" NOT NULL,
    attachment    text,
    version_major bigint NOT NULL,
    version_minor bigint NOT NULL,
    deleted_by    text NOT NULL,
    comment       text NOT NULL,
    deleted_ms    bigint NOT NULL
);

CREATE INDEX trash_entries_wiki ON trash_entries (wiki, deleted_ms);

CREATE TABLE trash_documents (
    entry_id      bigint NOT NULL REFERENCES trash_entries (id) ON DELETE CASCADE,
    old_id        bigint NOT NULL,
    locale        text COLLATE "C" NOT NULL,
    language      text COLLATE "C" NOT NULL,
    title         text COLLATE "C" NOT NULL,
    content       text NOT NULL,
    syntax        text NOT NULL,
    hidden        boolean NOT NULL,
    creator       text NOT NULL,
    author        text COLLATE "C" NOT NULL,
    created_ms    bigint NOT NULL,
    updated_ms    bigint NOT NULL,
    version_major bigint NOT NULL,
    version_minor bigint NOT NULL,
    PRIMARY KEY (entry_id, old_id)
);

CREATE TABLE trash_revisions (
    entry_id        bigint NOT NULL REFERENCES trash_entries (id) ON DELETE CASCADE,
    old_document_id bigint NOT NULL,
    major           bigint NOT NULL,
    minor           bigint NOT NULL,
    title           text NOT NULL,
    content         text NOT NULL,
    syntax          text NOT NULL,
    hidden          boolean NOT NULL,
    author          text NOT NULL,
    comment         text NOT NULL,
    saved_ms        bigint NOT NULL
);

CREATE INDEX trash_revisions_entry ON trash_revisions (entry_id);

CREATE TABLE trash_links (
    entry_id        bigint NOT NULL REFERENCES trash_entries (id) ON DELETE CASCADE,
    old_document_id bigint NOT NULL,
    position        bigint NOT NULL,
    target_wiki     text COLLATE "C" NOT NULL,
    target_space    text COLLATE "C" NOT NULL,
    target_name     text COLLATE "C" NOT NULL,
    attachment      text
);

CREATE INDEX trash_links_entry ON trash_links (entry_id);

CREATE TABLE trash_attachments (
    entry_id bigint NOT NULL REFERENCES trash_entries (id) ON DELETE CASCADE,
    old_id   bigint NOT NULL,
    name     text COLLATE "C" NOT NULL,
    PRIMARY KEY (entry_id, old_id)
);

CREATE TABLE trash_attachment_versions (
    entry_id          bigint NOT NULL REFERENCES trash_entries (id) ON DELETE CASCADE,
    old_attachment_id bigint NOT NULL,
    version_major     bigint NOT NULL,
    version_minor     bigint NOT NULL,
    size              bigint NOT NULL,
    declared_mime     text NOT NULL,
    sniffed_mime      text,
    author            text NOT NULL,
    comment           text NOT NULL,
    created_ms        bigint NOT NULL,
    content           bytea NOT NULL
);

ALTER TABLE trash_attachment_versions ALTER COLUMN content SET STORAGE EXTERNAL;
CREATE INDEX trash_attachment_versions_entry ON trash_attachment_versions (entry_id);

CREATE TABLE trash_class_fields (
    entry_id    bigint NOT NULL REFERENCES trash_entries (id) ON DELETE CASCADE,
    name        text COLLATE "C" NOT NULL,
    position    bigint NOT NULL,
    field_type  text NOT NULL,
    pretty_name text,
    attributes  text NOT NULL,
    disabled    boolean NOT NULL,
    PRIMARY KEY (entry_id, name)
);

CREATE TABLE trash_objects (
    entry_id bigint NOT NULL REFERENCES trash_entries (id) ON DELETE CASCADE,
    old_id   bigint NOT NULL,
    class    text COLLATE "C" NOT NULL,
    number   bigint NOT NULL,
    PRIMARY KEY (entry_id, old_id)
);

CREATE TABLE trash_object_values (
    entry_id      bigint NOT NULL REFERENCES trash_entries (id) ON DELETE CASCADE,
    old_object_id bigint NOT NULL,
    field         text COLLATE "C" NOT NULL,
    text_value    text COLLATE "C",
    int_value     bigint,
    real_value    double precision,
    number        numeric
);

CREATE INDEX trash_object_values_entry ON trash_object_values (entry_id);

-- Farm-wide secrets (the key that signs links), shared by every replica. Created once.
CREATE TABLE farm_secrets (
    name       text COLLATE "C" PRIMARY KEY,
    value      bytea NOT NULL CHECK (length(value) BETWEEN 16 AND 1024),
    created_ms bigint NOT NULL
);
