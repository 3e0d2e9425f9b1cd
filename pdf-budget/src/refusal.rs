//! Why a PDF's text is not extracted at all.

use std::fmt;
use std::time::Duration;

use crate::decode::OverBudget;
use crate::extract::seconds;

/// Why a PDF's text is not extracted. Its `Display` is a sentence for the person or agent that
/// asked ("its pages draw forms that contain themselves"), without the subject.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Refusal {
    /// Its streams decode to more than `max_bytes`.
    Decoded {
        /// The budget of decoded bytes.
        max_bytes: usize,
    },
    /// It holds more than `max` objects.
    Objects {
        /// The budget of objects.
        max: usize,
    },
    /// It is encrypted.
    Encrypted,
    /// Its structure could not be read (no cross-reference chain lopdf would accept).
    Unreadable,
    /// Reading even its first page would take more work than the budget.
    Work,
    /// Its pages draw forms that draw themselves.
    Recursive,
    /// Reading even its first page took longer than the time budget.
    Time {
        /// The time budget.
        budget: Duration,
    },
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Decoded { max_bytes } => write!(
                f,
                "its compressed streams inflate to more than {} MB, the extraction budget (a \
                 decompression bomb, or a PDF of large scanned images)",
                max_bytes / (1024 * 1024)
            ),
            Self::Objects { max } => {
                write!(f, "it holds more than {max} objects, the extraction budget")
            }
            Self::Encrypted => write!(f, "it is encrypted"),
            Self::Unreadable => write!(
                f,
                "its structure is damaged or uses a form the server does not read"
            ),
            Self::Work => write!(
                f,
                "reading its pages would take more work than the extraction budget"
            ),
            Self::Recursive => write!(f, "its pages draw forms that contain themselves"),
            Self::Time { budget } => write!(
                f,
                "reading its first page took longer than the extraction budget of {}",
                seconds(*budget)
            ),
        }
    }
}

impl From<OverBudget> for Refusal {
    fn from(over: OverBudget) -> Self {
        Self::Decoded {
            max_bytes: over.total,
        }
    }
}
