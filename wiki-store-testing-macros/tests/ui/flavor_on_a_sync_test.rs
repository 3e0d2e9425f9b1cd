use wiki_store_testing_macros::backend_test;

#[backend_test(flavor = "multi_thread")]
fn saves_a_page() {}

fn main() {}
