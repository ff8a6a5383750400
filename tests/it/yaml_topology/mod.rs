//! routec's YAML topology: the hand-written fixture, the writer's round
//! trip, and one test per class of bad input (line, column and message).
//!
//! This file holds the fixture and the node lookup the submodules share.

mod errors;
mod reading;
mod round_trip;
mod spec;

use routec::model::{Fabric, Guid};
use routec::parse::yaml::parse_topology;

fn fixture() -> (String, Fabric) {
    let text = std::fs::read_to_string("fixtures/yaml/two-level.yaml").unwrap();
    let f = parse_topology("two-level.yaml", &text).unwrap();
    (text, f)
}

fn node(f: &Fabric, g: u64) -> routec::model::NodeIdx {
    f.node_by_guid(Guid(g)).unwrap()
}
