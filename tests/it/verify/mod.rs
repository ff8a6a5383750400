//! Verdicts of `verify_tables` on fixtures with known answers (OpenSM's own
//! tables on a ring and a fat tree, hand-broken copies), and a brute-force
//! oracle (per-pair tracing + petgraph) on random fabrics.

mod fat_tree;
mod oracle;
mod ring6;

pub(crate) use oracle::{brute_force, random_fabric};

use crate::common;

use std::path::Path;

use routec::model::rank::bfs_ranks;
use routec::model::{Fabric, Guid, Lfts, LidMap, SwIdx};

fn fixture(dir: &str, lfts: &str) -> (Fabric, LidMap, Lfts) {
    let d = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/verify")
        .join(dir);
    let (f, lids) = common::subnet_lst(&d.join("opensm-subnet.lst"));
    let t = common::lfts_for(&f, &lids, &d.join(lfts));
    (f, lids, t)
}

fn roots_ranks(f: &Fabric, dir: &str, file: &str) -> Vec<u32> {
    let d = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/verify")
        .join(dir);
    let roots: Vec<SwIdx> = std::fs::read_to_string(d.join(file))
        .unwrap()
        .lines()
        .filter_map(|l| Guid::parse(l.trim()))
        .filter_map(|g| f.node_by_guid(g).and_then(|n| f.switch_index(n)))
        .collect();
    bfs_ranks(f, &roots)
}
