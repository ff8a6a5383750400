//! Generators of fabrics (PGFT) for tests, benchmarks and users.
