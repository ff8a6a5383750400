//! Dmodc's `spread` variant (`formats/dmodc.md` §5.1, issue 13 §3): on a
//! PGFT(2; 4,4; 1,4) whose fourth leaf lost its cable to the second spine,
//! the spine every leaf picks for every host, worked out by hand, beside
//! the paper's formulas; both variants equal on intact and sparse-only
//! fabrics.

use routec::generate::pgft::{PgftSpec, pgft};
use routec::model::{Fabric, Fault, LidMap, NodeIdx, PortRef};
use routec::route::dmodc::spread::Variant;
use routec::route::{Dmodc, Engine, RouteOptions, Routing};

fn route(f: &Fabric, variant: Variant) -> Routing {
    let lids = LidMap::new(f).unwrap();
    let opts = RouteOptions {
        dmodc_variant: variant,
        ..RouteOptions::default()
    };
    Dmodc::default().route(f, &lids, &opts).unwrap()
}

/// Switches whose description starts with `prefix`, by ascending GUID.
fn by_guid(f: &Fabric, prefix: &str) -> Vec<NodeIdx> {
    let mut v: Vec<NodeIdx> = f
        .switches()
        .iter()
        .copied()
        .filter(|&n| f.node(n).desc.starts_with(prefix))
        .collect();
    v.sort_by_key(|&n| f.node(n).guid);
    v
}

/// PGFT(2; 4,4; 1,4) without the cable between leaf 3 and spine 1.
fn faulted() -> Fabric {
    let f = pgft(&PgftSpec::new(2, &[4, 4], &[1, 4], None)).unwrap();
    let (leaf3, spine1) = (by_guid(&f, "L1")[3], by_guid(&f, "L2")[1]);
    let port = (1..f.ports(leaf3).len() as u8)
        .find(|&p| f.peer(leaf3, p).is_some_and(|q| q.node == spine1))
        .unwrap();
    let end = PortRef {
        guid: f.node(leaf3).guid,
        port,
    };
    f.apply_faults(&[Fault::Link { end, other: None }])
        .unwrap()
        .0
}

/// One line per leaf (GUID order): for hosts d = 0..15 (leaf GUID, leaf
/// port order), the index of the spine the leaf sends them to, `-` for
/// its own hosts.
fn spine_table(f: &Fabric, r: &Routing) -> String {
    let leaves = by_guid(f, "L1");
    let spines = by_guid(f, "L2");
    let sw_row = |n: NodeIdx| f.switch_index(n).unwrap().ix();
    let mut hosts: Vec<(NodeIdx, u16)> = Vec::new();
    for &l in &leaves {
        for p in 1..f.ports(l).len() as u8 {
            if let Some(q) = f.peer(l, p).filter(|q| f.is_endpoint(q.node)) {
                hosts.push((l, f.port(q.node, q.port).lid));
            }
        }
    }
    let mut out = String::new();
    for &l in &leaves {
        let cells: Vec<String> = hosts
            .iter()
            .map(|&(home, lid)| {
                if home == l {
                    return "-".into();
                }
                let port = r.lfts.get(sw_row(l), lid);
                let next = f.peer(l, port).unwrap().node;
                spines.iter().position(|&s| s == next).unwrap().to_string()
            })
            .collect();
        out += &cells.join(" ");
        out.push('\n');
    }
    out
}

/// By hand (Π = 1 at a leaf, nominal spines [0, 1, 2, 3] for every leaf):
/// an intact leaf keeps Dmodk's spine d mod 4 for every host of the intact
/// leaves; toward leaf 3, candidates [0, 2, 3], hosts 12, 14, 15 keep spines
/// 0, 2, 3 and host 13 (spine 1 gone) goes to the least-used candidate,
/// all used once, first from the paper's pick C[13 mod 3] = 2. Leaf 3 keeps
/// d mod 4 where that spine is a candidate; its displaced hosts 1, 5, 9
/// start from C[d mod 3] = 2, 3, 0 (all used once): spines 2, 3, 0. So
/// every host but 13 leaves every leaf toward one spine.
#[test]
fn spread_keeps_dmodks_spines_and_deals_only_the_displaced_hosts() {
    let f = faulted();
    let expected = "\
- - - - 0 1 2 3 0 1 2 3 0 2 2 3
0 1 2 3 - - - - 0 1 2 3 0 2 2 3
0 1 2 3 0 1 2 3 - - - - 0 2 2 3
0 2 2 3 0 3 2 3 0 0 2 3 - - - -
";
    assert_eq!(spine_table(&f, &route(&f, Variant::Spread)), expected);
}

/// The paper's formulas (`--dmodc-variant paper`): C[d mod #C] over the
/// candidates, so toward leaf 3 (C = [0, 2, 3]) and from leaf 3 (its up
/// groups [0, 2, 3]) every host is dealt anew, d mod 3.
#[test]
fn paper_variant_deals_every_host_anew() {
    let f = faulted();
    let expected = "\
- - - - 0 1 2 3 0 1 2 3 0 2 3 0
0 1 2 3 - - - - 0 1 2 3 0 2 3 0
0 1 2 3 0 1 2 3 - - - - 0 2 3 0
0 2 3 0 2 3 0 2 3 0 2 3 - - - -
";
    assert_eq!(spine_table(&f, &route(&f, Variant::Paper)), expected);
}

/// Where every candidate set is the switch's whole up set, nothing is
/// displaced: intact PGFTs and PGFTs with only empty host ports (hosts
/// taken out) route byte for byte as the paper's formulas, so the
/// `runs.rs` fast path stays exact.
#[test]
fn variants_agree_without_cable_faults() {
    let shapes = [
        PgftSpec::new(2, &[4, 4], &[1, 4], None),
        PgftSpec::new(3, &[4, 4, 8], &[1, 4, 4], Some(&[1, 2, 1])),
    ];
    for spec in shapes {
        let f = pgft(&spec).unwrap();
        let gone: Vec<Fault> = f
            .node_indices()
            .filter(|&n| f.is_endpoint(n))
            .enumerate()
            .filter(|(i, _)| i % 5 == 1 || i % 7 == 3)
            .map(|(_, n)| Fault::Node(f.node(n).guid))
            .collect();
        let sparse = f.apply_faults(&gone).unwrap().0;
        for g in [&f, &sparse] {
            let spread = route(g, Variant::Spread);
            assert_eq!(spread.lfts, route(g, Variant::Paper).lfts);
        }
    }
}
