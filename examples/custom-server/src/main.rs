//! `custom-server`: the whole `wiki-mcp` command line (serve, stdio, init, every admin command)
//! serving this crate's tools, and no bundled one.
//!
//! Linking the tool crate is what registers its tools: the server, `config set tools=` and
//! `tools` all read the registry of the binary that runs them.

use std::process::ExitCode;

use custom_server as _;

fn main() -> ExitCode {
    wiki_mcp_cli::main()
}
