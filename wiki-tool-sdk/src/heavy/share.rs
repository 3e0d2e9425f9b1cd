//! [`Share`]: who a heavy job is done for. The slots go round the shares with jobs waiting, so
//! one caller keeping many jobs in flight delays another caller by at most one job.

use std::fmt;
use std::net::IpAddr;
use std::sync::Arc;

/// Who a heavy job is done for: a user, or a client address (the guest, and the signed link
/// pages, which carry no credentials), or the process itself (a command-line tool, a test).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Share(Arc<str>);

impl Share {
    /// The jobs of the user `name`, from wherever it calls.
    pub fn user(name: &str) -> Share {
        Share(Arc::from(format!("user {name}")))
    }

    /// The jobs of requests without credentials from `address` (the guest's calls and the link
    /// pages opened from there).
    pub fn address(address: IpAddr) -> Share {
        Share(Arc::from(format!("address {address}")))
    }

    /// Jobs no caller is known for: one share for all of them.
    pub fn unattributed() -> Share {
        Share(Arc::from("unattributed"))
    }

    pub(crate) fn key(&self) -> &Arc<str> {
        &self.0
    }
}

impl fmt::Display for Share {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}
