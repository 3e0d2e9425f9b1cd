//! `#[backend_test]`: a test that runs once per store backend. Use it as
//! `wiki_store::testing::backend_test` (feature `testing`), where the runner it feeds lives.
//!
//! libtest can neither run one body twice nor report a test as skipped at run time, so the
//! attribute does not make a `#[test]`: it keeps the function as written and registers it in an
//! `inventory` list, which `wiki_store::testing::run_backend_tests`, the `main` of a
//! `harness = false` test target, turns into one libtest-mimic trial per backend.

use proc_macro::TokenStream;
use proc_macro2::{Span, TokenStream as Tokens};
use quote::quote;
use syn::parse::Parser;
use syn::punctuated::Punctuated;
use syn::{Expr, ExprLit, FnArg, ItemFn, Lit, Meta, Pat, ReturnType, Token, Type};

/// Marks a test run once per store backend, as `<backend>::<module>::<name>`:
///
/// - `fn name(ctx: &T)`, where `T: wiki_store::testing::FromBackend` is built afresh for each
///   trial (a fixture with a fresh database, the `Backend` itself, ...), or `fn name()`;
/// - `async fn name()`, on a tokio runtime; what it builds on `Backend::current()` (a test farm)
///   is on the trial's backend. Accepts tokio's `flavor = "multi_thread"` and
///   `worker_threads = N`, as `#[tokio::test]` does.
///
/// `only = "sqlite"` or `only = "postgres"` runs it on that backend alone; `crate = "path"`
/// names where `wiki_store::testing` is reached from a crate that does not depend on
/// `wiki_store` under that name.
#[proc_macro_attribute]
pub fn backend_test(args: TokenStream, item: TokenStream) -> TokenStream {
    expand(args.into(), item.into())
        .unwrap_or_else(|error| error.to_compile_error())
        .into()
}

/// The attribute's arguments.
struct Args {
    /// 0 for a current-thread runtime, else the multi-thread one's worker count; `None` when
    /// no runtime argument was given.
    worker_threads: Option<usize>,
    only: Option<String>,
    krate: syn::Path,
}

fn expand(args: Tokens, item: Tokens) -> syn::Result<Tokens> {
    let args = parse_args(args)?;
    let function: ItemFn = syn::parse2(item)?;
    let signature = &function.sig;
    if !signature.generics.params.is_empty() || signature.generics.where_clause.is_some() {
        return Err(syn::Error::new_spanned(
            &signature.generics,
            "#[backend_test] functions take no generic parameters",
        ));
    }
    if !matches!(signature.output, ReturnType::Default) {
        return Err(syn::Error::new_spanned(
            &signature.output,
            "#[backend_test] functions return nothing (panic to fail)",
        ));
    }
    let krate = &args.krate;
    let name = &signature.ident;
    let body = if signature.asyncness.is_some() {
        if let Some(input) = signature.inputs.first() {
            return Err(syn::Error::new_spanned(
                input,
                "an async #[backend_test] takes no parameters: build what it needs on \
                 `Backend::current()` (a test farm does)",
            ));
        }
        let worker_threads = args.worker_threads.unwrap_or(0);
        quote! {
            #krate::__private::Body::Async {
                worker_threads: #worker_threads,
                run: || ::std::boxed::Box::pin(#name()),
            }
        }
    } else {
        if args.worker_threads.is_some() {
            return Err(syn::Error::new(
                Span::call_site(),
                "`flavor` and `worker_threads` are for an async #[backend_test]",
            ));
        }
        match context_type(signature)? {
            None => quote! { #krate::__private::Body::Sync(|_backend| #name()) },
            Some(context) => quote! {
                #krate::__private::Body::Sync(|backend| {
                    #name(&<#context as #krate::FromBackend>::from_backend(backend))
                })
            },
        }
    };
    let only = match &args.only {
        Some(only) => quote! { ::core::option::Option::Some(#only) },
        None => quote! { ::core::option::Option::None },
    };
    // In a standard-harness target the runner is not `main` and the test would never run: there
    // this `#[test]` fails instead, saying why (a `harness = false` build drops every `#[test]`).
    let guard = syn::Ident::new(&format!("__backend_test_{name}"), name.span());
    Ok(quote! {
        #[test]
        fn #guard() {
            ::core::panic!(
                "#[backend_test] needs a test target with `harness = false` whose `main` is \
                 `wiki_store::testing::run_backend_tests()`"
            );
        }

        #function

        #krate::__private::inventory::submit! {
            #krate::__private::Case::new(
                ::core::module_path!(),
                ::core::stringify!(#name),
                #only,
                #body,
            )
        }
    })
}

/// `T` of a sync test's one parameter `ctx: &T`, `None` without a parameter.
fn context_type(signature: &syn::Signature) -> syn::Result<Option<&Type>> {
    let mut inputs = signature.inputs.iter();
    let Some(input) = inputs.next() else {
        return Ok(None);
    };
    if let Some(extra) = inputs.next() {
        return Err(syn::Error::new_spanned(
            extra,
            "#[backend_test] functions take at most one parameter, `ctx: &T`",
        ));
    }
    let FnArg::Typed(typed) = input else {
        return Err(syn::Error::new_spanned(
            input,
            "#[backend_test] functions are free functions, not methods",
        ));
    };
    match (&*typed.pat, &*typed.ty) {
        (Pat::Ident(_) | Pat::Wild(_), Type::Reference(reference))
            if reference.mutability.is_none() =>
        {
            Ok(Some(&reference.elem))
        }
        _ => Err(syn::Error::new_spanned(
            typed,
            "the parameter of a #[backend_test] is `name: &T`, `T` built from the trial's \
             backend by `wiki_store::testing::FromBackend`",
        )),
    }
}

fn parse_args(args: Tokens) -> syn::Result<Args> {
    let metas = Punctuated::<Meta, Token![,]>::parse_terminated.parse2(args)?;
    let mut multi_thread = false;
    let mut threads = None;
    let mut flavor_given = false;
    let mut only = None;
    let mut krate: syn::Path = syn::parse_quote!(::wiki_store::testing);
    for meta in &metas {
        let Meta::NameValue(pair) = meta else {
            return Err(syn::Error::new_spanned(meta, UNSUPPORTED));
        };
        let Expr::Lit(ExprLit { lit, .. }) = &pair.value else {
            return Err(syn::Error::new_spanned(&pair.value, UNSUPPORTED));
        };
        let key = if pair.path.is_ident("crate") {
            Some("crate".to_owned())
        } else {
            pair.path.get_ident().map(ToString::to_string)
        };
        match (key.as_deref(), lit) {
            (Some("flavor"), Lit::Str(flavor)) if flavor.value() == "multi_thread" => {
                multi_thread = true;
                flavor_given = true;
            }
            (Some("flavor"), Lit::Str(flavor)) if flavor.value() == "current_thread" => {
                flavor_given = true;
            }
            (Some("worker_threads"), Lit::Int(count)) => threads = Some(count.base10_parse()?),
            (Some("only"), Lit::Str(backend))
                if ["sqlite", "postgres"].contains(&backend.value().as_str()) =>
            {
                only = Some(backend.value());
            }
            (Some("only"), _) => {
                return Err(syn::Error::new_spanned(
                    &pair.value,
                    "`only` names one backend: \"sqlite\" or \"postgres\"",
                ));
            }
            (Some("crate"), Lit::Str(path)) => krate = path.parse()?,
            _ => return Err(syn::Error::new_spanned(meta, UNSUPPORTED)),
        }
    }
    let worker_threads = match (multi_thread, threads) {
        (false, None) => flavor_given.then_some(0),
        (true, threads) => Some(threads.unwrap_or(2).max(1)),
        (false, Some(_)) => {
            return Err(syn::Error::new(
                Span::call_site(),
                "worker_threads needs flavor = \"multi_thread\"",
            ));
        }
    };
    Ok(Args {
        worker_threads,
        only,
        krate,
    })
}

const UNSUPPORTED: &str = "#[backend_test] accepts `only = \"sqlite\"|\"postgres\"`, \
     `flavor = \"multi_thread\"|\"current_thread\"`, `worker_threads = N` and `crate = \"path\"`";
