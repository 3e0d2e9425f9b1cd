//! The reference's output statics, in one place: echo guards, the output budget, numbered lines,
//! line endings, locales, instants, sizes and result shapes. Tools compose these; none of them is
//! specific to one tool.

pub mod budget;
pub mod guard;
pub mod instant;
pub mod lines;
pub mod locale;
pub mod result;
pub mod size;
