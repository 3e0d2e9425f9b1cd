//! The two parameter derives: `#[derive(ParamEnum)]` and `#[derive(ParamObject)]`.

pub(crate) mod param_enum;
pub(crate) mod param_object;

use syn::DeriveInput;

use crate::ctxt::Ctxt;

/// Derived types are concrete: a parameter's schema is fixed when the tool is compiled.
fn reject_generics(cx: &Ctxt, input: &DeriveInput, derive: &str) {
    let generics = &input.generics;
    if !generics.params.is_empty() || generics.where_clause.is_some() {
        cx.error_spanned_by(
            generics,
            format!(
                "#[derive({derive})] needs a concrete type: a parameter's schema is fixed when \
                 the tool is compiled"
            ),
        );
    }
}
