//! The permutation passes (shift and seeded random): each permutation is
//! traced pair by pair on one rayon task with a reused load vector, and
//! results are collected in permutation order, so they do not depend on
//! the thread count.

use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;

use super::walker::{Fate, Walker};

/// A switch-link load counter. A delivered route crosses a slot at most
/// once (a route that came back to a slot would loop forever, the tables
/// being destination-based), so one permutation loads a slot at most N
/// times: below 65,536 order nodes `u16` counters halve the vector the
/// increments and the per-permutation scan touch.
pub(super) trait Load:
    Copy + Default + Ord + Send + Into<u32> + std::ops::AddAssign + From<u8>
{
}
impl Load for u16 {}
impl Load for u32 {}

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
/// (`per_shift[k−1]` is shift k): by sliding windows when the order's
/// leaf runs are long (`slide.rs`), otherwise pair by pair.
pub(crate) fn shifts(w: &Walker) -> Vec<PermLoad> {
    super::slide::shifts_if_pays(w).unwrap_or_else(|| shifts_pair_by_pair(w))
}

pub(super) fn shifts_pair_by_pair(w: &Walker) -> Vec<PermLoad> {
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
