-- 0002: vector indexes, entries derived from document rows by a caller (a semantic search's
-- passages and embeddings). A row's entries go with the row (ON DELETE CASCADE); `vector_rows`
-- records the version they were computed from, so a save leaves the row stale until its entries
-- are replaced. Never edit a released migration: append a new one.
CREATE TABLE vector_rows (
    index_name    text COLLATE "C" NOT NULL,
    document_id   bigint NOT NULL REFERENCES documents (id) ON DELETE CASCADE,
    version_major bigint NOT NULL,
    version_minor bigint NOT NULL,
    PRIMARY KEY (index_name, document_id)
);

CREATE INDEX vector_rows_document ON vector_rows (document_id);

CREATE TABLE vector_entries (
    index_name  text COLLATE "C" NOT NULL,
    document_id bigint NOT NULL,
    entry_key   text COLLATE "C" NOT NULL,
    digest      text NOT NULL,
    text        text NOT NULL,
    vector      bytea NOT NULL,
    PRIMARY KEY (index_name, document_id, entry_key),
    FOREIGN KEY (index_name, document_id) REFERENCES vector_rows (index_name, document_id)
        ON DELETE CASCADE
);
