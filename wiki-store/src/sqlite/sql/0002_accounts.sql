-- 0002: users, groups and their members, rights, API tokens. Users and groups are farm-wide;
-- rights belong to a wiki. Never edit a released migration: append a new one.

CREATE TABLE users (
    name         TEXT PRIMARY KEY NOT NULL,  -- validate_principal_name; never 'guest'
    display_name TEXT,
    created_ms   INTEGER NOT NULL
) STRICT;

CREATE TABLE groups (
    name       TEXT PRIMARY KEY NOT NULL,
    created_ms INTEGER NOT NULL
) STRICT;

-- Direct members only; nesting is resolved by the rights resolver (cycle-safe). A member is a
-- user (the guest included, which has no users row) or a group; deleting a user or a group
-- removes its memberships in the same transaction.
CREATE TABLE group_members (
    group_name  TEXT NOT NULL REFERENCES groups (name) ON DELETE CASCADE,
    member_kind TEXT NOT NULL CHECK (member_kind IN ('user', 'group')),
    member      TEXT NOT NULL,
    PRIMARY KEY (group_name, member_kind, member)
) STRICT, WITHOUT ROWID;

CREATE INDEX group_members_member ON group_members (member_kind, member);

-- One rule per (scope, subject, right): setting allow replaces a deny and vice versa.
-- Scope: space = '' and page = '' is the wiki level; page = '' a space (serialized, escaped
-- SpacePath); both set a page. Rules name references, not document rows, so they can be set
-- before a page exists and outlive its deletion (XWiki keeps them on the page; we keep them in
-- one table so a whole farm's rights load in one query).
CREATE TABLE rights (
    wiki         TEXT NOT NULL REFERENCES wikis (id) ON DELETE CASCADE,
    space        TEXT NOT NULL,
    page         TEXT NOT NULL,
    subject_kind TEXT NOT NULL CHECK (subject_kind IN ('user', 'group')),
    subject      TEXT NOT NULL,
    right_name   TEXT NOT NULL CHECK (right_name IN ('view', 'edit', 'delete', 'admin')),
    effect       TEXT NOT NULL CHECK (effect IN ('allow', 'deny')),
    PRIMARY KEY (wiki, space, page, subject_kind, subject, right_name),
    CHECK (page = '' OR space <> '')
) STRICT, WITHOUT ROWID;

CREATE INDEX rights_subject ON rights (subject_kind, subject);

-- API tokens: the visible prefix names the token; only the SHA-256 digest of the whole token is
-- kept, so the database never holds a usable credential.
CREATE TABLE api_tokens (
    prefix     TEXT PRIMARY KEY NOT NULL,
    digest     BLOB NOT NULL CHECK (length(digest) = 32),
    user_name  TEXT NOT NULL REFERENCES users (name) ON DELETE CASCADE,
    label      TEXT NOT NULL,
    created_ms INTEGER NOT NULL
) STRICT, WITHOUT ROWID;

CREATE INDEX api_tokens_user ON api_tokens (user_name);
