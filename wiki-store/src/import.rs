//! Import of a directory of Markdown files into a wiki.
