//! A generator of large synthetic wikis, for benchmarks and load tests.
