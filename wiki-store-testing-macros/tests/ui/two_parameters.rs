use wiki_store_testing_macros::backend_test;

#[backend_test]
fn saves_a_page(db: &Fixture, other: &Fixture) {}

fn main() {}
