//! The document reference parser (`wiki_store::reference`) over arbitrary text.
//!
//! Properties: no input panics; a parsed reference serializes to text that parses back to the
//! same reference, in both forms (`wiki:Space.Page` and the local `Space.Page`); the parts obey
//! the documented limits; and the space-path parser agrees with the reference parser's spaces.
#![no_main]

use libfuzzer_sys::fuzz_target;
use wiki_store::model::wiki::WikiId;
use wiki_store::reference::{
    DocumentReference, MAX_NAME_CHARS, MAX_SPACE_DEPTH, RelativeReference, SpacePath,
};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let default_wiki = WikiId::main();
    let Ok(relative) = RelativeReference::parse(text) else {
        assert!(DocumentReference::parse(text, &default_wiki).is_err());
        return;
    };
    let reference = relative.clone().in_wiki(&default_wiki);
    assert_eq!(
        DocumentReference::parse(text, &default_wiki).as_ref(),
        Ok(&reference)
    );

    let full = reference.to_string();
    assert_eq!(
        DocumentReference::parse(&full, &default_wiki).as_ref(),
        Ok(&reference),
        "{text:?} printed as {full:?}"
    );
    let local = reference.local();
    let reparsed = RelativeReference::parse(&local);
    assert_eq!(
        reparsed.as_ref().map(|r| (&r.space, &r.name)),
        Ok((&relative.space, &relative.name)),
        "{text:?} printed locally as {local:?}"
    );
    assert_eq!(reparsed.map(|r| r.wiki), Ok(None), "{local:?} grew a wiki");

    let space = reference.space();
    assert!(space.depth() >= 1 && space.depth() <= MAX_SPACE_DEPTH);
    let names = space.names().iter().map(String::as_str);
    for name in names.chain([reference.name()]) {
        assert!(!name.is_empty() && name.chars().count() <= MAX_NAME_CHARS);
        assert!(!name.chars().any(char::is_control), "{name:?}");
    }
    assert_eq!(SpacePath::parse(&space.to_string()).as_ref(), Ok(space));
    if let Some(parent) = reference.parent() {
        assert!(parent.is_home() && parent.space().contains(space) || parent.space() == space);
    }
});
