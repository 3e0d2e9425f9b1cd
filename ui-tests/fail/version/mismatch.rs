// What every expansion of macros of another version than the runtime's evaluates: a tool crate
// that depends on mcp-macros directly, at a version the runtime is not, reads this message.
const _: () = mcp_runtime::__private::expect_macros_version("0.0.0-other");

fn main() {}
