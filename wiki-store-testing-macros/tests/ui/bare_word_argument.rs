use wiki_store_testing_macros::backend_test;

#[backend_test(postgres)]
fn saves_a_page() {}

fn main() {}
