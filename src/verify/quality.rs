//! Route quality under traffic patterns (issue 6 check 4, algorithms.md §4):
//! maximum link load of every shift permutation, of seeded random
//! permutations, and of all-to-all (the edge forwarding index), plus hop
//! counts. Read from the tables only, like the rest of `verify`.
//!
//! Two passes share one walker over the flat switch-port arrays of
//! [`Topo`] (`formats/quality-report.md` gives the costs):
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

use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;

use super::congestion::EndPort;
use super::topo::{Link, Topo};
use crate::model::{Fabric, Lfts, LidMap, NO_ROUTE};

mod diversity;
mod memo;
mod report;
pub use diversity::{PathDiversity, path_diversity};
use memo::RouteMemo;
pub use report::*;

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

/// How a pair's route ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Fate {
    /// Delivered after this many switch-to-switch links; the walker's path
    /// holds their slots, `down` the switch → CA slot.
    Delivered {
        hops: u32,
        down: u32,
    },
    Unrouted,
    OverHopLimit,
}

/// The fabric, tables and node order in walkable form.
pub(crate) struct Walker<'a> {
    pub topo: Topo,
    lfts: &'a Lfts,
    hop_limit: u32,
    /// Per order node: leaf switch, the port it hangs on, its base LID.
    pub leaf: Vec<u32>,
    pub leaf_port: Vec<u8>,
    pub lid: Vec<u16>,
    /// Every (leaf, destination) route, once [`Walker::memoize`] built it.
    memo: Option<RouteMemo>,
    /// No two order nodes hang on the same switch port (true of distinct
    /// end ports, as `topological_nodes` and `--node-order` give): then no
    /// host link carries two pairs of one permutation.
    distinct_ends: bool,
}

impl<'a> Walker<'a> {
    pub fn new(
        fabric: &Fabric,
        lids: &LidMap,
        lfts: &'a Lfts,
        nodes: &[EndPort],
        hop_limit: u32,
    ) -> Self {
        let mut leaf = Vec::with_capacity(nodes.len());
        let mut leaf_port = Vec::with_capacity(nodes.len());
        let mut lid = Vec::with_capacity(nodes.len());
        for e in nodes {
            let peer = fabric.peer(e.node, e.port);
            let sw = peer.and_then(|p| fabric.switch_index(p.node).map(|s| (s.0, p.port)));
            let (s, p) = sw.unwrap_or((u32::MAX, 0));
            leaf.push(s);
            leaf_port.push(p);
            lid.push(fabric.port(e.node, e.port).lid);
        }
        let topo = Topo::new(fabric, lids);
        let distinct_ends = distinct_ends(&topo, &leaf, &leaf_port);
        Walker {
            topo,
            distinct_ends,
            lfts,
            hop_limit,
            leaf,
            leaf_port,
            lid,
            memo: None,
        }
    }

    /// Counts host links per pair even when the end ports are distinct,
    /// for the tests of the shortcut.
    #[cfg(test)]
    fn count_host_links(&mut self) {
        self.distinct_ends = false;
    }

    /// Walks every (leaf, destination) route once and keeps them for the
    /// passes (see `memo.rs`); a no-op above the memo's size bound.
    pub fn memoize(&mut self) {
        self.memo = RouteMemo::build(self);
    }

    /// The route from switch `from` to order node `dst` and its
    /// switch-to-switch slots, from the memo or walked into `path`.
    #[inline]
    fn route<'s>(&'s self, from: u32, dst: usize, path: &'s mut Vec<u32>) -> (Fate, &'s [u32]) {
        match &self.memo {
            Some(m) => m.route(from, dst),
            None => {
                let f = self.walk(from, dst, path);
                (f, &path[..])
            }
        }
    }

    /// Number of directed switch-port slots (host up links come after).
    pub fn switch_slots(&self) -> usize {
        self.topo.link.len()
    }

    /// Follows the tables from switch `from` toward order node `dst`,
    /// recording the switch-to-switch slots in `path`.
    fn walk(&self, from: u32, dst: usize, path: &mut Vec<u32>) -> Fate {
        path.clear();
        let lid = self.lid[dst];
        if from == u32::MAX || !crate::model::lids::is_assigned(lid) {
            return Fate::Unrouted;
        }
        let stride = self.lfts.stride();
        let mut at = from as usize;
        let mut hops = 0;
        loop {
            let out = if (lid as usize) < stride && at < self.lfts.num_switches() {
                self.lfts.get(at, lid)
            } else {
                NO_ROUTE
            };
            let slot = self.topo.base[at] + out as u32;
            match self.topo.link(at, out) {
                Some(Link::Switch(next, _)) => {
                    if hops == self.hop_limit {
                        return Fate::OverHopLimit;
                    }
                    hops += 1;
                    path.push(slot);
                    at = next as usize;
                }
                Some(Link::End(..))
                    if at as u32 == self.leaf[dst] && out == self.leaf_port[dst] =>
                {
                    return Fate::Delivered { hops, down: slot };
                }
                _ => return Fate::Unrouted,
            }
        }
    }
}

/// A switch-link load counter. A delivered route crosses a slot at most
/// once (a route that came back to a slot would loop forever, the tables
/// being destination-based), so one permutation loads a slot at most N
/// times: below 65,536 order nodes `u16` counters halve the vector the
/// increments and the per-permutation scan touch.
trait Load: Copy + Default + Ord + Send + Into<u32> + std::ops::AddAssign + From<u8> {}
impl Load for u16 {}
impl Load for u32 {}

/// Whether the order nodes cabled to a switch hang on distinct switch
/// ports (see [`Walker::distinct_ends`]).
fn distinct_ends(topo: &Topo, leaf: &[u32], leaf_port: &[u8]) -> bool {
    let mut seen = vec![false; topo.link.len()];
    leaf.iter().zip(leaf_port).all(|(&l, &p)| {
        let Some(&base) = topo.base.get(l as usize) else {
            return true;
        };
        let slot = &mut seen[base as usize + usize::from(p)];
        !std::mem::replace(slot, true)
    })
}

/// Per-task scratch of the permutation pass.
///
/// Switch-to-switch loads are only added up during a permutation and their
/// maximum taken by one scan at the end (which also clears them): the
/// increments of a route then do not wait on each other. Host links
/// (switch → CA slots and the CA → switch slots after them) are counted
/// apart in `host`, only when [`Walker::distinct_ends`] does not hold.
struct Scratch<L> {
    load: Vec<L>,
    host: Vec<u32>,
    path: Vec<u32>,
}

impl<L: Load> Scratch<L> {
    fn new(w: &Walker) -> Self {
        let hosts = if w.distinct_ends {
            0
        } else {
            w.switch_slots() + w.lid.len()
        };
        Scratch {
            load: vec![L::default(); w.switch_slots()],
            host: vec![0; hosts],
            path: Vec::new(),
        }
    }
}

/// Routes the permutation `dest` (fixed points skipped: they use no link).
///
/// Host links: a permutation sends once from each order node and delivers
/// once to each, so with distinct end ports ([`Walker::distinct_ends`])
/// every host link carries at most one pair and the max host load is 1 as
/// soon as one pair is delivered; otherwise the host slots are counted.
fn permutation<L: Load>(
    w: &Walker,
    sc: &mut Scratch<L>,
    dest: impl Fn(usize) -> usize,
) -> PermLoad {
    let up_base = w.switch_slots();
    let mut r = PermLoad::default();
    let mut delivered = false;
    let Scratch { load, host, path } = sc;
    // A slice, not the Vec: its pointer and length stay in registers
    // across the increments.
    let load = load.as_mut_slice();
    for i in 0..w.lid.len() {
        let j = dest(i);
        if i == j {
            continue;
        }
        let (fate, slots) = match &w.memo {
            Some(m) => m.route_from_node(i, j),
            None => (w.walk(w.leaf[i], j, path), &path[..]),
        };
        match fate {
            Fate::Delivered { down, .. } => {
                for &s in slots {
                    load[s as usize] += L::from(1);
                }
                delivered = true;
                if !w.distinct_ends {
                    for s in [up_base + i, down as usize] {
                        let v = &mut host[s];
                        *v += 1;
                        r.max_host = r.max_host.max(*v);
                    }
                }
            }
            Fate::Unrouted => r.unrouted += 1,
            Fate::OverHopLimit => r.over_hop_limit += 1,
        }
    }
    if w.distinct_ends {
        r.max_host = u32::from(delivered);
    } else {
        host.fill(0);
    }
    r.max_switch = take_max(load);
    r
}

/// The largest load, leaving every counter at zero: one pass.
fn take_max<L: Load>(load: &mut [L]) -> u32 {
    let mut max = L::default();
    for v in load.iter_mut() {
        max = max.max(*v);
        *v = L::default();
    }
    max.into()
}

/// Max loads of one permutation.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PermLoad {
    pub max_switch: u32,
    pub max_host: u32,
    pub unrouted: u64,
    pub over_hop_limit: u64,
}

/// Evaluates many permutations in parallel, results in input order.
fn permutations<F>(w: &Walker, count: usize, dest: F) -> Vec<PermLoad>
where
    F: Fn(usize, usize) -> usize + Sync,
{
    if w.lid.len() <= usize::from(u16::MAX) {
        permutations_with::<u16, F>(w, count, dest)
    } else {
        permutations_with::<u32, F>(w, count, dest)
    }
}

fn permutations_with<L: Load, F>(w: &Walker, count: usize, dest: F) -> Vec<PermLoad>
where
    F: Fn(usize, usize) -> usize + Sync,
{
    (0..count)
        .into_par_iter()
        .map_init(
            || Scratch::<L>::new(w),
            |sc, p| permutation(w, sc, |i| dest(p, i)),
        )
        .collect()
}

/// Every shift permutation i → i+k mod N, k = 1..N−1
/// (`per_shift[k−1]` is shift k).
pub(crate) fn shifts(w: &Walker) -> Vec<PermLoad> {
    let n = w.lid.len();
    // i + k < 2N: one subtraction instead of a division per pair.
    permutations(w, n.saturating_sub(1), |p, i| {
        let j = i + p + 1;
        if j >= n { j - n } else { j }
    })
}

/// `samples` uniform random permutations; sample j is a Fisher–Yates
/// shuffle (`SliceRandom::shuffle`) driven by ChaCha8 seeded with `seed` on
/// stream j, so samples are drawn in parallel without being stored and
/// sample j does not depend on how many are asked for.
pub(crate) fn random(w: &Walker, samples: usize, seed: u64) -> Vec<PermLoad> {
    if w.lid.len() <= usize::from(u16::MAX) {
        random_with::<u16>(w, samples, seed)
    } else {
        random_with::<u32>(w, samples, seed)
    }
}

fn random_with<L: Load>(w: &Walker, samples: usize, seed: u64) -> Vec<PermLoad> {
    let n = w.lid.len();
    (0..samples)
        .into_par_iter()
        .map_init(
            || (Scratch::<L>::new(w), Vec::with_capacity(n)),
            |(sc, perm), j| {
                let mut rng = ChaCha8Rng::seed_from_u64(seed);
                rng.set_stream(j as u64);
                perm.clear();
                perm.extend(0..n as u32);
                perm.shuffle(&mut rng);
                permutation(w, sc, |i| perm[i] as usize)
            },
        )
        .collect()
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
