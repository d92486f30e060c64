//! Shared helpers for the Cotuong benchmarks (positions to measure on).
