//! The oracle: each (switch, CA LID) path followed hop by hop over the new
//! fabric's cables, up/down by the GUID's level or shortest by a BFS of its
//! own; asserts that an incremental result keeps every valid entry.

use std::collections::VecDeque;

use routec::model::{Fabric, LidMap, NO_ROUTE, SwIdx};

use super::{Rows, level};

#[derive(Clone, Copy)]
pub(super) enum Rule {
    /// Up/down by the PGFT level in the GUID.
    UpDown,
    /// As short as the fabric allows.
    Shortest,
}

/// Switch hops between every pair (the test's own BFS).
fn bfs_all(f: &Fabric) -> Vec<Vec<u32>> {
    let n = f.num_switches();
    (0..n)
        .map(|s| {
            let mut d = vec![u32::MAX; n];
            d[s] = 0;
            let mut q = VecDeque::from([s]);
            while let Some(u) = q.pop_front() {
                let node = f.switch_node(SwIdx(u as u32));
                for (_, peer) in f.switch_links(node) {
                    let t = f.switch_index(peer.node).unwrap().ix();
                    if d[t] == u32::MAX {
                        d[t] = d[u] + 1;
                        q.push_back(t);
                    }
                }
            }
            d
        })
        .collect()
}

/// The oracle: does the path from switch `s` to `lid` in `rows` reach the
/// LID's owner over live cables and keep `rule`?
fn path_ok(
    f: &Fabric,
    lids: &LidMap,
    rows: &Rows,
    s: usize,
    lid: u16,
    rule: Rule,
    d: &[Vec<u32>],
) -> bool {
    let owner = lids.owner(lid).unwrap();
    let leaf = f
        .peer(owner.node, owner.port)
        .and_then(|p| f.switch_index(p.node))
        .map(|x| x.ix());
    let (mut cur, mut down, mut hops) = (s, false, 0u32);
    loop {
        let n = f.switch_node(SwIdx(cur as u32));
        let g = f.node(n).guid;
        let Some(row) = rows.get(&g) else {
            return false;
        };
        let p = row.get(lid as usize).copied().unwrap_or(NO_ROUTE);
        if p == NO_ROUTE || p > f.node(n).num_ports {
            return false;
        }
        let Some(peer) = f.peer(n, p).filter(|q| q.node != n) else {
            return false;
        };
        let Some(t) = f.switch_index(peer.node) else {
            let reached = peer.node == owner.node && peer.port == owner.port;
            return reached
                && match rule {
                    Rule::UpDown => true,
                    Rule::Shortest => leaf.is_some_and(|l| d[s][l] == hops),
                };
        };
        if let Rule::UpDown = rule {
            let up = level(f.node(peer.node).guid) > level(g);
            if up && down {
                return false;
            }
            down |= !up;
        }
        hops += 1;
        if hops as usize > f.num_switches() {
            return false;
        }
        cur = t.ix();
    }
}

/// CA LIDs of the fabric.
fn ca_lids(f: &Fabric, lids: &LidMap) -> Vec<u16> {
    lids.iter()
        .filter(|(_, o)| !f.is_switch(o.node))
        .map(|(l, _)| l)
        .collect()
}

/// Entries (over `f`'s switches and CA LIDs) where `a` and `b` differ.
pub(super) fn differing(f: &Fabric, lids: &LidMap, a: &Rows, b: &Rows) -> usize {
    let mut n = 0;
    for &sw in f.switches() {
        let g = f.node(sw).guid;
        for lid in ca_lids(f, lids) {
            let x = a.get(&g).map_or(NO_ROUTE, |r| r[lid as usize]);
            let y = b.get(&g).map_or(NO_ROUTE, |r| r[lid as usize]);
            n += usize::from(x != y);
        }
    }
    n
}

/// Asserts the two properties on `inc` (incremental over `prev`), returns
/// the entries the incremental run changed.
pub(super) fn assert_incremental(
    f: &Fabric,
    lids: &LidMap,
    prev: &Rows,
    inc: &Rows,
    full: &Rows,
    rule: Rule,
) -> usize {
    let d = bfs_all(f);
    let (mut kept_checked, mut changed) = (0, 0);
    for (s, &sw) in f.switches().iter().enumerate() {
        let g = f.node(sw).guid;
        let leaf =
            (1..=f.node(sw).num_ports).any(|p| f.peer(sw, p).is_some_and(|q| !f.is_switch(q.node)));
        for lid in ca_lids(f, lids) {
            if leaf {
                assert!(
                    path_ok(f, lids, inc, s, lid, rule, &d),
                    "leaf {g} LID {lid}"
                );
            }
            // from a switch where the engine's own route breaks the promise
            // (Dmodc's escape hops at switches with no up-down path, used
            // only by traffic starting there), nothing better is asked
            assert!(
                path_ok(f, lids, inc, s, lid, rule, &d)
                    || !path_ok(f, lids, full, s, lid, rule, &d),
                "switch {g} LID {lid}: the incremental path breaks the promise"
            );
            let Some(old) = prev.get(&g).map(|r| r[lid as usize]) else {
                continue;
            };
            let new = inc[&g][lid as usize];
            changed += usize::from(old != new);
            if path_ok(f, lids, prev, s, lid, rule, &d) {
                kept_checked += 1;
                assert_eq!(new, old, "switch {g} LID {lid}: a valid entry was changed");
            }
        }
    }
    assert!(kept_checked > 0);
    changed
}
