//! What two or more tools share, each in one place (STYLE.md "bundled-tools"): a tool file holds
//! its parameters and its output; the rules below are written once.

pub(crate) mod attachment_meta;
pub(crate) mod counted;
pub(crate) mod deleted;
pub(crate) mod heavy;
pub(crate) mod history;
pub(crate) mod lookup;
pub(crate) mod one_line;
pub(crate) mod outline;
pub(crate) mod paging;
pub(crate) mod render;
pub(crate) mod rendered_pages;
pub(crate) mod translation;
pub(crate) mod urls;
pub(crate) mod window;
pub(crate) mod window_output;
pub(crate) mod write_params;
pub(crate) mod written;
