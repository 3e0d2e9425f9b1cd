//! The wiki server's error type (operator-facing: agents never see it).

/// Why the server cannot start or serve (the transport maps it to a 500 or refuses to start).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The registry refused the linked tools (duplicate or reserved ids).
    #[error(transparent)]
    Registry(#[from] mcp_runtime::Error),
    /// The store failed.
    #[error("the store failed")]
    Store(#[from] wiki_store::StoreError),
    /// A blocking task did not complete (the runtime is shutting down).
    #[error("a blocking task did not complete: {0}")]
    Join(String),
    /// The `--public-url` given to the HTTP server is not a base URL it can link to and accept.
    #[error("invalid public URL `{url}`: {reason}")]
    InvalidPublicUrl {
        /// The URL as given.
        url: String,
        /// What is wrong with it.
        reason: &'static str,
    },
}
