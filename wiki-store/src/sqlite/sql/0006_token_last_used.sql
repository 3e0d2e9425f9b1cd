-- 0006: when each API token last authenticated a request, in milliseconds since the epoch; NULL
-- until its first use is recorded. Servers record uses coarsely (about once a minute per token)
-- and without advancing the change sequence: a use is not a content or configuration change.
ALTER TABLE api_tokens ADD COLUMN last_used_ms INTEGER;
