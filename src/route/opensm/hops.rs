//! Least-hop distances between switches: OpenSM's min-hop tables, stored
//! compactly.
//!
//! OpenSM keeps `hops[switch][lid][port]` (`osm_ucast_mgr_build_lid_matrices`,
//! algorithms.md §2.1): rows only for switch LIDs, one byte per port. With
//! hop weights 1 its fix-point is `hops[s][x][p] = 1 + dist(peer(s, p), x)`
//! for every switch-facing port, so one `u8` distance per switch pair holds
//! the whole table (S² bytes instead of S²·P) and per-port hops are derived
//! on the fly.

use rayon::prelude::*;

use super::{NO_PATH, SwitchGraph};

/// `dist(s, x)` for every pair of switches, [`NO_PATH`] when unreachable.
#[derive(Clone, Debug)]
pub struct Distances {
    n: usize,
    /// Row `x` holds the distance of every switch to switch `x`.
    d: Vec<u8>,
}

impl Distances {
    /// One BFS per destination switch, in parallel. Distances above 254
    /// cannot occur in a real subnet (the IB path limit is 64 hops) and are
    /// clamped, never wrapped.
    pub fn compute(g: &SwitchGraph) -> Self {
        let n = g.num_switches();
        let mut d = vec![NO_PATH; n * n];
        if n > 0 {
            d.par_chunks_mut(n).enumerate().for_each_init(
                || Vec::with_capacity(n),
                |queue, (x, row)| bfs(g, x, row, queue),
            );
        }
        Distances { n, d }
    }

    /// Distances of every switch to switch `x`.
    pub fn row(&self, x: usize) -> &[u8] {
        &self.d[x * self.n..(x + 1) * self.n]
    }

    /// Least hops from switch `s` to switch `x`.
    pub fn get(&self, s: usize, x: usize) -> u8 {
        self.d[x * self.n + s]
    }

    /// Number of switches.
    pub fn num_switches(&self) -> usize {
        self.n
    }
}

/// Plain BFS from `x` over switch cables, writing `row[s] = dist(s, x)`.
fn bfs(g: &SwitchGraph, x: usize, row: &mut [u8], queue: &mut Vec<u32>) {
    queue.clear();
    row[x] = 0;
    queue.push(x as u32);
    let mut head = 0;
    while head < queue.len() {
        let u = queue[head] as usize;
        head += 1;
        let next = row[u].saturating_add(1).min(NO_PATH - 1);
        for e in g.ends(u) {
            let v = g.nbr[e] as usize;
            if row[v] == NO_PATH {
                row[v] = next;
                queue.push(v as u32);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::route::opensm::testfab;

    #[test]
    fn distances_on_a_line_with_a_parallel_cable() {
        // s0 =(2 cables)= s1 - s2 ; s3 isolated
        let f = testfab::line_with_island();
        let g = SwitchGraph::new(&f);
        let d = Distances::compute(&g);
        assert_eq!(d.get(0, 2), 2);
        assert_eq!(d.get(2, 0), 2);
        assert_eq!(d.get(1, 1), 0);
        assert_eq!(d.get(0, 1), 1);
        assert_eq!(d.get(3, 0), NO_PATH);
        assert_eq!(g.ends(0).len(), 2, "parallel cables are two port-ends");
    }
}
