//! Attachment uploads and deletions: the checks before the transaction, and whether an upload
//! changes anything.
//!
//! A backend uploads by checking the upload ([`validate_upload`], which also sniffs the media
//! types), reading the attachment's current version in the transaction ([`CurrentAttachment`]),
//! asking [`CurrentAttachment::holds`] and the touch's `untouched` whether anything changes, and
//! only then touching the document and adding version [`next_version`] with the bytes.

use crate::attachments::{MediaTypes, detect_media_types, validate_attachment_name};
use crate::config::Limits;
use crate::error::{Entity, Field};
use crate::model::attachment::{AttachmentDelete, AttachmentWrite};
use crate::model::version::Version;
use crate::plan::owner::Touch;
use crate::reference::DocumentReference;
use crate::{Result, StoreError};

/// Checks an upload before any transaction (name, size cap, the document's save parameters);
/// returns the touch of the document (an upload creates a missing one) and the media types.
pub(crate) fn validate_upload<'w>(
    write: &'w AttachmentWrite,
    limits: &Limits,
) -> Result<(Touch<'w>, MediaTypes)> {
    validate_attachment_name(&write.name)?;
    let limit = limits.max_attachment_bytes;
    if write.content.len() > limit {
        return Err(StoreError::TooLarge {
            field: Field::Attachment,
            limit,
            actual: write.content.len(),
        });
    }
    let touch = Touch {
        create: true,
        ..Touch::minor(
            &write.reference,
            &write.author,
            &write.comment,
            write.expected,
        )
    }
    .validated(limits)?;
    Ok((touch, detect_media_types(&write.name, &write.content)))
}

/// Checks a deletion before any transaction; returns the touch of the document.
pub(crate) fn validate_delete<'d>(
    delete: &'d AttachmentDelete,
    limits: &Limits,
) -> Result<Touch<'d>> {
    Touch::minor(
        &delete.reference,
        &delete.author,
        &delete.comment,
        delete.expected,
    )
    .validated(limits)
}

/// The refusal of a deletion of an attachment that does not exist.
pub(crate) fn unknown_attachment(name: &str, reference: &DocumentReference) -> StoreError {
    StoreError::not_found(Entity::Attachment, format!("{name} on {reference}"))
}

/// An attachment's current version, as an upload compares against it (without its bytes).
#[derive(Debug, Clone)]
pub(crate) struct CurrentAttachment {
    pub(crate) version: Version,
    /// The stored size in bytes.
    pub(crate) size: u64,
    pub(crate) media: MediaTypes,
}

impl CurrentAttachment {
    /// Whether this version already holds `content` with the media types `media`: the cheap
    /// columns first, then the bytes, which `same_bytes` compares where they are stored (so a
    /// backend reads the stored bytes at most once and need not copy them out). No hash is
    /// stored: sizes rarely collide between versions, and a version is at most
    /// [`Limits::max_attachment_bytes`].
    pub(crate) fn holds(
        &self,
        content: &[u8],
        media: &MediaTypes,
        same_bytes: impl FnOnce() -> Result<bool>,
    ) -> Result<bool> {
        if self.size != content.len() as u64 || self.media != *media {
            return Ok(false);
        }
        same_bytes()
    }
}

/// The version an upload adds: `1.1` for a new attachment, else the current one's next minor.
pub(crate) fn next_version(current: Option<&CurrentAttachment>) -> Version {
    current.map_or(Version::FIRST, |current| current.version.next(false))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::document::Expected;
    use crate::model::wiki::WikiId;

    fn upload(name: &str, content: &[u8]) -> AttachmentWrite {
        AttachmentWrite {
            reference: DocumentReference::parse("Sandbox.Page", &WikiId::main())
                .unwrap_or_else(|e| panic!("{e}")),
            name: name.into(),
            content: content.to_vec(),
            author: "alice".into(),
            comment: String::new(),
            expected: Expected::Any,
        }
    }

    #[test]
    fn bad_names_and_oversize_uploads_are_refused_before_any_transaction() {
        let limits = Limits {
            max_attachment_bytes: 4,
            ..Limits::default()
        };
        assert!(validate_upload(&upload("a/b", b"x"), &limits).is_err());
        assert!(matches!(
            validate_upload(&upload("ok.txt", b"12345"), &limits),
            Err(StoreError::TooLarge {
                field: Field::Attachment,
                limit: 4,
                actual: 5
            })
        ));
        let ok = upload("ok.txt", b"1234");
        let checked = validate_upload(&ok, &limits);
        assert!(
            matches!(&checked, Ok((touch, media)) if touch.create && media.declared == "text/plain")
        );
    }

    #[test]
    fn the_bytes_are_compared_only_when_size_and_types_match() {
        let media = detect_media_types("a.txt", b"abc");
        let current = CurrentAttachment {
            version: Version::FIRST,
            size: 3,
            media: media.clone(),
        };
        let never = || -> Result<bool> { panic!("the bytes must not be read") };
        assert_eq!(current.holds(b"abcd", &media, never).ok(), Some(false));
        let other = detect_media_types("a.md", b"abc");
        assert_eq!(current.holds(b"abc", &other, never).ok(), Some(false));
        assert_eq!(current.holds(b"abc", &media, || Ok(true)).ok(), Some(true));
        assert_eq!(next_version(Some(&current)).to_string(), "1.2");
        assert_eq!(next_version(None), Version::FIRST);
    }
}
