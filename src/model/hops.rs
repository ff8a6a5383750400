//! Least hops between every pair of switches over switch-to-switch cables:
//! one BFS per switch, in parallel. Min-hop routing (OpenSM's hop tables,
//! algorithms.md §2.1), the multicast engine and the `opensm.fdbs` writer
//! all stand on this one matrix.

use rayon::prelude::*;

use super::Fabric;

/// No path between the two switches.
pub const NO_HOPS: u8 = u8::MAX;

/// `hops(a, b)` for every pair of switches, one byte each. Distances above
/// 254 cannot occur in a real subnet (the IB path limit is 64 hops) and are
/// clamped, never wrapped.
#[derive(Clone, Debug)]
pub struct SwitchHops {
    n: usize,
    /// Row `x` holds the hops between switch `x` and every switch.
    d: Vec<u8>,
}

impl SwitchHops {
    /// BFS from every switch. Cables are symmetric, so row `x` is both the
    /// distance from `x` and the distance to `x`.
    pub fn compute(fabric: &Fabric) -> Self {
        let (start, nbr) = adjacency(fabric);
        let n = fabric.num_switches();
        let mut d = vec![NO_HOPS; n * n];
        if n > 0 {
            d.par_chunks_mut(n * BATCH).enumerate().for_each_init(
                || Frontiers::new(n),
                |fr, (k, rows)| fr.bfs_batch(&start, &nbr, k * BATCH, rows),
            );
        }
        SwitchHops { n, d }
    }

    /// Hops between switch `x` and every switch, by [`super::SwIdx`].
    pub fn row(&self, x: usize) -> &[u8] {
        &self.d[x * self.n..(x + 1) * self.n]
    }

    /// Hops between switches `a` and `b` (dense [`SwIdx`](crate::model::SwIdx) values;
    /// [`NO_HOPS`] when disconnected).
    #[inline]
    pub fn get(&self, a: usize, b: usize) -> u8 {
        self.d[b * self.n + a]
    }

    /// Number of switches.
    pub fn num_switches(&self) -> usize {
        self.n
    }
}

/// Switch neighbours as a compact list (CSR), parallel cables once.
fn adjacency(fabric: &Fabric) -> (Vec<u32>, Vec<u32>) {
    let mut start = Vec::with_capacity(fabric.num_switches() + 1);
    let mut nbr = Vec::new();
    start.push(0);
    for &node in fabric.switches() {
        let first = nbr.len();
        for (_, peer) in fabric.switch_links(node) {
            if let Some(t) = fabric.switch_index(peer.node)
                && !nbr[first..].contains(&t.0)
            {
                nbr.push(t.0);
            }
        }
        start.push(nbr.len() as u32);
    }
    (start, nbr)
}

/// Sources per sweep of [`Frontiers::bfs_batch`]: [`WORDS`] bits a switch.
const BATCH: usize = 64 * WORDS;
/// Words of source bits per switch. Two rather than one: a sweep reads
/// each switch's neighbour list once for 128 sources, and the words of a
/// neighbour are OR-ed in one vector lane. The BFS of the 11,664-host
/// RLFT on one thread, best of 30 (issue 17): 3.9 ms with one word, 3.0
/// with two, 2.8 with four (whose 7 batches leave 2 threads unevenly
/// loaded).
const WORDS: usize = 2;

/// Source bits of one switch: bit `i` of word `w` is source `first + 64 w + i`.
type Bits = [u64; WORDS];

/// Per-thread bit sets of [`Frontiers::bfs_batch`], [`Bits`] per switch.
struct Frontiers {
    seen: Vec<Bits>,
    front: Vec<Bits>,
    next: Vec<Bits>,
}

impl Frontiers {
    fn new(n: usize) -> Self {
        Frontiers {
            seen: vec![[0; WORDS]; n],
            front: vec![[0; WORDS]; n],
            next: vec![[0; WORDS]; n],
        }
    }

    /// Up to [`BATCH`] BFS at once, one bit per source (`first + i` is
    /// bit `i % 64` of word `i / 64`), level by level: a switch joins the
    /// next frontier of every source one of its neighbours is in the
    /// frontier of and it has not seen. One sweep of the cables serves
    /// the whole batch instead of one source, and the bit sets stay in
    /// cache where separate queues would not. Writes `rows[i·n + s] =
    /// hops(first + i, s)`, clamped at 254 as a plain BFS would
    /// (`tests::bit_parallel_bfs_is_the_plain_bfs`).
    fn bfs_batch(&mut self, start: &[u32], nbr: &[u32], first: usize, rows: &mut [u8]) {
        let n = self.seen.len();
        let count = rows.len() / n;
        self.seen.fill([0; WORDS]);
        self.front.fill([0; WORDS]);
        for i in 0..count {
            self.seen[first + i][i / 64] = 1 << (i % 64);
            self.front[first + i][i / 64] = 1 << (i % 64);
            rows[i * n + first + i] = 0;
        }
        // Pairs not reached yet: once none is left, the sweep that would
        // find no new switch is skipped (issue 17: one level in six on t11).
        let mut left = count * n - count;
        let mut level = 0u8;
        while left > 0 {
            level = level.saturating_add(1).min(NO_HOPS - 1);
            if !self.sweep(start, nbr) {
                return;
            }
            for (v, new) in self.next.iter().enumerate() {
                for (w, &word) in new.iter().enumerate() {
                    self.seen[v][w] |= word;
                    left -= word.count_ones() as usize;
                    let mut bits = word;
                    while bits != 0 {
                        let i = 64 * w + bits.trailing_zeros() as usize;
                        rows[i * n + v] = level;
                        bits &= bits - 1;
                    }
                }
            }
            std::mem::swap(&mut self.front, &mut self.next);
        }
    }

    /// One level: `next` gets, per switch, the sources one of its
    /// neighbours has in `front` and it has not seen; whether any did.
    fn sweep(&mut self, start: &[u32], nbr: &[u32]) -> bool {
        let mut any = 0u64;
        for (v, next) in self.next.iter_mut().enumerate() {
            let around = &nbr[start[v] as usize..start[v + 1] as usize];
            let mut reached = [0u64; WORDS];
            for &u in around {
                let f = &self.front[u as usize];
                for w in 0..WORDS {
                    reached[w] |= f[w];
                }
            }
            for w in 0..WORDS {
                next[w] = reached[w] & !self.seen[v][w];
                any |= next[w];
            }
        }
        any != 0
    }
}

/// Plain BFS from `x`, writing `row[s] = hops(s, x)` (the oracle of
/// [`Frontiers::bfs_batch`]).
#[cfg(test)]
fn bfs(start: &[u32], nbr: &[u32], x: usize, row: &mut [u8], queue: &mut Vec<u32>) {
    queue.clear();
    row[x] = 0;
    queue.push(x as u32);
    let mut head = 0;
    while head < queue.len() {
        let u = queue[head] as usize;
        head += 1;
        let next = row[u].saturating_add(1).min(NO_HOPS - 1);
        for &v in &nbr[start[u] as usize..start[u + 1] as usize] {
            if row[v as usize] == NO_HOPS {
                row[v as usize] = next;
                queue.push(v);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::faults::{FaultPlan, random_faults};
    use crate::generate::pgft::{PgftSpec, pgft};

    /// One plain BFS per switch, the oracle.
    fn plain(f: &Fabric) -> Vec<u8> {
        let (start, nbr) = adjacency(f);
        let n = f.num_switches();
        let mut d = vec![NO_HOPS; n * n];
        let mut queue = Vec::new();
        for (x, row) in d.chunks_mut(n.max(1)).enumerate() {
            bfs(&start, &nbr, x, row, &mut queue);
        }
        d
    }

    /// 132 switches (a batch of 128 sources and a short one, both words
    /// in use), intact and cut until some switches are unreachable.
    #[test]
    fn bit_parallel_bfs_is_the_plain_bfs() {
        let f = pgft(&PgftSpec::new(3, &[6, 6, 8], &[1, 6, 6], None)).unwrap();
        let mut unreachable = false;
        for links in [0, 40, 400, 560] {
            let plan = FaultPlan {
                links,
                switches: 0,
                seed: 7,
            };
            let cut = f
                .apply_faults(&random_faults(&f, &plan).unwrap())
                .unwrap()
                .0;
            let hops = SwitchHops::compute(&cut);
            assert_eq!(hops.num_switches(), 132);
            assert!(hops.d == plain(&cut), "{links} cables cut");
            unreachable |= hops.d.contains(&NO_HOPS);
        }
        assert!(unreachable, "some cut should disconnect a switch");
    }
}
