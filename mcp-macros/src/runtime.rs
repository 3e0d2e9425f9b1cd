//! How generated code names the runtime: `::mcp_runtime::__private` unless the author says with
//! `crate = "..."` where a framework built on mcp-runtime re-exports it (serde's `crate`
//! attribute does the same), and the version check every expansion carries.

use proc_macro2::TokenStream;
use quote::quote;

/// The module generated code names every runtime item through.
pub(crate) fn private(krate: Option<&syn::Path>) -> TokenStream {
    match krate {
        Some(path) => quote!(#path::__private),
        None => quote!(::mcp_runtime::__private),
    }
}

/// A constant the runtime evaluates against its own version: a macro crate paired with another
/// version of the runtime fails to compile with a message saying so, instead of with errors about
/// items the other version names differently.
pub(crate) fn version_check(private: &TokenStream) -> TokenStream {
    let version = env!("CARGO_PKG_VERSION");
    quote! {
        const _: () = #private::expect_macros_version(#version);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_path_is_the_runtime_crate_and_an_override_replaces_it() {
        assert_eq!(private(None).to_string(), ":: mcp_runtime :: __private");
        let path: syn::Path = syn::parse_quote!(my_framework::runtime);
        assert_eq!(
            private(Some(&path)).to_string(),
            "my_framework :: runtime :: __private"
        );
    }
}
