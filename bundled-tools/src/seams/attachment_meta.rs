//! An attachment's metadata as the structured outputs carry it (get_document lists them,
//! get_attachment describes the one it reads).

use wiki_tool_sdk::prelude::*;
use wiki_tool_sdk::store::model::attachment::AttachmentInfo;

/// One attachment.
#[mcp_output]
pub(crate) struct AttachmentMeta {
    /// Its file name, to pass to get_attachment.
    pub(crate) name: String,
    /// Its size in bytes.
    pub(crate) size: u64,
    /// Its media type, as the store sniffed it.
    pub(crate) media_type: String,
    /// The attachment's version.
    pub(crate) version: String,
    /// Who uploaded this version.
    pub(crate) author: String,
    /// When (ISO-8601, UTC).
    pub(crate) modified: String,
}

impl AttachmentMeta {
    /// `info` as the outputs carry it.
    pub(crate) fn new(info: &AttachmentInfo) -> Self {
        Self {
            name: info.name.clone(),
            size: info.size,
            media_type: info.media.effective().to_owned(),
            version: info.version.to_string(),
            author: info.author.clone(),
            modified: iso_instant(info.date),
        }
    }
}
