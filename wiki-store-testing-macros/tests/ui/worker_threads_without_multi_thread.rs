use wiki_store_testing_macros::backend_test;

#[backend_test(worker_threads = 4)]
async fn serves_a_call() {}

fn main() {}
