//! Path diversity under LMC, from the tables alone: for every CA pair, how
//! many of the destination port's 2^LMC paths are pairwise link-disjoint.
//! The GM-2 mapper computes several routes per destination "for dispersive
//! routing … fault tolerance and hot spot avoidance" (seed
//! `myrinet-gm2-mapper.txt`, "Routing"); in IB those routes are the LFT
//! columns of a port's LIDs, and they only help when they differ. ibdmchk's
//! `-e` prints a similar "paths correlation" histogram in design mode.
//!
//! Only switch-to-switch links count (a pair's host links are shared by
//! every path). Paths depend on the source switch only, so the work is per
//! (source switch, destination port), weighted by the end ports on the
//! source switch. The largest disjoint subset is exact up to 16 paths (LMC
//! ≤ 4, a search over subsets); beyond, paths are taken greedily in offset
//! order, a lower bound (`exact: false`).

use rayon::prelude::*;
use serde::Serialize;

use crate::model::{Fabric, Lfts, LidMap, NO_ROUTE};
use crate::verify::topo::{Link, Topo};

/// Paths per pair up to which the disjoint count is exact.
const EXACT_UP_TO: usize = 16;

/// The diversity figures.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct PathDiversity {
    /// Largest LMC among end ports.
    pub max_lmc: u8,
    /// CA pairs on different switches with every path delivered.
    pub pairs: u64,
    /// `histogram[k]`: pairs whose largest set of pairwise link-disjoint
    /// paths has k paths (index 0 unused).
    pub histogram: Vec<u64>,
    /// Share of `pairs` with two or more disjoint paths (4 decimals).
    pub at_least_two: f64,
    /// Pairs on one switch (no switch link, left out).
    pub same_switch_pairs: u64,
    /// Pairs with a path that is not delivered within the hop limit.
    pub unrouted_pairs: u64,
    /// Whether every count is exact (false when some port has > 16 LIDs).
    pub exact: bool,
}

/// One destination port: delivering switch, base LID, LIDs.
struct Dest {
    sw: u32,
    lid: u16,
    count: u16,
}

/// Path diversity of `lfts`, or `None` when no end port has LMC > 0.
pub fn path_diversity(
    fabric: &Fabric,
    lids: &LidMap,
    lfts: &Lfts,
    hop_limit: u32,
) -> Option<PathDiversity> {
    let topo = Topo::new(fabric, lids);
    let dests: Vec<Dest> = lids
        .iter()
        .filter(|(_, o)| o.offset == 0 && !fabric.is_switch(o.node))
        .filter_map(|(lid, o)| {
            let t = topo.target.get(lid as usize).copied().flatten()?;
            (t.sw != u32::MAX).then(|| Dest {
                sw: t.sw,
                lid,
                count: fabric.port(o.node, o.port).lid_count(),
            })
        })
        .collect();
    let max_count = dests.iter().map(|d| d.count).max()?;
    if max_count < 2 {
        return None;
    }
    let sources: Vec<u32> = (0..topo.num_switches() as u32)
        .filter(|&s| topo.hosts[s as usize] > 0)
        .collect();
    let width = usize::from(max_count) + 1;
    let per_source: Vec<(Vec<u64>, u64, u64)> = sources
        .par_iter()
        .map(|&s| {
            let (mut hist, mut same, mut unrouted) = (vec![0u64; width], 0u64, 0u64);
            let c = u64::from(topo.hosts[s as usize]);
            let mut paths: Vec<Vec<u32>> = Vec::new();
            for d in &dests {
                if d.sw == s {
                    same += c - 1;
                    continue;
                }
                paths.clear();
                let all = (0..d.count).all(|k| {
                    walk(&topo, lfts, s, d.lid + k, hop_limit).is_some_and(|p| {
                        paths.push(p);
                        true
                    })
                });
                if all {
                    hist[most_disjoint(&paths)] += c;
                } else {
                    unrouted += c;
                }
            }
            (hist, same, unrouted)
        })
        .collect();
    let mut out = PathDiversity {
        max_lmc: max_count.trailing_zeros() as u8,
        histogram: vec![0; width],
        exact: usize::from(max_count) <= EXACT_UP_TO,
        ..Default::default()
    };
    for (hist, same, unrouted) in per_source {
        out.histogram
            .iter_mut()
            .zip(&hist)
            .for_each(|(a, b)| *a += b);
        out.same_switch_pairs += same;
        out.unrouted_pairs += unrouted;
    }
    out.pairs = out.histogram.iter().sum();
    let two: u64 = out.histogram.iter().skip(2).sum();
    out.at_least_two = (two as f64 / out.pairs.max(1) as f64 * 1e4).round() / 1e4;
    Some(out)
}

/// The directed switch links (slot ids) from switch `s` to `lid`, sorted,
/// or `None` when the walk is not delivered within `hop_limit` links.
fn walk(topo: &Topo, lfts: &Lfts, mut s: u32, lid: u16, hop_limit: u32) -> Option<Vec<u32>> {
    let mut links = Vec::new();
    loop {
        let p = lfts.get(s as usize, lid);
        if p == NO_ROUTE {
            return None;
        }
        match topo.link(s as usize, p)? {
            Link::Switch(t, _) => {
                if links.len() as u32 >= hop_limit {
                    return None;
                }
                links.push(topo.base[s as usize] + u32::from(p));
                s = t;
            }
            Link::End(..) => break,
            Link::None if p == 0 => break,
            Link::None => return None,
        }
    }
    let t = topo.target.get(lid as usize).copied().flatten()?;
    if t.sw != s {
        return None;
    }
    links.sort_unstable();
    Some(links)
}

/// Largest set of pairwise link-disjoint paths (each a sorted link list).
fn most_disjoint(paths: &[Vec<u32>]) -> usize {
    let n = paths.len();
    let disjoint = |a: &[u32], b: &[u32]| {
        let (mut i, mut j) = (0, 0);
        while i < a.len() && j < b.len() {
            match a[i].cmp(&b[j]) {
                std::cmp::Ordering::Less => i += 1,
                std::cmp::Ordering::Greater => j += 1,
                std::cmp::Ordering::Equal => return false,
            }
        }
        true
    };
    if n > EXACT_UP_TO {
        let mut chosen: Vec<usize> = Vec::new();
        for i in 0..n {
            if chosen.iter().all(|&j| disjoint(&paths[i], &paths[j])) {
                chosen.push(i);
            }
        }
        return chosen.len();
    }
    // conflict[i]: paths sharing a link with path i
    let conflict: Vec<u32> = (0..n)
        .map(|i| {
            (0..n)
                .filter(|&j| j != i && !disjoint(&paths[i], &paths[j]))
                .fold(0u32, |m, j| m | 1 << j)
        })
        .collect();
    best_independent(&conflict, (1u32 << n) - 1, 0)
}

/// Largest independent set within `left` (branch on the lowest path: take
/// it and drop its conflicts, or leave it out).
fn best_independent(conflict: &[u32], left: u32, taken: usize) -> usize {
    if left == 0 {
        return taken;
    }
    let i = left.trailing_zeros() as usize;
    let with = best_independent(conflict, left & !(1 << i) & !conflict[i], taken + 1);
    if conflict[i] & left == 0 {
        return with;
    }
    let without = if taken + (left.count_ones() as usize - 1) > with {
        best_independent(conflict, left & !(1 << i), taken)
    } else {
        0
    };
    with.max(without)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn most_disjoint_by_hand() {
        // 0 and 1 share link 5; 2 and 3 share nothing
        let p = |v: &[u32]| v.to_vec();
        let paths = [p(&[1, 5]), p(&[2, 5]), p(&[3, 7]), p(&[4, 8])];
        assert_eq!(most_disjoint(&paths), 3);
        let same = [p(&[1]), p(&[1]), p(&[1]), p(&[1])];
        assert_eq!(most_disjoint(&same), 1);
        // a 4-cycle of conflicts 0-1, 1-2, 2-3, 3-0: {0, 2} or {1, 3}
        let ring = [p(&[1, 4]), p(&[1, 2]), p(&[2, 3]), p(&[3, 4])];
        assert_eq!(most_disjoint(&ring), 2);
        assert_eq!(most_disjoint(&[p(&[])]), 1);
    }
}
