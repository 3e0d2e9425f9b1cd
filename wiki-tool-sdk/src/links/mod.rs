//! Signed links: the `URL:`, `Download:` and `Compare:` lines tools print, and their check when
//! a browser follows one.
//!
//! A link cannot carry a Bearer header, so it carries a short-lived signature instead:
//! HMAC-SHA256, under a random per-farm key, over everything the link shows (the page kind, the
//! wiki, the reference, the locale, the attachment name, the two revisions), the endpoint that
//! issued it, the user it was issued to and its expiry. The server that serves the page
//! (wiki-server's `http` pages) verifies the signature and the expiry, then checks the user's view right
//! AGAIN, as of now: a link never grants more than what its user may currently view, and an
//! altered or expired link is refused.
//!
//! The key never leaves the server: it is not part of any tool output, and the binary keeps it
//! in the data directory, readable by its owner only ([`LinkKey::load_or_create`]), or, on a
//! database several replicas share, in the store as a farm secret ([`LinkKey::from_farm`]).

mod claims;
mod key;
mod signer;

pub use claims::{LinkClaims, LinkError, LinkPage};
pub use key::{LINK_KEY_SECRET, LINK_TTL, LinkKey};
pub use signer::{SignedFor, Signer};
