//! Escape routes: the entries of switches that have no up–down path to a
//! target switch (c[s][t] = ∞).
//!
//! Dmodc's formulas route only along up–down paths (§3.4), and its
//! validity rule (§4.1) asks every leaf to reach every other leaf that way.
//! Real fabrics break the rule in two common ways: a CA on a spine or core
//! (an aggregation node) is a destination that same-rank switches of its
//! pod reach only through a valley, and leaves cabled to disjoint sets of
//! top switches have no common ancestor. Their entries escape: every
//! switch `s` without an up–down path to `t` forwards to a neighbour on a
//! shortest path made of any hops followed by an up–down path, so the
//! escape length e[s] is the least `1 + e[n]` over its neighbours `n`, with
//! e[n] = c[n][t] on switches that have an up–down path. Escape hops
//! strictly shorten e and Dmodc's hops strictly shorten c, so no packet
//! loops; switches with an up–down path never forward to one without
//! (their candidates have finite costs), so escape entries serve only
//! traffic that starts at a switch without an up–down path to its target.
//! Those paths get an SL of their own ([`super::lanes`]); the up–down
//! paths stay on SL 0 / VL 0 and keep their ports (`formats/dmodc.md` §9).

use rayon::prelude::*;

use super::costs::{Costs, INF};
use super::groups::Ranked;

/// Escape lengths per target switch that needs them.
#[derive(Clone, Debug, Default)]
pub struct Escape {
    /// `len[t]`: e[s] for every switch `s` (INF: `t` unreachable from `s`),
    /// `None` when every switch has an up–down path to `t`.
    len: Vec<Option<Vec<u8>>>,
}

impl Escape {
    /// The escape lengths toward target `t`, if any switch needs one.
    pub fn toward(&self, t: usize) -> Option<&[u8]> {
        self.len.get(t).and_then(|l| l.as_deref())
    }

    /// Whether some switch escapes toward `t`.
    pub fn needed(&self, t: usize) -> bool {
        self.toward(t).is_some()
    }
}

/// The targets some switch has no up–down path to, then their escape
/// lengths (Dial's algorithm seeded by the costs; lengths fit a byte since
/// costs do and fabrics deeper than 100 ranks are refused).
pub fn compute(r: &Ranked, costs: &Costs) -> Escape {
    let n = r.len();
    let needs = targets_without_path(costs);
    let len = (0..n)
        .into_par_iter()
        .map(|t| needs[t].then(|| lengths(r, costs, t)))
        .collect();
    Escape { len }
}

/// `needs[t]`: some row has c[s][t] = ∞ (one sequential pass per row).
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

/// e[·] toward `t`: shortest "any hops, then up–down" lengths.
fn lengths(r: &Ranked, costs: &Costs, t: usize) -> Vec<u8> {
    let n = r.len();
    let mut e: Vec<u8> = (0..n).map(|s| costs.get(s, t)).collect();
    let mut bucket: Vec<Vec<u32>> = vec![Vec::new(); INF as usize];
    for (s, &c) in e.iter().enumerate() {
        if c != INF {
            bucket[c as usize].push(s as u32);
        }
    }
    for d in 0..INF as usize - 1 {
        let here = std::mem::take(&mut bucket[d]);
        for &s in &here {
            if e[s as usize] as usize != d {
                continue;
            }
            for g in r.groups(s as usize) {
                let p = g.peer as usize;
                if e[p] as usize > d + 1 {
                    e[p] = (d + 1) as u8;
                    bucket[d + 1].push(p as u32);
                }
            }
        }
    }
    e
}

/// The escape candidates of `s` toward a target with lengths `e`: its
/// groups (any direction) to a neighbour one step shorter, in group order.
pub fn candidates(r: &Ranked, s: usize, e: &[u8], out: &mut Vec<u8>) {
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
