//! Generators of fabrics for tests, benchmarks and users: PGFTs (with the
//! features of real fat trees), tori and meshes, dragonflies, 2-D fat
//! trees; random fault lists; multicast patterns.

pub mod dragonfly;
pub mod faults;
pub mod features;
pub mod ft2d;
pub mod mcast_pattern;
pub mod net;
pub mod pgft;
pub mod torus;
