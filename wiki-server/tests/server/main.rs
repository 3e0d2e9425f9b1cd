//! The server core through its public surface: the manager over a real SQLite farm in a temp
//! dir, and the rmcp handler driven by rmcp's client over an in-process pipe.

mod calls;
mod doors;
mod harness;
mod list_wikis;
mod logs;
mod man;
mod manager;
mod signals;
mod tools;
