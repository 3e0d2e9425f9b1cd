-- 0007: farm-wide secrets (the key that signs links), kept with the farm's data so every process
-- serving the farm shares them. Created once, never changed. Never edit a released migration:
-- append a new one.
CREATE TABLE farm_secrets (
    name       TEXT PRIMARY KEY NOT NULL,
    value      BLOB NOT NULL CHECK (length(value) BETWEEN 16 AND 1024),
    created_ms INTEGER NOT NULL
) STRICT, WITHOUT ROWID;
