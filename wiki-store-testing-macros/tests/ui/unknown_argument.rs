use wiki_store_testing_macros::backend_test;

#[backend_test(timeout = 5)]
async fn serves_a_call() {}

fn main() {}
