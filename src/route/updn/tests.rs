//! Tests of the up/down engine: roots (none found, all, top, non-switch
//! GUIDs), its tables against min-hop's, the direction rule.

use super::*;
use crate::model::{FabricBuilder, Guid, NodeKind, NodeSpec};
use crate::route::minhop::MinHop;
use crate::route::opensm::testfab;

fn route(f: &Fabric, roots: RootSpec) -> Result<Routing, RouteError> {
    let lids = LidMap::new(f).unwrap();
    UpDown.route(
        f,
        &lids,
        &RouteOptions {
            roots,
            node_order: None,
            ..Default::default()
        },
    )
}

/// OpenSM found no root on `irr` and fell back to minhop (its log says
/// "minhop tables configured"); routec stops and says what to do.
#[test]
fn no_root_found_is_an_error_with_advice() {
    let e = route(&testfab::opensm_fixture("irr", "updn"), RootSpec::Auto).unwrap_err();
    assert!(e.message.contains("no root"), "{}", e.message);
    assert!(e.help.unwrap().contains("--roots top"));
}

/// 24 leaves with one host each and 2 spines: every switch passes the
/// histogram test (a leaf sees 1/24 < 5 % at hop 0 and 23/24 > 90 % at
/// hop 2), so up/down is min-hop; routec says so loudly.
#[test]
fn all_roots_is_reported_and_equals_minhop() {
    let mut b = FabricBuilder::new();
    let spines: Vec<_> = (0..2)
        .map(|i| {
            b.add_node(NodeSpec::new(
                NodeKind::Switch,
                Guid(0x900 + i),
                24,
                "spine",
            ))
            .unwrap()
        })
        .collect();
    for l in 0..24u64 {
        let leaf = b
            .add_node(NodeSpec::new(NodeKind::Switch, Guid(0x100 + l), 3, "leaf"))
            .unwrap();
        b.port_mut(leaf, 0).unwrap().lid = 1 + l as u16;
        for (j, &s) in spines.iter().enumerate() {
            b.connect(leaf, 2 + j as u8, s, 1 + l as u8).unwrap();
        }
        let h = b
            .add_node(NodeSpec::new(NodeKind::Ca, Guid(0x1000 + (l << 4)), 1, "h"))
            .unwrap();
        let p = b.port_mut(h, 1).unwrap();
        p.guid = Guid(0x1001 + (l << 4));
        p.lid = 100 + l as u16;
        b.connect(h, 1, leaf, 1).unwrap();
    }
    for (j, &s) in spines.iter().enumerate() {
        b.port_mut(s, 0).unwrap().lid = 50 + j as u16;
    }
    let f = b.build();
    let r = route(&f, RootSpec::Auto).unwrap();
    assert_eq!(r.roots.len(), 26);
    assert!(
        r.notes
            .iter()
            .any(|n| n.code == "R001" && n.message.contains("--roots top"))
    );
    let lids = LidMap::new(&f).unwrap();
    let m = MinHop.route(&f, &lids, &RouteOptions::default()).unwrap();
    assert_eq!(r.lfts, m.lfts);
    let top = route(&f, RootSpec::Top).unwrap();
    assert_eq!(top.roots.iter().map(|s| s.0).collect::<Vec<_>>(), [0, 1]);
    assert!(top.notes.is_empty());
}

/// `--roots top` on the 3-level tree picks the 4 top switches (L3…),
/// the same roots as OpenSM's heuristic there, so the same tables.
#[test]
fn top_roots_are_the_highest_level() {
    let f = testfab::opensm_fixture("ft3", "updn");
    let top = route(&f, RootSpec::Top).unwrap();
    assert_eq!(top.roots.len(), 4);
    assert!(
        top.roots
            .iter()
            .all(|&s| f.node(f.switch_node(s)).desc.starts_with("L3"))
    );
    let auto = route(&f, RootSpec::Auto).unwrap();
    assert_eq!(auto.roots, top.roots);
    assert_eq!(auto.lfts, top.lfts);
    let ranks = top.promise.up_down_ranks.unwrap();
    assert!(top.roots.iter().all(|s| ranks[s.ix()] == 0));
    assert_eq!(ranks.iter().max(), Some(&2));
}

/// Root GUIDs that are not switches are ignored (as OpenSM's
/// `rank_root_node` does) and reported; none left is an error.
#[test]
fn non_switch_root_guids_are_ignored() {
    let f = testfab::line_with_island();
    let r = route(&f, RootSpec::Guids(vec![Guid(2), Guid(0x100), Guid(0x77)])).unwrap();
    assert_eq!(r.roots, [SwIdx(1)]);
    assert!(
        r.notes
            .iter()
            .any(|n| n.code == "R003" && n.message.starts_with("2 root"))
    );
    let e = route(&f, RootSpec::Guids(vec![Guid(0x100)])).unwrap_err();
    assert!(e.message.contains("no GUID"));
}

/// The direction rule of `updn_get_dir`.
#[test]
fn direction_rule() {
    assert!(is_up(0, 0, 1, 2));
    assert!(!is_up(1, 2, 9, 1));
    assert!(is_up(2, 1, 1, 9));
    assert!(is_up(3, 3, 5, 4));
    assert!(!is_up(3, 3, 4, 5));
}
