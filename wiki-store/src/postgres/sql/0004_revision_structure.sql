-- 0004: each revision records its document's objects and attachments as that revision left
-- them (JSON, `wiki_store::model::structure::Structure`), so history can show object and
-- attachment changes. NULL: saved before this migration, or a translation row's revision (a
-- translation has no objects or attachments of its own). Deleted revisions keep theirs.
-- Never edit a released migration: append a new one.
ALTER TABLE revisions ADD COLUMN structure text;
ALTER TABLE trash_revisions ADD COLUMN structure text;
