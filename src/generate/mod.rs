//! Generators of fabrics (PGFT) for tests, benchmarks and users.

pub mod faults;
pub mod mcast_pattern;
pub mod pgft;
