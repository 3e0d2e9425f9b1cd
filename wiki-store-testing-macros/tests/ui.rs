//! What `#[backend_test]` refuses, each with its committed message (`ui/*.stderr`): one error, on
//! the offending token, saying what to write instead. What it accepts is compiled and run by
//! every suite that uses it.
//!
//! The snapshots depend on the compiler's wording, which is why `rust-toolchain.toml` pins it.
//! Regenerate after an intended change with
//! `TRYBUILD=overwrite cargo test -p wiki-store-testing-macros`, then read every diff.

#[test]
fn misuse_is_refused_with_a_clear_message() {
    trybuild::TestCases::new().compile_fail("tests/ui/*.rs");
}
