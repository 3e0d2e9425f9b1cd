-- 0006: the vector sequence, advanced by every write of vector entries (by any replica) and
-- stamped on the row written, so a replica learns which rows' vectors another one stored
-- since it last looked (`written_seq` greater than what it saw) without reading them all.
-- Never edit a released migration: append a new one.
CREATE TABLE vector_seq (
    id    integer PRIMARY KEY CHECK (id = 1),
    value bigint NOT NULL
);

INSERT INTO vector_seq (id, value) VALUES (1, 0);

ALTER TABLE vector_rows ADD COLUMN written_seq bigint NOT NULL DEFAULT 0;

CREATE INDEX vector_rows_written ON vector_rows (index_name, written_seq);
