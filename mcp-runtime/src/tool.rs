//! What a tool author implements and receives: [`Execute`], [`ToolContext`], [`ToolResult`].

use std::future::Future;
use std::sync::Arc;

use wiki_store::Store;
use wiki_store::model::user::GUEST_USER;

use wiki_store::reference::DocumentReference;

use crate::access::{Doors, store_failure};
use crate::links::{LinkClaims, LinkKey, LinkPage};
use crate::param::ParamError;
use crate::server::{ToolSet, WikiServer};

/// What a tool call returns: its output, or an agent-facing error (an `isError` result).
pub type ToolResult = Result<ToolOutput, ToolError>;

/// Runs a tool whose arguments were already parsed by its `#[mcp_tool]` declaration.
///
/// Authors write `async fn execute(self, ctx: &ToolContext) -> ToolResult`; the declared
/// signature keeps the future `Send` so the server can run it on any worker.
#[diagnostic::on_unimplemented(
    message = "the #[mcp_tool] `{Self}` has no `Execute` impl",
    label = "add `impl Execute for {Self} {{ async fn execute(self, ctx: &ToolContext) -> ToolResult {{ .. }} }}`",
    note = "every #[mcp_tool] struct needs an `Execute` impl: it is what runs when the tool is called"
)]
pub trait Execute: Sized + Send {
    /// Run the tool with its parsed arguments.
    fn execute(self, ctx: &ToolContext) -> impl Future<Output = ToolResult> + Send;
}

/// Who calls, on which wiki, with which reach, and the doors to the content.
///
/// The server builds one per call from the request (never from the session). Tools reach content
/// only through [`ToolContext::doors`]: the reach gate, the caller's rights and the space filter,
/// in that order. Store work runs off the async workers ([`ToolContext::store_call`]).
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct ToolContext {
    /// The authenticated user's name, or `None` for the guest.
    pub user: Option<String>,
    /// The id of the wiki whose endpoint received the call.
    pub wiki: String,
    /// Whether this endpoint may reach other wikis (`wiki` params, `list_wikis`).
    pub cross_wiki_reach: bool,
    doors: Option<Doors>,
    public_url: Option<Arc<str>>,
    link_key: Option<Arc<LinkKey>>,
    server: Option<Arc<WikiServer>>,
}

impl ToolContext {
    /// A context for `user` (`None` = guest) on `wiki` that is detached from any store: for
    /// exercising argument parsing in tests and benches. Its [`ToolContext::doors`] refuse.
    pub fn new(user: Option<String>, wiki: impl Into<String>, cross_wiki_reach: bool) -> Self {
        Self {
            user,
            wiki: wiki.into(),
            cross_wiki_reach,
            doors: None,
            public_url: None,
            link_key: None,
            server: None,
        }
    }

    /// The context of one served call: the caller, and the doors built for it
    /// ([`crate::server::Manager::context`] makes them).
    pub(crate) fn for_call(
        user: Option<String>,
        doors: Doors,
        public_url: Option<Arc<str>>,
        link_key: Arc<LinkKey>,
    ) -> Self {
        Self {
            user,
            wiki: doors.wiki().as_str().to_owned(),
            cross_wiki_reach: doors.reach(),
            doors: Some(doors),
            public_url,
            link_key: Some(link_key),
            server: None,
        }
    }

    /// Attaches the wiki's server, whose tool list `man` documents.
    pub(crate) fn with_server(mut self, server: Arc<WikiServer>) -> Self {
        self.server = Some(server);
        self
    }

    /// The tools this caller can use on this wiki (what `man` lists), when served.
    pub(crate) fn served_tools(&self) -> Option<&ToolSet> {
        self.server
            .as_deref()
            .map(|server| server.tools(self.is_guest()))
    }

    /// Whether the caller is the guest (no credentials).
    pub fn is_guest(&self) -> bool {
        self.user.is_none()
    }

    /// The name rights are checked for: the user's, or the guest's.
    pub fn principal_name(&self) -> &str {
        self.user.as_deref().unwrap_or(GUEST_USER)
    }

    /// The access doors of this call: the only way from a reference to content.
    pub fn doors(&self) -> Result<&Doors, ToolError> {
        self.doors.as_ref().ok_or_else(|| {
            ToolError::new(
                "Could not reach the wiki store from this call. Retry; if it keeps failing, tell \
                 an administrator (the details are in the server log).",
            )
        })
    }

    /// Runs `f` on the store off the async workers; a store error becomes the fixed
    /// "Could not <verb>" message (cause logged, never shown). For reads that are not by
    /// reference (lists, classes); documents go through [`Doors::authorize`].
    pub async fn store_call<T, F>(&self, verb: &str, f: F) -> Result<T, ToolError>
    where
        T: Send + 'static,
        F: FnOnce(&dyn Store) -> wiki_store::Result<T> + Send + 'static,
    {
        self.doors()?
            .blocking(f)
            .await?
            .map_err(|error| store_failure(verb, &error))
    }

    /// The public base URL links in tool output start with (`serve --public-url`), if known.
    pub fn public_url(&self) -> Option<&str> {
        self.public_url.as_deref()
    }

    /// The signed URL of `page` of `reference` for this caller, through this endpoint (see
    /// [`crate::links`]): it expires, and the page re-checks the caller's view right when it
    /// is opened. `None` without a public URL (or outside a served call): tools then print no
    /// link rather than one nobody can open.
    pub fn link(&self, page: LinkPage, reference: &DocumentReference) -> Option<String> {
        let base = self.public_url.as_deref()?;
        let key = self.link_key.as_deref()?;
        let endpoint = self.doors.as_ref()?.wiki().clone();
        let claims = LinkClaims::issue(page, reference.clone(), endpoint, self.user.clone());
        Some(claims.url(base, key))
    }
}

/// One block of a tool's output.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ContentBlock {
    /// Line-oriented text an agent reads.
    Text(String),
    /// An image, base64-encoded, with its mime type.
    Image {
        /// Base64 data.
        data: String,
        /// e.g. `image/png`.
        mime_type: String,
    },
}

/// A successful tool result: one or more content blocks (normally one text block).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolOutput {
    /// The blocks, in order.
    pub content: Vec<ContentBlock>,
}

impl ToolOutput {
    /// One text block.
    pub fn text(text: impl Into<String>) -> Self {
        Self {
            content: vec![ContentBlock::Text(text.into())],
        }
    }

    /// One image block.
    pub fn image(data_base64: impl Into<String>, mime_type: impl Into<String>) -> Self {
        Self {
            content: vec![ContentBlock::Image {
                data: data_base64.into(),
                mime_type: mime_type.into(),
            }],
        }
    }
}

/// An agent-facing error: its message is exactly what the agent reads in the `isError` result.
///
/// Deliberately NOT `From<E: std::error::Error>`: a blanket conversion would let `?` forward SQL,
/// paths or stack details to agents. Convert from `String`/`&str` or from the runtime's own
/// agent-facing error types, whose messages were written for agents.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolError {
    message: String,
}

impl ToolError {
    /// An error with an agent-facing message that names the corrective action.
    pub fn new(message: impl Into<String>) -> Self {
        Self {
            message: message.into(),
        }
    }

    /// The message the agent reads.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl std::fmt::Display for ToolError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl From<String> for ToolError {
    fn from(message: String) -> Self {
        Self::new(message)
    }
}

impl From<&str> for ToolError {
    fn from(message: &str) -> Self {
        Self::new(message)
    }
}

impl From<ParamError> for ToolError {
    fn from(error: ParamError) -> Self {
        Self::new(error.to_string())
    }
}
