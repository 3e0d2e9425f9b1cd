//! Compile-time contract of `#[mcp_tool]`, `#[derive(ParamEnum)]` and `#[derive(ParamObject)]`:
//! every `pass/*.rs` compiles and runs (its `main` asserts what the declaration yields), every
//! `fail/<topic>/<case>.rs` fails with exactly its committed `.stderr`.
//!
//! The snapshots depend on the compiler's wording, which is why `rust-toolchain.toml` pins it.
//! Regenerate after an intended change with `TRYBUILD=overwrite cargo test -p ui-tests`, then
//! read every diff as an author would: one error, on the offending token, saying what to change.

#[test]
fn ui() {
    let cases = trybuild::TestCases::new();
    cases.pass("pass/*.rs");
    cases.compile_fail("fail/*/*.rs");
}
