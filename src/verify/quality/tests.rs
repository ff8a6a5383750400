//! The route memo (`memo.rs`) against walking every pair through the tables:
//! the same loads, pair counts and hops, for any tables — random ones on a
//! ring with chords, which deliver some routes after many links (the memo's
//! second, wider build), loop on others and hit holes.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::{Walker, all_to_all, random, shifts};
use crate::model::{Fabric, Lfts, LidMap, NO_ROUTE};
use crate::verify::congestion::topological_nodes;

/// Switches 0..8 in a ring (port 3 → next, 4 → previous, 5 → the switch
/// four ahead), two hosts on ports 1–2 of each.
fn ring() -> Fabric {
    crate::verify::test_ring::ring(8, |i| i < 4, |_| true)
}

/// At a host's own switch its port (mostly), elsewhere a random ring or
/// chord port, and now and then a hole: random walks that end.
fn random_tables(f: &Fabric, seed: u64) -> Lfts {
    let lids = LidMap::new(f).unwrap();
    let mut t = Lfts::new(f.num_switches(), lids.max_lid());
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for e in topological_nodes(f) {
        let lid = f.port(e.node, e.port).lid;
        let leaf = f.peer(e.node, e.port).unwrap();
        let leaf_ix = f.switch_index(leaf.node).unwrap().ix();
        for s in 0..f.num_switches() {
            let p = match rng.random_range(0..16u8) {
                0 => NO_ROUTE,
                _ if s == leaf_ix && rng.random_bool(0.7) => leaf.port,
                r => 3 + r % 3,
            };
            t.set(s, lid, p);
        }
    }
    t
}

#[test]
fn the_route_memo_and_the_walk_agree_on_any_tables() {
    let f = ring();
    let lids = LidMap::new(&f).unwrap();
    let nodes = topological_nodes(&f);
    let (mut longest, mut holes, mut loops) = (0, 0, 0);
    for seed in 0..20 {
        let t = random_tables(&f, seed);
        let walked = Walker::new(&f, &lids, &t, &nodes, 64);
        let mut memo = Walker::new(&f, &lids, &t, &nodes, 64);
        memo.memoize();
        assert!(memo.memo.is_some(), "a small fabric is memoized");
        assert_eq!(shifts(&memo), shifts(&walked), "seed {seed}");
        assert_eq!(random(&memo, 5, seed), random(&walked, 5, seed));
        let (a, b) = (all_to_all(&memo), all_to_all(&walked));
        assert_eq!((&a.load, &a.up, &a.hops), (&b.load, &b.up, &b.hops));
        assert_eq!(
            (a.unrouted, a.over_hop_limit),
            (b.unrouted, b.over_hop_limit)
        );
        longest = longest.max(a.hops.len().saturating_sub(1));
        holes += a.unrouted;
        loops += a.over_hop_limit;
    }
    assert!(
        longest > 4,
        "some routes need the wider memo (longest {longest})"
    );
    assert!(
        holes > 0 && loops > 0,
        "{holes} unrouted, {loops} looping pairs"
    );
}

/// The max host load taken from `distinct_ends` (1 once a pair is
/// delivered) against counting every host link pair by pair, on tables
/// that leave some permutations with no delivered pair at all.
#[test]
fn the_host_link_shortcut_matches_counting_host_links() {
    let f = ring();
    let lids = LidMap::new(&f).unwrap();
    let nodes = topological_nodes(&f);
    let mut empty = 0;
    for seed in 0..10 {
        let t = random_tables(&f, seed);
        let short = Walker::new(&f, &lids, &t, &nodes, 64);
        assert!(short.distinct_ends, "topological end ports are distinct");
        let mut counted = Walker::new(&f, &lids, &t, &nodes, 64);
        counted.count_host_links();
        let (a, b) = (shifts(&short), shifts(&counted));
        assert_eq!(a, b, "seed {seed}");
        assert_eq!(random(&short, 5, seed), random(&counted, 5, seed));
        assert!(b.iter().all(|p| p.max_host <= 1));
        empty += b.iter().filter(|p| p.max_host == 0).count();
    }
    let holes = Lfts::new(f.num_switches(), lids.max_lid());
    let counted = {
        let mut w = Walker::new(&f, &lids, &holes, &nodes, 64);
        w.count_host_links();
        shifts(&w)
    };
    assert_eq!(shifts(&Walker::new(&f, &lids, &holes, &nodes, 64)), counted);
    empty += counted.iter().filter(|p| p.max_host == 0).count();
    assert!(empty > 0, "some permutation delivers nothing");
}

/// Two order entries for one end port share its host links: the walker
/// counts them instead of taking the shortcut.
#[test]
fn a_repeated_end_port_is_counted_not_assumed() {
    let f = ring();
    let lids = LidMap::new(&f).unwrap();
    let mut nodes = topological_nodes(&f);
    nodes.push(nodes[0]);
    let mut most = 0;
    for seed in 0..10 {
        let t = random_tables(&f, seed);
        let w = Walker::new(&f, &lids, &t, &nodes, 64);
        assert!(!w.distinct_ends);
        most = most.max(shifts(&w).iter().map(|p| p.max_host).max().unwrap());
    }
    assert_eq!(most, 2, "the shared switch → CA link carries two pairs");
}

/// The sliding-window shifts against pair by pair (routes from the memo,
/// from bands walked per chunk, or walked one by one), chunk lengths from
/// one shift (every chunk loaded in full) to all of them, in node orders whose
/// leaf runs are long (the topological order), broken (reversed halves)
/// and single nodes (interleaved leaves), on tables that deliver, loop and
/// hit holes.
#[test]
fn sliding_shift_windows_match_pair_by_pair() {
    let f = ring();
    let lids = LidMap::new(&f).unwrap();
    let topo = topological_nodes(&f);
    let n = topo.len();
    let mut halves = topo.clone();
    halves[..n / 2].reverse();
    let interleaved: Vec<_> = (0..n).map(|i| topo[(i % 2) * (n / 2) + i / 2]).collect();
    let (mut loops, mut holes, mut peak, mut drops) = (0, 0, 0, 0);
    for seed in 0..12 {
        let t = random_tables(&f, seed);
        // a hop limit of 4 keeps every route within a band's entry, so
        // the unmemoized runs slide on bands (`Band`), not on walks
        let hop_limit = if seed % 4 == 0 { 4 } else { 64 };
        for nodes in [&topo, &halves, &interleaved] {
            let mut w = Walker::new(&f, &lids, &t, nodes, hop_limit);
            if seed % 2 == 1 {
                w.memoize();
            }
            let want = super::perms::shifts_pair_by_pair(&w);
            for chunk in [1, 3, 7, n] {
                assert_eq!(super::slide::shifts(&w, chunk), want, "seed {seed}");
            }
            loops += want.iter().map(|p| p.over_hop_limit).sum::<u64>();
            holes += want.iter().map(|p| p.unrouted).sum::<u64>();
            peak = peak.max(want.iter().map(|p| p.max_switch).max().unwrap());
            drops += want
                .windows(2)
                .filter(|p| p[1].max_switch < p[0].max_switch)
                .count();
        }
    }
    assert!(loops > 0 && holes > 0, "{loops} looping, {holes} unrouted");
    assert!(
        drops > 0,
        "the largest load falls from one shift to the next"
    );
    assert!(peak >= 3, "some shift crowds a link ({peak})");
}
