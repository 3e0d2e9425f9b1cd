//! `#[farm_test]`: an async test that runs once per store backend. Use it as
//! `wiki_server::testing::farm_test` (feature `testing`), where the runner it feeds lives.
//!
//! libtest can neither run one body twice nor report a test as skipped at run time, so the
//! attribute serves two kinds of test binary built from the same sources. It keeps the body as
//! a plain async function and emits, for it:
//! - a `#[tokio::test]` calling it: the test as it always was, on the farm's default backend
//!   (SQLite), in a binary with the standard harness (a `harness = false` build drops it, as it
//!   drops every `#[test]`);
//! - an entry in an `inventory` list, which a `harness = false` target whose `main` is
//!   `wiki_server::testing::run_farm_suite` turns into one libtest-mimic trial per test, on
//!   PostgreSQL, reported as ignored with the reason when no server is configured (the
//!   standard harness never reads the list).

use proc_macro::TokenStream;
use proc_macro2::Span;
use quote::quote;
use syn::parse::Parser;
use syn::punctuated::Punctuated;
use syn::{Expr, ExprLit, ItemFn, Lit, Meta, Token};

/// Marks an `async fn name()` test whose farm (`TestFarm`, `TestDatabase`) runs on every
/// backend. Accepts tokio's `flavor = "multi_thread"` and `worker_threads = N`, as
/// `#[tokio::test]` does.
#[proc_macro_attribute]
pub fn farm_test(args: TokenStream, item: TokenStream) -> TokenStream {
    expand(args.into(), item.into()).unwrap_or_else(|error| error.to_compile_error().into())
}

fn expand(
    args: proc_macro2::TokenStream,
    item: proc_macro2::TokenStream,
) -> syn::Result<TokenStream> {
    let threads = worker_threads(args.clone())?;
    let function: ItemFn = syn::parse2(item)?;
    let signature = &function.sig;
    if signature.asyncness.is_none() || !signature.inputs.is_empty() {
        return Err(syn::Error::new_spanned(
            signature,
            "#[farm_test] takes an `async fn` without parameters",
        ));
    }
    if !matches!(signature.output, syn::ReturnType::Default) {
        return Err(syn::Error::new_spanned(
            &signature.output,
            "#[farm_test] functions return nothing (panic to fail)",
        ));
    }
    let name = &signature.ident;
    let attrs = &function.attrs;
    let body = &function.block;
    let tokio_args = if args.is_empty() {
        quote! {}
    } else {
        quote! { (#args) }
    };
    let body_fn = syn::Ident::new(&format!("__farm_test_{name}"), name.span());
    Ok(quote! {
        #[::tokio::test #tokio_args]
        #(#attrs)*
        async fn #name() {
            #body_fn().await
        }

        async fn #body_fn() #body

        ::wiki_server::testing::__private::inventory::submit! {
            ::wiki_server::testing::__private::FarmCase::new(
                ::core::module_path!(),
                ::core::stringify!(#name),
                #threads,
                || ::std::boxed::Box::pin(#body_fn()),
            )
        }
    }
    .into())
}

/// The tokio runtime the arguments ask for: 0 for the current-thread one (the default), else
/// the multi-thread one's worker count.
fn worker_threads(args: proc_macro2::TokenStream) -> syn::Result<usize> {
    let metas = Punctuated::<Meta, Token![,]>::parse_terminated.parse2(args)?;
    let mut multi_thread = false;
    let mut threads = None;
    for meta in &metas {
        let Meta::NameValue(pair) = meta else {
            return Err(syn::Error::new_spanned(meta, UNSUPPORTED));
        };
        let Expr::Lit(ExprLit { lit, .. }) = &pair.value else {
            return Err(syn::Error::new_spanned(&pair.value, UNSUPPORTED));
        };
        match (
            pair.path.get_ident().map(ToString::to_string).as_deref(),
            lit,
        ) {
            (Some("flavor"), Lit::Str(flavor)) if flavor.value() == "multi_thread" => {
                multi_thread = true;
            }
            (Some("flavor"), Lit::Str(flavor)) if flavor.value() == "current_thread" => {}
            (Some("worker_threads"), Lit::Int(count)) => threads = Some(count.base10_parse()?),
            _ => return Err(syn::Error::new_spanned(meta, UNSUPPORTED)),
        }
    }
    match (multi_thread, threads) {
        (false, None) => Ok(0),
        (true, threads) => Ok(threads.unwrap_or(2).max(1)),
        (false, Some(_)) => Err(syn::Error::new(
            Span::call_site(),
            "worker_threads needs flavor = \"multi_thread\"",
        )),
    }
}

const UNSUPPORTED: &str =
    "#[farm_test] accepts `flavor = \"multi_thread\"|\"current_thread\"` and `worker_threads = N`";
