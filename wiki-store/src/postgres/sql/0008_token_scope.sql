-- 0007: what an API token may be used for. `scope` is JSON (`read_only`, `tools`, `wikis`; NULL
-- when it limits none of them) and `expires_ms` when it stops working (NULL: never). Every token
-- stored before keeps both NULL: a full token, as it was.
ALTER TABLE api_tokens ADD COLUMN scope text;
ALTER TABLE api_tokens ADD COLUMN expires_ms bigint;
