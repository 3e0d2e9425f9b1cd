-- 0009: what the admin web page shares between the processes serving a farm: sign-in sessions
-- and OpenID Connect sign-ins under way (by the SHA-256 digest of what the browser holds, never
-- the secret itself), and the recent-audit record of tool calls (never their arguments), kept
-- bounded by the writer. Never edit a released migration: append a new one.
CREATE TABLE admin_sessions (
    digest       BLOB PRIMARY KEY NOT NULL CHECK (length(digest) = 32),
    user_name    TEXT NOT NULL,
    created_ms   INTEGER NOT NULL,
    last_used_ms INTEGER NOT NULL,
    idle_ms      INTEGER NOT NULL,
    expires_ms   INTEGER NOT NULL
) STRICT, WITHOUT ROWID;

CREATE INDEX admin_sessions_user ON admin_sessions (user_name);
CREATE INDEX admin_sessions_last_used ON admin_sessions (last_used_ms);

CREATE TABLE admin_logins (
    digest     BLOB PRIMARY KEY NOT NULL CHECK (length(digest) = 32),
    expires_ms INTEGER NOT NULL
) STRICT, WITHOUT ROWID;

CREATE INDEX admin_logins_expires ON admin_logins (expires_ms);

CREATE TABLE audit_calls (
    id          INTEGER PRIMARY KEY,
    at_ms       INTEGER NOT NULL,
    wiki        TEXT NOT NULL,
    tool        TEXT NOT NULL,
    user_name   TEXT NOT NULL,
    outcome     TEXT NOT NULL,
    reason      TEXT,
    duration_ms INTEGER NOT NULL
) STRICT;

CREATE INDEX audit_calls_at ON audit_calls (at_ms);
