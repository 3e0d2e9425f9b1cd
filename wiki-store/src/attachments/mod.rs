//! Attachment rules that need no storage: names and media types (the size cap is
//! [`crate::Limits::max_attachment_bytes`]).
//!
//! The storage layer calls these before opening its transaction, so a bad name or an oversize
//! upload is refused with nothing written.

mod mime;
mod name;

pub use mime::{MediaTypes, detect_media_types};
pub(crate) use name::is_unsafe_text_char;
pub use name::{MAX_ATTACHMENT_NAME, validate_attachment_name};
