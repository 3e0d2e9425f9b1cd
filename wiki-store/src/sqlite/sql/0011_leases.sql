-- 0011: farm-wide leases, so that of the processes serving one farm exactly one runs a piece
-- of background work (the semantic indexer) and another takes over once the holder's lease
-- expires. Times are milliseconds since the Unix epoch. Never edit a released migration:
-- append a new one.
CREATE TABLE leases (
    name       TEXT PRIMARY KEY NOT NULL,
    holder     TEXT NOT NULL,
    expires_ms INTEGER NOT NULL
) STRICT, WITHOUT ROWID;
