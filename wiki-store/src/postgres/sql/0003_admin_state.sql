-- 0003: what the admin web page shares between the replicas serving a farm: sign-in sessions
-- and OpenID Connect sign-ins under way (by the SHA-256 digest of what the browser holds, never
-- the secret itself), and the recent-audit record of tool calls (never their arguments), kept
-- bounded by the writer. The columns are SQLite's 0009, so the audit copies value for value.
-- Never edit a released migration: append a new one.
CREATE TABLE admin_sessions (
    digest       bytea PRIMARY KEY CHECK (length(digest) = 32),
    user_name    text COLLATE "C" NOT NULL,
    created_ms   bigint NOT NULL,
    last_used_ms bigint NOT NULL,
    idle_ms      bigint NOT NULL,
    expires_ms   bigint NOT NULL
);

CREATE INDEX admin_sessions_user ON admin_sessions (user_name);
CREATE INDEX admin_sessions_last_used ON admin_sessions (last_used_ms);

CREATE TABLE admin_logins (
    digest     bytea PRIMARY KEY CHECK (length(digest) = 32),
    expires_ms bigint NOT NULL
);

CREATE INDEX admin_logins_expires ON admin_logins (expires_ms);

CREATE TABLE audit_calls (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    at_ms       bigint NOT NULL,
    wiki        text COLLATE "C" NOT NULL,
    tool        text COLLATE "C" NOT NULL,
    user_name   text COLLATE "C" NOT NULL,
    outcome     text COLLATE "C" NOT NULL,
    reason      text COLLATE "C",
    duration_ms bigint NOT NULL
);

CREATE INDEX audit_calls_at ON audit_calls (at_ms);
