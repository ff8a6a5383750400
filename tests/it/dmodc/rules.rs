//! Dmodc's rules on hand-made fabrics: up*/down* routes by the down-path
//! variant, escapes over level cables, refused fabrics named, switch LIDs,
//! port groups by neighbour GUID.

use super::*;

/// Every CA pair routes to its destination along an up*down* path of the
/// engine's ranks; every switch has an entry for every CA LID (switches
/// without an up-down path by fallback hops; switches cut off from every
/// leaf, another component, excepted).
pub(super) fn assert_complete_up_down(f: &Fabric, r: &Routing) {
    let ranks = r.promise.up_down_ranks.as_ref().unwrap();
    let nodes = topological_nodes(f);
    for s in f.switches() {
        let sw = f.switch_index(*s).unwrap();
        if ranks[sw.ix()] == routec::model::rank::UNRANKED {
            assert!(r.notes.iter().any(|n| n.code == "D001"));
            continue;
        }
        let row = r.lfts.row(sw.ix());
        for e in &nodes {
            assert_ne!(
                row[f.port(e.node, e.port).lid as usize],
                NO_ROUTE,
                "{}",
                f.node(*s).desc
            );
        }
    }
    for &a in &nodes {
        for &b in &nodes {
            if a == b {
                continue;
            }
            let mut seq: Vec<u32> = Vec::new();
            let lid = f.port(b.node, b.port).lid;
            trace(f, &r.lfts, a, lid, |n, _| {
                if let Some(s) = f.switch_index(n) {
                    seq.push(ranks[s.ix()]);
                }
            })
            .unwrap_or_else(|e| panic!("{a:?} -> {b:?}: {e:?}"));
            // Promise ranks count from the top: going up lowers the rank.
            let mut down = false;
            for w in seq.windows(2) {
                match w[1].cmp(&w[0]) {
                    std::cmp::Ordering::Less => assert!(!down, "{a:?} -> {b:?}: ranks {seq:?}"),
                    std::cmp::Ordering::Greater => down = true,
                    std::cmp::Ordering::Equal => panic!("same-rank hop {seq:?}"),
                }
            }
        }
    }
}

#[test]
fn down_path_variant_avoids_down_up_turns() {
    // Fat-tree-like, not a PGFT: s (rank 2) sees v below it with cost 3 to
    // T (via v → u → w → T, an up path from v) and t above it with cost 3.
    // Plain formula (1) would list v first (lower GUID) and node d = 0 would
    // go down to v and then up; the down-path variant keeps only t.
    let mut h = Hand::new();
    h.sw(0x1, 4).sw(0x2, 4).sw(0x3, 4); // leaves T, A, B
    h.sw(0x10, 4).sw(0x11, 4).sw(0x12, 4); // v, x, w
    h.sw(0x20, 4).sw(0x21, 4).sw(0x22, 4); // u, s, y
    h.sw(0x30, 4); // t
    h.host(0x100, 0x1, 4)
        .host(0x200, 0x2, 4)
        .host(0x300, 0x3, 4);
    h.cable(0x2, 1, 0x10, 1)
        .cable(0x3, 1, 0x11, 1)
        .cable(0x1, 1, 0x12, 1);
    h.cable(0x10, 2, 0x20, 1).cable(0x12, 2, 0x20, 2);
    h.cable(0x10, 3, 0x21, 1).cable(0x11, 2, 0x21, 2);
    h.cable(0x12, 3, 0x22, 1);
    h.cable(0x21, 3, 0x30, 1).cable(0x22, 2, 0x30, 2);
    let f = h.build();
    let r = route(&f);
    let s = sw_of(&f, 0x21).ix();
    assert_eq!(r.lfts.get(s, host_lid(&f, 0x100)), 3, "s must go up to t");
    assert_complete_up_down(&f, &r);
}

#[test]
fn leaves_joined_by_a_level_cable_escape_over_it() {
    // Two leaves with no common ancestor, joined by one cable: no up-down
    // path, so each reaches the other's host by an escape hop over the
    // cable (port 1); two switches close no cycle, so one VL does.
    let mut h = Hand::new();
    h.sw(0x1, 4)
        .sw(0x2, 4)
        .host(0x100, 0x1, 4)
        .host(0x200, 0x2, 4);
    h.cable(0x1, 1, 0x2, 1);
    let f = h.build();
    let r = route(&f);
    assert_eq!(r.lfts.get(sw_of(&f, 0x1).ix(), host_lid(&f, 0x200)), 1);
    assert_eq!(r.lfts.get(sw_of(&f, 0x2).ix(), host_lid(&f, 0x100)), 1);
    assert!(r.promise.up_down_ranks.is_none() && r.vl_plan.is_none());
    let d005 = r.notes.iter().find(|n| n.code == "D005").expect("D005");
    assert!(d005.message.contains("(2 leaf pairs)"), "{}", d005.message);
    assert!(d005.message.contains("1 VL(s) in all"), "{}", d005.message);
}

#[test]
fn leaves_with_no_path_at_all_are_an_error_naming_them() {
    let mut h = Hand::new();
    h.sw(0x1, 4)
        .sw(0x2, 4)
        .host(0x100, 0x1, 4)
        .host(0x200, 0x2, 4);
    let e = route_err(&h.build());
    assert!(
        e.message
            .contains("(2 ordered leaf switch pairs) have no path at all"),
        "{}",
        e.message
    );
    assert!(
        e.message
            .contains("0x0000000000000001 -> 0x0000000000000002"),
        "{}",
        e.message
    );
}

#[test]
fn switch_lids_route_up_down_or_by_escape() {
    let f = pgft(&PgftSpec::new(2, &[2, 4], &[1, 2], None)).unwrap();
    let r = route(&f);
    let ranks = r.promise.up_down_ranks.clone().unwrap();
    let leaf = NodeIdx(0);
    let leaf_sw = f.switch_index(leaf).unwrap();
    for &t in f.switches() {
        let lid = f.switch_lid(t);
        let own = f.switch_index(t).unwrap();
        assert_eq!(r.lfts.get(own.ix(), lid), 0);
        // A leaf reaches every switch: up to any top, down to any leaf.
        let out = r.lfts.get(leaf_sw.ix(), lid);
        if t != leaf {
            assert_ne!(out, NO_ROUTE, "leaf -> {}", f.node(t).guid);
        }
    }
    // Two top switches never reach each other up-down: an escape hop down
    // to a leaf (all four have escape length 1: C = the four down groups;
    // the other top is d = N + t = 8 + 5 = 13, Π = 2, ⌊13/2⌋ mod 4 = 2 →
    // the third leaf, port 3), whose up port 4 leads to the other top
    // switch. Reported as D002; the leaves' own routes stay up-down.
    let tops: Vec<_> = f
        .switches()
        .iter()
        .filter(|s| ranks[f.switch_index(**s).unwrap().ix()] == 0)
        .collect();
    let (a, b) = (f.switch_index(*tops[0]).unwrap(), *tops[1]);
    assert_eq!(r.lfts.get(a.ix(), f.switch_lid(b)), 3);
    assert_eq!(r.lfts.get(leaf_sw.ix(), f.switch_lid(b)), 4);
    let d002 = r.notes.iter().find(|n| n.code == "D002").expect("D002");
    assert!(d002.message.starts_with("2 entries"), "{}", d002.message);
    assert!(r.notes.iter().all(|n| n.code != "D004"));
}

#[test]
fn groups_follow_neighbour_guid_not_port_number() {
    // Leaf A reaches leaf B through X (GUID 0x31, ports 1–2) and W (GUID
    // 0x30, ports 3–4): W's group comes first although its ports are higher.
    // A's Π = 1, #C = 2: d → group d mod 2, port ⌊d/2⌋ mod 2.
    let mut h = Hand::new();
    h.sw(0x1, 8).sw(0x2, 8).sw(0x30, 4).sw(0x31, 4);
    h.cable(0x1, 1, 0x31, 1)
        .cable(0x1, 2, 0x31, 2)
        .cable(0x1, 3, 0x30, 1)
        .cable(0x1, 4, 0x30, 2);
    h.cable(0x2, 1, 0x30, 3).cable(0x2, 2, 0x31, 3);
    // B's hosts come after A's one in the default order: d = 1..=4.
    h.host(0x100, 0x1, 8);
    for (i, g) in [0x200u64, 0x300, 0x400, 0x500].into_iter().enumerate() {
        h.host(g, 0x2, 4 + i as u8);
    }
    let f = h.build();
    let r = route(&f);
    let a = sw_of(&f, 0x1).ix();
    let ports: Vec<u8> = [0x200, 0x300, 0x400, 0x500]
        .iter()
        .map(|&g| r.lfts.get(a, host_lid(&f, g)))
        .collect();
    // d = 1: X port 1; d = 2: W port 4 (⌊2/2⌋ = 1); d = 3: X port 2; d = 4: W port 3.
    assert_eq!(ports, vec![1, 4, 2, 3]);
}
