//! Error gathering (serde_derive's `internals/ctxt.rs`): every check records its error and goes
//! on, so one build shows the author every mistake, each spanned on its own tokens.

use std::cell::RefCell;

use quote::ToTokens;

/// Collects errors during parsing and validation; [`Ctxt::check`] must be called before drop.
pub(crate) struct Ctxt {
    errors: RefCell<Option<Vec<syn::Error>>>,
}

impl Ctxt {
    pub(crate) fn new() -> Self {
        Self {
            errors: RefCell::new(Some(Vec::new())),
        }
    }

    /// Records an error spanning `tokens` (first to last token).
    pub(crate) fn error_spanned_by<T: ToTokens>(&self, tokens: T, message: impl std::fmt::Display) {
        self.syn_error(syn::Error::new_spanned(tokens.into_token_stream(), message));
    }

    /// Records an error at one span.
    pub(crate) fn error_at(&self, span: proc_macro2::Span, message: impl std::fmt::Display) {
        self.syn_error(syn::Error::new(span, message));
    }

    /// Records an error produced by syn (a syntax error inside an attribute, say).
    pub(crate) fn syn_error(&self, error: syn::Error) {
        if let Some(errors) = self.errors.borrow_mut().as_mut() {
            errors.push(error);
        }
    }

    /// Consumes the context: all recorded errors combined into one, or `Ok` if there were none.
    pub(crate) fn check(self) -> syn::Result<()> {
        let errors = self.errors.borrow_mut().take().unwrap_or_default();
        let mut errors = errors.into_iter();
        let Some(mut combined) = errors.next() else {
            return Ok(());
        };
        for error in errors {
            combined.combine(error);
        }
        Err(combined)
    }
}

impl Drop for Ctxt {
    fn drop(&mut self) {
        // A dropped, unchecked context would silently swallow the author's errors.
        if !std::thread::panicking() && self.errors.borrow().is_some() {
            panic!("mcp-macros bug: Ctxt dropped without check()");
        }
    }
}
