//! Escape routes: the entries of switches that have no up–down path to a
//! target switch (`c[s][t]` = ∞).
//!
//! Dmodc's formulas route only along up–down paths (§3.4), and its
//! validity rule (§4.1) asks every leaf to reach every other leaf that way.
//! Real fabrics break the rule in two common ways: a CA on a spine or core
//! (an aggregation node) is a destination that same-rank switches of its
//! pod reach only through a valley, and leaves cabled to disjoint sets of
//! top switches have no common ancestor. Their entries escape: every
//! switch `s` without an up–down path to `t` forwards to a neighbour on a
//! shortest path made of any hops followed by an up–down path, so the
//! escape length `e[s]` is the least `1 + e[n]` over its neighbours `n`, with
//! `e[n]` = `c[n][t]` on switches that have an up–down path. Escape hops
//! strictly shorten e and Dmodc's hops strictly shorten c, so no packet
//! loops; switches with an up–down path never forward to one without
//! (their candidates have finite costs), so escape entries serve only
//! traffic that starts at a switch without an up–down path to its target.
//! Those paths get an SL of their own ([`super::lanes`]); the up–down
//! paths stay on SL 0 / VL 0 and keep their ports (`formats/dmodc.md` §9).

use rayon::prelude::*;

use super::costs::{Costs, INF};
use super::groups::Ranked;

/// Escape lengths toward the targets that need them.
#[derive(Clone, Debug, Default)]
pub struct Escape {
    /// `col[t]`: column of `t` in `len`, `u32::MAX` when every switch has
    /// an up–down path to `t`.
    col: Vec<u32>,
    /// Row-major `n × k` (row = switch, one column per target that needs
    /// an escape): `e[s]` toward that target (INF: unreachable from `s`).
    len: Vec<u8>,
    k: usize,
}

/// The escape lengths `e[·]` toward one target: `e[s]` for switch `s`.
#[derive(Clone, Copy, Debug)]
pub struct Lengths<'a> {
    len: &'a [u8],
    k: usize,
    col: usize,
}

impl std::ops::Index<usize> for Lengths<'_> {
    type Output = u8;
    fn index(&self, s: usize) -> &u8 {
        &self.len[s * self.k + self.col]
    }
}

impl Escape {
    /// The escape lengths toward target `t`, if any switch needs one.
    pub fn toward(&self, t: usize) -> Option<Lengths<'_>> {
        let col = *self.col.get(t)?;
        (col != u32::MAX).then_some(Lengths {
            len: &self.len,
            k: self.k,
            col: col as usize,
        })
    }

    /// Whether some switch escapes toward `t`.
    pub fn needed(&self, t: usize) -> bool {
        self.toward(t).is_some()
    }

    /// Number of targets with escape lengths (columns of [`Escape::row`]).
    pub fn columns(&self) -> usize {
        self.k
    }

    /// The column of target `t` in [`Escape::row`], if it has one.
    pub fn column(&self, t: usize) -> Option<usize> {
        let col = *self.col.get(t)?;
        (col != u32::MAX).then_some(col as usize)
    }

    /// `e[s]` toward every target that has escape lengths, by column.
    pub fn row(&self, s: usize) -> &[u8] {
        &self.len[s * self.k..(s + 1) * self.k]
    }
}

/// The targets some switch has no up–down path to, then their escape
/// lengths: the shortest "any hops, then an up–down path" lengths, i.e.
/// the fixed point of `e[s]` = min(`c[s][t]`, min over neighbours n of
/// `e[n]` + 1) — what Dial's algorithm seeded by the costs gives, one target
/// at a time. Here all those targets go at once, row by row: each round
/// relaxes a switch's row against its neighbours' rows (byte-wide, like
/// Procedure 1's [`super::costs`]), and only rows next to a row that
/// changed are redone; a round per escape hop of the longest escape, and
/// the fixed point is unique, so the bytes do not depend on the thread
/// count. Lengths fit a byte since costs do (255 = unreachable).
pub fn compute(r: &Ranked, costs: &Costs) -> Escape {
    let n = r.len();
    let needs = targets_without_path(costs);
    let cols: Vec<usize> = (0..n).filter(|&t| needs[t]).collect();
    let k = cols.len();
    let mut col = vec![u32::MAX; n];
    for (i, &t) in cols.iter().enumerate() {
        col[t] = i as u32;
    }
    if k == 0 {
        return Escape {
            col,
            len: Vec::new(),
            k,
        };
    }
    let mut cur = vec![INF; n * k];
    cur.par_chunks_mut(k).enumerate().for_each(|(s, row)| {
        let c = costs.row(s);
        for (e, &t) in row.iter_mut().zip(&cols) {
            *e = c[t];
        }
    });
    let mut next = cur.clone();
    let mut changed = vec![true; n];
    while changed.iter().any(|&c| c) {
        let redo: Vec<bool> = (0..n)
            .map(|s| r.groups(s).iter().any(|g| changed[g.peer as usize]))
            .collect();
        changed = next
            .par_chunks_mut(k)
            .enumerate()
            .map(|(s, row)| {
                if !redo[s] {
                    return false;
                }
                for g in r.groups(s) {
                    let p = g.peer as usize;
                    relax(row, &cur[p * k..(p + 1) * k]);
                }
                row != &cur[s * k..(s + 1) * k]
            })
            .collect();
        for s in (0..n).filter(|&s| changed[s]) {
            cur[s * k..(s + 1) * k].copy_from_slice(&next[s * k..(s + 1) * k]);
        }
    }
    Escape { col, len: cur, k }
}

/// `dst[t] = min(dst[t], src[t] + 1)` (INF + 1 saturates to INF).
fn relax(dst: &mut [u8], src: &[u8]) {
    for (d, &s) in dst.iter_mut().zip(src) {
        *d = (*d).min(s.saturating_add(1));
    }
}

/// `needs[t]`: some row has `c[s][t]` = ∞ (one sequential pass per row).
fn targets_without_path(costs: &Costs) -> Vec<bool> {
    let n = costs.n;
    (0..n)
        .into_par_iter()
        .fold(
            || vec![false; n],
            |mut acc, s| {
                for (a, &c) in acc.iter_mut().zip(costs.row(s)) {
                    *a |= c == INF;
                }
                acc
            },
        )
        .reduce(
            || vec![false; n],
            |mut a, b| {
                a.iter_mut().zip(b).for_each(|(x, y)| *x |= y);
                a
            },
        )
}

/// The escape candidates of `s` toward a target with lengths `e`: its
/// groups (any direction) to a neighbour one step shorter, in group order.
pub fn candidates(r: &Ranked, s: usize, e: Lengths<'_>, out: &mut Vec<u8>) {
    out.clear();
    let want = e[s];
    if want == INF || want == 0 {
        return;
    }
    for (gi, g) in r.groups(s).iter().enumerate() {
        if e[g.peer as usize] == want - 1 {
            out.push(gi as u8);
        }
    }
}
