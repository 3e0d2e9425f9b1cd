use wiki_store_testing_macros::backend_test;

#[backend_test]
fn saves_a_page() -> Result<(), String> {
    Ok(())
}

fn main() {}
