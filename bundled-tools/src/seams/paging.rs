//! The one convention for an `offset` past the end of a paged list: an error (`isError`) that
//! says how many there are and which offsets work, as query_documents has always answered.
//! A page of nothing is never a success: an agent that paged too far learns it at once instead
//! of reading an empty result as "no more data" or "no matches".

use wiki_tool_sdk::prelude::*;

/// `Error: 'offset' 40 is past the last object (30 objects). Use an offset below 30.`; `one`
/// names one item, `count` says how many there are (`30 objects`, `30 matching documents`).
pub(crate) fn offset_past_end(offset: usize, total: usize, one: &str, count: &str) -> ToolError {
    ToolError::new(format!(
        "Error: 'offset' {offset} is past the last {one} ({count}). Use an offset below {total}."
    ))
    .with_kind(ErrorKind::BadArgument)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_the_parameter_the_total_and_the_fix() {
        assert_eq!(
            offset_past_end(40, 30, "object", "30 matching objects").message(),
            "Error: 'offset' 40 is past the last object (30 matching objects). Use an offset \
             below 30."
        );
    }
}
