//! Route quality under traffic patterns (issue 6 check 4, algorithms.md §4):
//! maximum link load of every shift permutation, of seeded random
//! permutations, and of all-to-all (the edge forwarding index), plus hop
//! counts. Read from the tables only, like the rest of `verify`.
//!
//! Two passes share one walker over the flat switch-port arrays of
//! `Topo` (`formats/quality-report.md` gives the costs):
//! * permutations are traced pair by pair, one permutation per rayon task,
//!   with a reused load vector; the result is collected in permutation
//!   order, so it does not depend on the thread count;
//! * all-to-all and hop counts use destination-based routing: every source
//!   on one leaf switch follows the same route to a destination, so the
//!   route from each leaf is walked once per destination and weighted by
//!   the number of sources on that leaf (O(N · leaves · hops) instead of
//!   O(N² · hops)). Integer sums make the reduction order-free.
//!
//! Loads are per directed cable. Host links (CA → switch and switch → CA)
//! are kept apart from switch-to-switch links: a permutation loads each host
//! link at most once whatever the routing, so only switch links tell routes
//! apart. Pairs whose route cannot be followed (no entry, dead port, wrong
//! end port) or that exceed the hop limit (loops) are counted, not traced
//! further, and add no load.

use rayon::prelude::*;

mod diversity;
mod memo;
mod perms;
mod report;
mod slide;
mod table;
mod walker;
pub use diversity::{PathDiversity, path_diversity};
pub use perms::PermLoad;
pub(crate) use perms::{random, shifts};
pub use report::*;
use walker::Fate;
pub(crate) use walker::Walker;

/// Which patterns to evaluate.
#[derive(Clone, Debug)]
pub struct QualityOptions {
    pub shift: bool,
    pub random: bool,
    /// All-to-all; hop counts are always computed (same pass, cheap).
    pub all_to_all: bool,
    /// Random permutations to sample.
    pub samples: usize,
    pub seed: u64,
    /// Longest route followed, in switch-to-switch links.
    pub hop_limit: u32,
}

impl Default for QualityOptions {
    fn default() -> Self {
        QualityOptions {
            shift: true,
            random: true,
            all_to_all: true,
            samples: 100,
            seed: 1,
            hop_limit: 64,
        }
    }
}

/// Sums of the all-to-all pass.
#[derive(Clone, Debug)]
pub(crate) struct A2aSums {
    /// Load per switch-port slot (switch → switch and switch → CA).
    pub load: Vec<u64>,
    /// Load of each order node's CA → switch link.
    pub up: Vec<u64>,
    /// Delivered pairs by switch-to-switch hops.
    pub hops: Vec<u64>,
    pub unrouted: u64,
    pub over_hop_limit: u64,
}

struct A2aAcc {
    load: Vec<u64>,
    /// Per leaf switch: destinations its routes deliver to.
    reached: Vec<u64>,
    hops: Vec<u64>,
    unrouted: u64,
    over: u64,
    path: Vec<u32>,
}

impl A2aAcc {
    fn new(w: &Walker) -> Self {
        A2aAcc {
            load: vec![0; w.switch_slots()],
            reached: vec![0; w.topo.num_switches()],
            hops: Vec::new(),
            unrouted: 0,
            over: 0,
            path: Vec::new(),
        }
    }

    fn merge(mut self, o: A2aAcc) -> A2aAcc {
        self.load.iter_mut().zip(&o.load).for_each(|(a, b)| *a += b);
        self.reached
            .iter_mut()
            .zip(&o.reached)
            .for_each(|(a, b)| *a += b);
        if self.hops.len() < o.hops.len() {
            self.hops.resize(o.hops.len(), 0);
        }
        self.hops.iter_mut().zip(&o.hops).for_each(|(a, b)| *a += b);
        self.unrouted += o.unrouted;
        self.over += o.over;
        self
    }
}

/// All ordered pairs of distinct order nodes, one walk per (leaf, destination).
pub(crate) fn all_to_all(w: &Walker) -> A2aSums {
    let nsw = w.topo.num_switches();
    let mut on_leaf = vec![0u64; nsw];
    for &l in w.leaf.iter().filter(|&&l| l != u32::MAX) {
        on_leaf[l as usize] += 1;
    }
    let leaves: Vec<u32> = (0..nsw as u32)
        .filter(|&s| on_leaf[s as usize] > 0)
        .collect();
    let unattached = w.leaf.iter().filter(|&&l| l == u32::MAX).count() as u64;
    let n = w.lid.len();
    let acc = (0..n)
        .into_par_iter()
        .fold(
            || A2aAcc::new(w),
            |mut acc, d| {
                // Sources that are not cabled to a switch reach nobody.
                acc.unrouted += unattached - u64::from(w.leaf[d] == u32::MAX);
                for &l in &leaves {
                    let c = on_leaf[l as usize] - u64::from(w.leaf[d] == l);
                    let (fate, slots) = w.route(l, d, &mut acc.path);
                    match fate {
                        Fate::Delivered { hops, down } => {
                            acc.reached[l as usize] += 1;
                            for &s in slots {
                                acc.load[s as usize] += c;
                            }
                            acc.load[down as usize] += c;
                            if acc.hops.len() <= hops as usize {
                                acc.hops.resize(hops as usize + 1, 0);
                            }
                            acc.hops[hops as usize] += c;
                        }
                        Fate::Unrouted => acc.unrouted += c,
                        Fate::OverHopLimit => acc.over += c,
                    }
                }
                acc
            },
        )
        .reduce(|| A2aAcc::new(w), A2aAcc::merge);
    // A source's CA → switch link carries every pair its leaf delivers,
    // less the pair to itself.
    let mut path = Vec::new();
    let up = (0..n)
        .map(|i| match w.leaf[i] {
            u32::MAX => 0,
            l => {
                let own = matches!(w.route(l, i, &mut path).0, Fate::Delivered { .. });
                acc.reached[l as usize] - u64::from(own)
            }
        })
        .collect();
    let mut hops = acc.hops;
    while hops.last() == Some(&0) {
        hops.pop();
    }
    A2aSums {
        load: acc.load,
        up,
        hops,
        unrouted: acc.unrouted,
        over_hop_limit: acc.over,
    }
}

#[cfg(test)]
mod tests;
