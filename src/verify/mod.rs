//! The verify stage: proves properties of forwarding tables from the tables
//! alone (reachability, up/down, deadlock freedom, quality). It never calls
//! an engine.

pub mod congestion;
