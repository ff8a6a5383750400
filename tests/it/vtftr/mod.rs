//! VTFTR on 2-D fat trees (seed `vtftr-…zh.txt`, `formats/vtftr.md`):
//! the paper's 8×8 single-fault case and the two detour classes worked by
//! hand (paths, SLs and VLs of named pairs, traced through the tables);
//! seeded fault sets checked against an independent oracle (hop count of
//! every pair from the fault positions alone; unroutable only when the
//! faults cover every row and column) and a petgraph credit-loop oracle;
//! ibdmchk on the emitted SL/SL2VL files; refusals.

mod by_hand;
mod cli;
mod seeded;
mod switches;

use routec::generate::ft2d::{Ft2dSpec, ft2d, leaf_guid};
use routec::model::{Fabric, Fault, LidMap, NO_ROUTE, NodeIdx, Routing};
use routec::route::vtftr::Vtftr;
use routec::route::{Engine, RouteOptions};

fn spec(n: u32, hosts: u32) -> Ft2dSpec {
    Ft2dSpec {
        nx: n,
        ny: n,
        hosts,
        rsw: 1,
        csw: 1,
    }
}

/// The n×n 2-D fat tree with the leaves at `faulty` (x, y) removed, routed.
fn routed(n: u32, hosts: u32, faulty: &[(u32, u32)]) -> (Fabric, LidMap, Routing) {
    let s = spec(n, hosts);
    let faults: Vec<Fault> = faulty
        .iter()
        .map(|&(x, y)| Fault::Switch(leaf_guid(&s, x, y)))
        .collect();
    let (f, _) = ft2d(&s).unwrap().apply_faults(&faults).unwrap();
    let lids = LidMap::new(&f).unwrap();
    let r = Vtftr.route(&f, &lids, &RouteOptions::default()).unwrap();
    (f, lids, r)
}

fn by_desc(f: &Fabric, desc: &str) -> NodeIdx {
    f.node_indices()
        .find(|&n| f.node(n).desc == desc)
        .unwrap_or_else(|| panic!("no node {desc}"))
}

/// The switches a packet from host `src` to host `dst` crosses, the VL of
/// each switch-to-switch hop, and the path's SL: read from the LFTs, the
/// path SLs and the SL2VL tables alone.
fn trace(f: &Fabric, r: &Routing, src: &str, dst: &str) -> (Vec<String>, Vec<u8>, u8) {
    let (s, d) = (by_desc(f, src), by_desc(f, dst));
    let dlid = f.port(d, 1).lid;
    let first = f.peer(s, 1).unwrap();
    let plan = r.vl_plan.as_ref().unwrap();
    let mut cur = f.switch_index(first.node).unwrap();
    let sl = plan.sl(cur.ix(), dlid);
    let (mut inp, mut names, mut vls) = (first.port, Vec::new(), Vec::new());
    for _ in 0..16 {
        let node = f.switch_node(cur);
        names.push(f.node(node).desc.clone());
        let out = r.lfts.get(cur.ix(), dlid);
        assert_ne!(
            out,
            NO_ROUTE,
            "{src} -> {dst} dropped at {}",
            f.node(node).desc
        );
        let peer = f.peer(node, out).unwrap();
        if peer.node == d {
            return (names, vls, sl);
        }
        vls.push(plan.sl2vl.vl(cur.ix(), inp, out, sl));
        cur = f.switch_index(peer.node).unwrap();
        inp = peer.port;
    }
    panic!("{src} -> {dst} loops: {names:?}")
}

fn strs(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}
