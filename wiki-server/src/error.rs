//! Why the server manager could not produce a wiki's server.

/// Why the manager failed (operator-facing: the transport maps it to a 500 or refuses to start).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ManagerError {
    /// The registry refused the linked tools (duplicate or reserved ids).
    #[error(transparent)]
    Registry(#[from] crate::Error),
    /// The store failed.
    #[error("the store failed")]
    Store(#[from] wiki_store::StoreError),
    /// A blocking task did not complete (the runtime is shutting down).
    #[error("a blocking task did not complete: {0}")]
    Join(String),
}
