use wiki_store_testing_macros::backend_test;

#[backend_test]
async fn serves_a_call(farm: &Farm) {}

fn main() {}
