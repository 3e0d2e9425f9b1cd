-- 0013: identities at an OpenID Connect issuer bound to wiki users. A token signs in the user
-- its (issuer, subject) is linked to, never a user whose name its claims happen to carry.
-- Adoptions are users an administrator allowed to be claimed once by name, by the first
-- identity of that issuer naming them, until they lapse (moving a farm off name matching).
-- Never edit a released migration: append a new one.
CREATE TABLE identity_links (
    issuer     TEXT NOT NULL,
    subject    TEXT NOT NULL,
    user_name  TEXT NOT NULL REFERENCES users (name) ON DELETE CASCADE,
    created_ms INTEGER NOT NULL,
    PRIMARY KEY (issuer, subject)
) STRICT, WITHOUT ROWID;

CREATE INDEX identity_links_user ON identity_links (user_name, issuer);

CREATE TABLE identity_adoptions (
    issuer     TEXT NOT NULL,
    user_name  TEXT NOT NULL REFERENCES users (name) ON DELETE CASCADE,
    expires_ms INTEGER NOT NULL,
    PRIMARY KEY (issuer, user_name)
) STRICT, WITHOUT ROWID;

CREATE INDEX identity_adoptions_user ON identity_adoptions (user_name);

-- One row while a farm that had users before this version (whose OIDC tokens signed in the
-- user their claim named) awaits an administrator's decision (`wiki-mcp oidc adopt`); a new
-- farm never has it.
CREATE TABLE identity_upgrade (
    pending  INTEGER PRIMARY KEY NOT NULL CHECK (pending = 1),
    since_ms INTEGER NOT NULL
) STRICT;

INSERT INTO identity_upgrade (pending, since_ms)
SELECT 1, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER) WHERE EXISTS (SELECT 1 FROM users);
