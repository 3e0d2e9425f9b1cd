//! Every table a farm keeps, in the order a copy writes them (parents before the rows that
//! reference them).
//!
//! This list is the whole of what `wiki-mcp migrate` copies. A migration that adds a table adds
//! it here too, in both backends' schemas under the same name and with the same column names;
//! a new column needs nothing here (columns are read from the source's schema and matched by
//! name in the target's). The source refuses to export a table missing from this list, and the
//! tests `sqlite::transfer_tables` and `postgres::transfer` compare it with both schemas, so a
//! table cannot be forgotten quietly.

use crate::transfer::Table;

/// The tables of a farm, parents first.
pub const TABLES: &[Table] = &[
    Table::new("wikis", "wikis").seeded(),
    Table::new("documents", "document rows (one per locale)"),
    Table::new("revisions", "revisions"),
    Table::new("links", "links"),
    Table::new("change_seq", "change sequence").seeded(),
    Table::new("users", "users"),
    Table::new("groups", "groups"),
    Table::new("group_members", "group members"),
    Table::new("rights", "rights"),
    Table::new("api_tokens", "API tokens"),
    Table::new("identity_links", "identity links"),
    Table::new("identity_adoptions", "identity adoptions"),
    Table::new("identity_upgrade", "identity upgrade decision"),
    Table::new("class_fields", "class fields"),
    Table::new("objects", "objects"),
    Table::new("object_values", "object values").with_scalar_column("value"),
    Table::new("attachments", "attachments"),
    Table::new("attachment_versions", "attachment versions"),
    Table::new("trash_entries", "recycle bin entries"),
    Table::new("trash_documents", "deleted document rows"),
    Table::new("trash_revisions", "deleted revisions"),
    Table::new("trash_links", "deleted links"),
    Table::new("trash_attachments", "deleted attachments"),
    Table::new("trash_attachment_versions", "deleted attachment versions"),
    Table::new("trash_class_fields", "deleted class fields"),
    Table::new("trash_objects", "deleted objects"),
    Table::new("trash_object_values", "deleted object values").with_scalar_column("value"),
    Table::new("farm_secrets", "farm secrets"),
    Table::new("vector_rows", "vector index rows"),
    Table::new("vector_entries", "vector index entries"),
    Table::new("vector_seq", "vector sequence").seeded(),
    Table::new(
        "audit_calls",
        "recent tool calls (the admin page's audit view)",
    ),
];

/// What a backend keeps beside the farm's tables and a copy never writes: its schema version,
/// what it derives from the tables (SQLite's full-text index is a virtual table over
/// `documents`; PostgreSQL's `documents.search` vectors are computed by its trigger as rows
/// arrive), and the admin page's short-lived sign-in state (`admin_sessions`, `admin_logins`):
/// a session is bound to the server that opened it, so after a migration administrators sign in
/// again on the new farm rather than carrying cookies across. (The audit record, `audit_calls`,
/// is copied: it is the farm's history of calls.) Leases (`leases`) are claims of the source's
/// running processes: copied, they would make the new farm wait for holders that never run
/// there, so its servers take them afresh.
pub const BOOKKEEPING: &[&str] = &["schema_version", "admin_sessions", "admin_logins", "leases"];

/// The table named `name`, if the farm has one by that name.
pub fn table(name: &str) -> Option<&'static Table> {
    TABLES.iter().find(|table| table.name == name)
}
