//! The shift permutations by sliding windows (issue 17: `report --pattern
//! shift` on 11,664 hosts in under a second).
//!
//! Shift k sends order node i to i + k mod N. Destination-based tables give
//! every node of a *run* — consecutive order nodes on one leaf switch — the
//! leaf's route to its destination, so the run [a, b) loads the links of
//! the leaf's routes to the window of destinations a + k … b − 1 + k. From
//! shift k to k + 1 each window loses destination a + k and gains b + k:
//! two routes per run instead of one per node. With the node order of a
//! fat tree (a leaf's hosts consecutive) that is 2 × 648 routes per shift
//! on the 11,664-host RLFT instead of 11,664.
//!
//! The largest load is kept exact under increments and decrements by a
//! histogram of the loads (a slot at the maximum that goes down leaves the
//! maximum or one below it occupied), so no shift scans the slots. Shifts
//! are cut into fixed chunks, each loaded in full at its first shift and
//! slid from there: the loads are the same integers whatever the chunking
//! or the thread count. Without a route memo (above its bound) a chunk's
//! dropped and taken routes are walked first, a few runs at a time, into a
//! band ([`Band`]) whose walks reuse their LFT lines.

use rayon::prelude::*;

use super::memo::{FAT_TREE_WIDTH, read_entry, write_entry};
use super::perms::PermLoad;
use super::walker::{Fate, Walker};

/// Shifts per chunk: one full load (N routes) per chunk costs as much as
/// sliding N / 2R shifts, a few per cent of a chunk on a fat tree.
const CHUNK: usize = 256;

/// Every shift by sliding windows, or `None` when sliding does not pay:
/// with runs as short as a node or two, the two routes a run changes per
/// shift are as many as the pairs; repeated end ports need the host links
/// counted pair by pair.
pub(super) fn shifts_if_pays(w: &Walker) -> Option<Vec<PermLoad>> {
    let runs = runs(w);
    let pays = w.distinct_ends && runs.len() * 4 <= w.lid.len();
    pays.then(|| slide(w, &runs, CHUNK))
}

/// Maximal runs of consecutive order nodes on the same leaf switch.
fn runs(w: &Walker) -> Vec<(usize, usize)> {
    let mut out: Vec<(usize, usize)> = Vec::new();
    for (i, &leaf) in w.leaf.iter().enumerate() {
        match out.last_mut() {
            Some((a, b)) if w.leaf[*a] == leaf && *b == i => *b = i + 1,
            _ => out.push((i, i + 1)),
        }
    }
    out
}

/// [`shifts_if_pays`] whether it pays or not, in chunks of `chunk`.
#[cfg(test)]
pub(super) fn shifts(w: &Walker, chunk: usize) -> Vec<PermLoad> {
    slide(w, &runs(w), chunk)
}

/// Every shift k = 1..N−1 (`[k − 1]` is shift k), as the pair-by-pair pass
/// gives them; needs distinct end ports (the host-link shortcut).
fn slide(w: &Walker, runs: &[(usize, usize)], chunk: usize) -> Vec<PermLoad> {
    debug_assert!(w.distinct_ends);
    let n = w.lid.len();
    let firsts: Vec<usize> = (1..n).step_by(chunk.max(1)).collect();
    firsts
        .into_par_iter()
        .flat_map_iter(|k0| {
            let last = (k0 + chunk).min(n);
            let mut s = Slider::new(w, n);
            s.load_shift(runs, k0);
            let band = w
                .memo
                .is_none()
                .then(|| Band::walk(w, runs, k0, last - k0 - 1))
                .flatten();
            let mut out = Vec::with_capacity(last - k0);
            out.push(s.figures());
            for k in k0 + 1..last {
                s.slide(runs, k, band.as_ref().map(|b| (b, k - k0 - 1)));
                out.push(s.figures());
            }
            out
        })
        .collect()
}

/// Largest band, in 4-byte words (32 MB per chunk being slid). Its
/// entries are the route memo's, with the fat-tree width.
const BAND_WORDS: usize = 8 << 20;

/// The routes one chunk's slides drop and take, walked before the slides
/// when there is no route memo (above its bound: the 27,648-host RLFT).
/// Walked during the slides, each shift's 2R routes lead to as many
/// destinations all over the tables, a cache miss per hop; walked here a
/// few runs at a time, the runs' destinations lie close together and move
/// on one LID per step, so their LFT lines are reused.
struct Band {
    len: usize,
    /// Entry (run r, dropped 0 / taken 1, step j) at `((2r + side) len +
    /// j) FAT_TREE_WIDTH`, a route memo's entry (`memo::write_entry`).
    cells: Vec<u32>,
}

impl Band {
    /// Runs walked together: their destinations, one leaf's worth apart,
    /// span a few hundred LIDs at each step. `report --pattern shift` on
    /// 27,648 hosts, two runs each: 4.9–5.2 s with 4, 4.7–4.8 s with 16,
    /// 5.2 s with 64.
    const RUNS: usize = 16;

    /// The band of the `len` slides after shift `k0`, or `None` when it
    /// would exceed [`BAND_WORDS`] or a route is longer than a fat tree's.
    fn walk(w: &Walker, runs: &[(usize, usize)], k0: usize, len: usize) -> Option<Band> {
        let words = runs.len().checked_mul(2 * len * FAT_TREE_WIDTH)?;
        if len == 0 || words > BAND_WORDS {
            return None;
        }
        let n = w.lid.len();
        let mut cells = vec![0u32; words];
        let mut path = Vec::new();
        for (g, group) in runs.chunks(Self::RUNS).enumerate() {
            for j in 0..len {
                for (i, &(a, b)) in group.iter().enumerate() {
                    let r = g * Self::RUNS + i;
                    for (side, first) in [a, b].into_iter().enumerate() {
                        let at = ((2 * r + side) * len + j) * FAT_TREE_WIDTH;
                        let e = &mut cells[at..at + FAT_TREE_WIDTH];
                        let fate = w.walk(w.leaf[a], (first + k0 + j) % n, &mut path);
                        if !write_entry(e, fate, &path) {
                            return None;
                        }
                    }
                }
            }
        }
        Some(Band { len, cells })
    }

    /// The route run `r` drops (`side` 0) or takes (1) at step `j`.
    fn route(&self, r: usize, side: usize, j: usize) -> (Fate, &[u32]) {
        let at = ((2 * r + side) * self.len + j) * FAT_TREE_WIDTH;
        read_entry(&self.cells[at..at + FAT_TREE_WIDTH])
    }
}

/// The loads of one shift, kept exact as routes come and go.
struct Slider<'w> {
    w: &'w Walker<'w>,
    n: usize,
    load: Vec<u32>,
    /// `hist[v]`: slots with load v.
    hist: Vec<u32>,
    max: u32,
    delivered: u64,
    unrouted: u64,
    over_hop_limit: u64,
    /// Walk buffers when the routes are not memoized.
    path: Vec<u32>,
    path2: Vec<u32>,
}

impl<'w> Slider<'w> {
    fn new(w: &'w Walker<'w>, n: usize) -> Self {
        let slots = w.switch_slots();
        let mut hist = vec![0; n + 1];
        hist[0] = slots as u32;
        Slider {
            w,
            n,
            load: vec![0; slots],
            hist,
            max: 0,
            delivered: 0,
            unrouted: 0,
            over_hop_limit: 0,
            path: Vec::new(),
            path2: Vec::new(),
        }
    }

    /// Loads shift `k` pair by pair.
    fn load_shift(&mut self, runs: &[(usize, usize)], k: usize) {
        let (w, mut path) = (self.w, std::mem::take(&mut self.path));
        for &(a, b) in runs {
            for i in a..b {
                let (fate, slots) = w.route(w.leaf[a], (i + k) % self.n, &mut path);
                self.tally(fate, slots, true);
            }
        }
        self.path = path;
    }

    /// From shift `k − 1` to shift `k`: each run's window drops its first
    /// destination and takes the one past its end. The two routes leave
    /// the same leaf, and the links they share at the start (on a fat tree
    /// often the first: the same port for the same place on the next leaf)
    /// are left as they are. The dropped route goes first, so no load ever
    /// exceeds the N pairs of a shift.
    fn slide(&mut self, runs: &[(usize, usize)], k: usize, band: Option<(&Band, usize)>) {
        let w = self.w;
        let mut gone_path = std::mem::take(&mut self.path);
        let mut come_path = std::mem::take(&mut self.path2);
        for (r, &(a, b)) in runs.iter().enumerate() {
            let leaf = w.leaf[a];
            let ((gone, gone_slots), (come, come_slots)) = match band {
                Some((band, j)) => (band.route(r, 0, j), band.route(r, 1, j)),
                None => (
                    w.route(leaf, (a + k - 1) % self.n, &mut gone_path),
                    w.route(leaf, (b - 1 + k) % self.n, &mut come_path),
                ),
            };
            let shared = match (gone, come) {
                (Fate::Delivered { .. }, Fate::Delivered { .. }) => gone_slots
                    .iter()
                    .zip(come_slots)
                    .take_while(|(g, c)| g == c)
                    .count(),
                _ => 0,
            };
            self.tally(gone, &gone_slots[shared..], false);
            self.tally(come, &come_slots[shared..], true);
        }
        self.path = gone_path;
        self.path2 = come_path;
    }

    /// Adds (or takes away) one route's pair and the loads of `slots`.
    fn tally(&mut self, fate: Fate, slots: &[u32], add: bool) {
        let count = |c: &mut u64| if add { *c += 1 } else { *c -= 1 };
        match fate {
            Fate::Delivered { .. } => {
                count(&mut self.delivered);
                if add {
                    slots.iter().for_each(|&s| self.up(s as usize));
                } else {
                    slots.iter().for_each(|&s| self.down(s as usize));
                }
            }
            Fate::Unrouted => count(&mut self.unrouted),
            Fate::OverHopLimit => count(&mut self.over_hop_limit),
        }
    }

    fn up(&mut self, s: usize) {
        let v = &mut self.load[s];
        self.hist[*v as usize] -= 1;
        *v += 1;
        self.hist[*v as usize] += 1;
        self.max = self.max.max(*v);
    }

    fn down(&mut self, s: usize) {
        let v = &mut self.load[s];
        self.hist[*v as usize] -= 1;
        *v -= 1;
        self.hist[*v as usize] += 1;
        if self.hist[self.max as usize] == 0 {
            self.max -= 1;
        }
    }

    fn figures(&self) -> PermLoad {
        PermLoad {
            max_switch: self.max,
            max_host: u32::from(self.delivered > 0),
            unrouted: self.unrouted,
            over_hop_limit: self.over_hop_limit,
        }
    }
}
