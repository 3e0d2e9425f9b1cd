//! The reference's output statics that any tool uses, in one place: echo guards, the output
//! budget, numbered lines, line endings, sizes and result shapes. Tools compose these; none of
//! them is specific to one tool or to wikis (locales and instants live with the wiki server).

pub mod budget;
pub mod guard;
pub mod lines;
pub mod result;
pub mod size;
