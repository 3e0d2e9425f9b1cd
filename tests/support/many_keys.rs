//! The request body that costs a JSON parser memory out of proportion to its size, shared by
//! the suite's memory-bound test and the fairness bench's peak-memory figure, so both measure
//! the same body.

/// A `tools/call` whose arguments are `keys` short keys: about 19 bytes each (700,000 keys make
/// a 13 MB body).
pub(crate) fn many_keys(keys: usize) -> String {
    let mut body = String::with_capacity(keys * 19 + 128);
    body.push_str(
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_document","arguments":{"#,
    );
    for i in 0..keys {
        if i > 0 {
            body.push(',');
        }
        body.push_str(&format!("\"key{i:012}\":0"));
    }
    body.push_str("}}}");
    body
}
