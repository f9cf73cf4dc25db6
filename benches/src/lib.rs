//! Criterion benchmarks for zermelo live in `benches/benches/`; this crate has no library code.
