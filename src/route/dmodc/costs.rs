//! Costs `c[s][t]` and dividers Π_s: Procedure 1 of the Dmodc paper (§3.2,
//! §3.3), one parallel step and one barrier per rank.
//!
//! The paper pushes values from each switch to its neighbours; here each
//! switch of the level being updated *pulls* from the level that is already
//! final. Min and max do not depend on the order of their operands, so the
//! result is the paper's, and the same bytes whatever the thread count.
//!
//! Columns are every ranked switch, not only the leaves: the leaf columns
//! (`0..num_leaves`) route the nodes, the others route switch LIDs
//! (`formats/dmodc.md`, "Routes to switch LIDs").

use rayon::prelude::*;

use super::groups::{Dir, Ranked};

/// "Infinite" cost: no up–down path.
pub const INF: u8 = u8::MAX;

/// Cost matrix (row = switch, column = target switch) and dividers.
#[derive(Clone, Debug)]
pub struct Costs {
    /// Row-major, `n × n`, `n` = ranked switches in internal order.
    pub c: Vec<u8>,
    pub n: usize,
    /// Π_s, saturating.
    pub divider: Vec<u64>,
    /// Number of distinct up-neighbour switches, #{s' above s}.
    pub up_arity: Vec<u32>,
}

impl Costs {
    /// Row `s`.
    pub fn row(&self, s: usize) -> &[u8] {
        &self.c[s * self.n..(s + 1) * self.n]
    }

    /// `c[s][t]`.
    pub fn get(&self, s: usize, t: usize) -> u8 {
        self.c[s * self.n + t]
    }
}

/// `dst[t] = min(dst[t], src[t] + 1)` for every column: the relaxation of
/// Procedure 1 with its strict `c + 1 < c'` test (an INF source never
/// improves anything since INF + 1 saturates to INF).
fn relax(dst: &mut [u8], src: &[u8]) {
    for (d, &s) in dst.iter_mut().zip(src) {
        *d = (*d).min(s.saturating_add(1));
    }
}

/// Runs Procedure 1 on `r`.
pub fn compute(r: &Ranked) -> Costs {
    let n = r.len();
    let mut c = vec![INF; n * n];
    for i in 0..n {
        c[i * n + i] = 0;
    }
    let up_arity: Vec<u32> = (0..n)
        .map(|i| r.groups(i).iter().filter(|g| g.dir == Dir::Up).count() as u32)
        .collect();
    let mut divider = vec![1u64; n];
    let top = r.max_rank();
    // Upward sweep: rank k+1 pulls from its down-neighbours (rank k).
    for k in 0..top {
        let split = r.rank_start[k + 1] * n;
        let (below, above) = c.split_at_mut(split);
        let lo = r.rank_start[k + 1];
        let hi = r.rank_start[k + 2];
        let rows = &mut above[..(hi - lo) * n];
        let (div_below, div_above) = divider.split_at_mut(lo);
        rows.par_chunks_mut(n)
            .zip(div_above[..hi - lo].par_iter_mut())
            .enumerate()
            .for_each(|(j, (row, div))| {
                for g in r.groups(lo + j).iter().filter(|g| g.dir == Dir::Down) {
                    let s = g.peer as usize;
                    relax(row, &below[s * n..(s + 1) * n]);
                    let pi = div_below[s].saturating_mul(up_arity[s] as u64);
                    *div = (*div).max(pi);
                }
            });
    }
    // Downward sweep: rank k pulls from its up-neighbours (rank k+1), from
    // the top down, so a source row is final when it is read.
    for k in (0..top).rev() {
        let lo = r.rank_start[k];
        let hi = r.rank_start[k + 1];
        let (head, tail) = c.split_at_mut(hi * n);
        let rows = &mut head[lo * n..];
        rows.par_chunks_mut(n).enumerate().for_each(|(j, row)| {
            for g in r.groups(lo + j).iter().filter(|g| g.dir == Dir::Up) {
                let s = g.peer as usize - hi;
                relax(row, &tail[s * n..(s + 1) * n]);
            }
        });
    }
    Costs {
        c,
        n,
        divider,
        up_arity,
    }
}
