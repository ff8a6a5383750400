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
            d.par_chunks_mut(n).enumerate().for_each_init(
                || Vec::with_capacity(n),
                |queue, (x, row)| bfs(&start, &nbr, x, row, queue),
            );
        }
        SwitchHops { n, d }
    }

    /// Hops between switch `x` and every switch, by [`super::SwIdx`].
    pub fn row(&self, x: usize) -> &[u8] {
        &self.d[x * self.n..(x + 1) * self.n]
    }

    /// Hops between switches `a` and `b` (dense [`SwIdx`] values;
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

/// Plain BFS from `x`, writing `row[s] = hops(s, x)`.
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
