//! Loads worked by hand on the 2-leaf, 2-spine fat tree: D-mod-k tables
//! congestion-free, one spine doubling the load, holes and loops counted,
//! and the node order changing the shifts.

use routec::model::NO_ROUTE;
use routec::verify::congestion::topological_nodes;
use routec::verify::quality::LoadCount;

use super::{host_lid, report, sw, tables, tiny};

#[test]
fn dmodk_tables_on_the_tiny_tree_are_congestion_free() {
    let f = tiny();
    let r = report(
        &f,
        &tables(&f, |d| 3 + (d % 2) as u8),
        &topological_nodes(&f),
    );
    let s = r.shift.as_ref().unwrap();
    // k=1: 0→1 and 2→3 stay on their leaf; 1→2 goes up spine 0 (d=2 even),
    // 3→0 up spine 0 from the other leaf: four distinct links, load 1.
    // k=2: 0→2 (spine 0), 1→3 (spine 1), 2→0 (spine 0), 3→1 (spine 1).
    // k=3: 0→3 and 2→1 over spine 1. So every shift has max load 1.
    assert_eq!(s.permutations, 3);
    assert_eq!(s.max_switch_load, 1);
    assert_eq!(s.histogram, vec![LoadCount { load: 1, count: 3 }]);
    assert_eq!(s.max_host_load, 1);
    // Each up link leaf→spine x carries only the one remote host with
    // parity x, so *every* permutation is congestion-free here.
    let rnd = r.random.as_ref().unwrap();
    assert_eq!((rnd.permutations, rnd.max_switch_load), (20, 1));
    // All-to-all: leaf 0x10's sources {0,1} to host 2 go via spine 0 and to
    // host 3 via spine 1: 2 pairs per up link, and 2 per down link likewise.
    // Bound: n·(N−n)/uplinks = 2·2/2 = 2, so the ratio is 1. Host links:
    // each host sends to and receives from 3 others.
    let a = r.all_to_all.as_ref().unwrap();
    assert_eq!((a.pairs, a.efi_switch, a.efi_host), (12, 2, 3));
    assert_eq!((a.lower_bound_switch, a.ratio), (2.0, Some(1.0)));
    // 4 same-leaf ordered pairs with 0 switch hops, 8 with 2 (leaf-spine-leaf):
    // mean 16/12.
    assert_eq!(r.hops.histogram, vec![4, 0, 8]);
    assert_eq!((r.hops.min, r.hops.max, r.hops.mean), (0, 2, 1.3333));
}

#[test]
fn one_spine_tables_double_the_load() {
    let f = tiny();
    let r = report(&f, &tables(&f, |_| 3), &topological_nodes(&f));
    let s = r.shift.as_ref().unwrap();
    // Everything climbs to spine 0x20. k=2: 0→2 and 1→3 both take
    // 0x10:3 → 0x20:1 and then 0x20:2 → 0x11:3, so load 2 (and 2→0, 3→1
    // the reverse links); k=1 and k=3 have one cross pair per direction.
    assert_eq!(s.max_switch_load, 2);
    assert_eq!(
        s.histogram,
        vec![
            LoadCount { load: 1, count: 2 },
            LoadCount { load: 2, count: 1 }
        ]
    );
    assert_eq!(s.worst, vec![2]);
    // All-to-all: the 2·2 pairs from leaf 0x10 to leaf 0x11 share the one
    // link 0x10 port 3 → 0x20: EFI 4, twice the bound of 2.
    let a = r.all_to_all.as_ref().unwrap();
    assert_eq!((a.efi_switch, a.ratio), (4, Some(2.0)));
    let w = a.worst_link.as_ref().unwrap();
    assert_eq!((w.from.as_str(), w.port), ("0x0000000000000010", 3));
    assert_eq!((w.to.as_str(), w.to_port), ("0x0000000000000020", 1));
}

#[test]
fn holes_and_loops_are_counted_not_followed() {
    let f = tiny();
    let mut t = tables(&f, |d| 3 + (d % 2) as u8);
    let lid3 = host_lid(&f, 3);
    // Leaf 0x10 has no entry for host 3: the pairs 0→3 and 1→3 fail.
    t.set(sw(&f, 0x10), lid3, NO_ROUTE);
    let r = report(&f, &t, &topological_nodes(&f));
    let a = r.all_to_all.as_ref().unwrap();
    assert_eq!((a.unrouted_pairs, a.over_hop_limit_pairs), (2, 0));
    // In the shifts, 1→3 is shift 2 and 0→3 shift 3.
    assert_eq!(r.shift.as_ref().unwrap().unrouted_pairs, 2);
    assert_eq!(r.hops.pairs, 10);
    // Leaf 0x10 → spine 0x21 → back to leaf 0x10 for host 3: a loop.
    t.set(sw(&f, 0x10), lid3, 4);
    t.set(sw(&f, 0x21), lid3, 1);
    let r = report(&f, &t, &topological_nodes(&f));
    let a = r.all_to_all.as_ref().unwrap();
    // Host 2 (on leaf 0x11) sends to 3 locally; 0 and 1 loop.
    assert_eq!((a.unrouted_pairs, a.over_hop_limit_pairs), (0, 2));
    assert_eq!(r.shift.as_ref().unwrap().over_hop_limit_pairs, 2);
}

#[test]
fn node_order_changes_the_shifts() {
    let f = tiny();
    let t = tables(&f, |d| 3 + (d % 2) as u8);
    let n = topological_nodes(&f);
    // Order h0, h2, h1, h3: shift 2 maps 0→1, 2→3, 1→0, 3→2, all on-leaf.
    let r = report(&f, &t, &[n[0], n[2], n[1], n[3]]);
    let s = r.shift.unwrap();
    assert_eq!(
        s.histogram,
        vec![
            LoadCount { load: 0, count: 1 },
            LoadCount { load: 1, count: 2 }
        ]
    );
}
