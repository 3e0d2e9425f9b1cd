-- 0005: farm-wide leases, so that of the replicas serving one farm exactly one runs a piece of
-- background work (the semantic indexer) and another takes over once the holder's lease
-- expires. Times are milliseconds since the Unix epoch by the database's clock. Never edit a
-- released migration: append a new one.
CREATE TABLE leases (
    name       text COLLATE "C" PRIMARY KEY,
    holder     text COLLATE "C" NOT NULL,
    expires_ms bigint NOT NULL
);
