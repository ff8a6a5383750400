//! Whole runs of LIDs for the `spread` variant ([`super::spread`]) on rows
//! whose up groups are fewer than their nominal set U (a switch that lost
//! an up cable), so such rows keep the fast path of [`super::runs`].
//!
//! Toward a leaf whose candidates are every up group of s, the variant
//! gives destination `d` the nominal Dmodk port (seed
//! `dmodc-fault-resiliency-in-fat-trees.txt` §3.4 over U: group
//! `U[⌊d/Π⌋ mod #U]`, port `⌊d/(Π·#U)⌋ mod |g|`) whenever that group has a
//! cable — a function of `d` alone, so one **nominal table** per row, and a
//! run is a copy of a slice of it. Only the *displaced* values of ⌊d/Π⌋
//! (group without a cable) depend on the target: they are dealt as
//! [`super::spread`] deals them (least-used candidate port after counting
//! the kept ones per distinct ⌊d/Π⌋, scanning cyclically from the paper's
//! pick), one ⌊d/Π⌋ at a time. Same bytes as `spread::route`;
//! `tests::it::dmodc_spread` compares whole tables of degraded fabrics with
//! the per-destination path.

use super::groups::{Dir, Group, Ranked};
use super::runs::Run;

/// Marks a displaced `d` in the nominal table (ports are below 255).
const DISPLACED: u8 = u8::MAX;

/// The nominal table of one row and the candidate ports C (every up group
/// of the row, in group order) with their use counts.
#[derive(Default)]
pub(super) struct NominalRow {
    /// Port of `d` by the nominal formula, or [`DISPLACED`].
    table: Vec<u8>,
    /// Per nominal position: (first index in `ports`, group length), or
    /// `(u32::MAX, 0)` when the row has no cable to that neighbour.
    nom: Vec<(u32, u32)>,
    /// Per up group (in group order): (first index in `ports`, length).
    up: Vec<(u32, u32)>,
    /// The ports of C, group by group, and how many ⌊d/Π⌋ use each.
    ports: Vec<u8>,
    count: Vec<u32>,
    /// Displaced ⌊d/Π⌋ of the current target, ascending.
    displaced: Vec<u32>,
    pi: u32,
}

impl NominalRow {
    /// Builds the row's table for `d < span`: `nominal` are the nominal up
    /// neighbours of s, `up` its up groups (indices into `groups`).
    pub fn build(
        &mut self,
        r: &Ranked,
        groups: &[Group],
        up: &[u8],
        nominal: &[u32],
        pi: u32,
        span: usize,
    ) {
        self.pi = pi.max(1);
        self.ports.clear();
        self.up.clear();
        for &gi in up {
            let g = &groups[gi as usize];
            self.up.push((self.ports.len() as u32, g.len));
            self.ports.extend_from_slice(r.group_ports(g));
        }
        self.nom.clear();
        self.nom.extend(nominal.iter().map(|&p| {
            let at = up.iter().position(|&gi| {
                groups[gi as usize].peer == p && groups[gi as usize].dir == Dir::Up
            });
            at.map_or((u32::MAX, 0), |k| self.up[k])
        }));
        self.table.clear();
        self.table.resize(span, DISPLACED);
        let n = self.nom.len() as u32;
        let pi = self.pi as usize;
        for (q, chunk) in self.table.chunks_mut(pi).enumerate() {
            let q = q as u32;
            let (slot, len) = self.nom[(q % n) as usize];
            if slot != u32::MAX {
                chunk.fill(self.ports[(slot + (q / n) % len) as usize]);
            }
        }
    }

    /// Writes the destinations of one leaf target (`runs`) into `row`.
    /// False, having written nothing useful, when the runs are not in
    /// ascending ⌊d/Π⌋ order or cut by the row's end (the caller then takes
    /// `spread::route`, which rewrites every destination).
    pub fn fill(&mut self, runs: &[Run], row: &mut [u8]) -> bool {
        // A run past the row's end: its unwritten LIDs still count.
        if runs
            .iter()
            .any(|run| bounds(run, row.len()).1 - bounds(run, row.len()).0 < run.len as usize)
        {
            return false;
        }
        let mut any_displaced = false;
        for run in runs {
            let (lo, hi) = bounds(run, row.len());
            let d = run.d as usize;
            let src = &self.table[d..d + (hi - lo)];
            row[lo..hi].copy_from_slice(src);
            any_displaced |= src.contains(&DISPLACED);
        }
        if !any_displaced {
            return true;
        }
        self.count.clear();
        self.count.resize(self.ports.len(), 0);
        self.displaced.clear();
        let (pi, n) = (self.pi, self.nom.len() as u32);
        let mut last: Option<u32> = None;
        for run in runs {
            let (q0, q1) = (run.d / pi, (run.d + run.len - 1) / pi);
            let from = match last {
                Some(l) if q0 < l => return false,
                Some(l) if q0 == l => q0 + 1,
                _ => q0,
            };
            for q in from..=q1 {
                let (slot, len) = self.nom[(q % n) as usize];
                if slot == u32::MAX {
                    self.displaced.push(q);
                } else {
                    self.count[(slot + (q / n) % len) as usize] += 1;
                }
            }
            last = Some(q1);
        }
        let c = self.up.len() as u32;
        for i in 0..self.displaced.len() {
            let q = self.displaced[i];
            let (slot, len) = self.up[(q % c) as usize];
            let start = (slot + (q / c) % len) as usize;
            let best = super::spread::least_used_from(&self.count, start);
            self.count[best] += 1;
            let port = self.ports[best];
            let (qlo, qhi) = (q * pi, q.saturating_add(1).saturating_mul(pi));
            for run in runs {
                let (dlo, dhi) = (run.d.max(qlo), (run.d + run.len).min(qhi));
                for d in dlo..dhi {
                    if let Some(v) = row.get_mut(run.lid as usize + (d - run.d) as usize) {
                        *v = port;
                    }
                }
            }
        }
        true
    }
}

/// The LID range of `run` cut to the row.
#[inline]
fn bounds(run: &Run, len: usize) -> (usize, usize) {
    let lo = (run.lid as usize).min(len);
    (lo, (lo + run.len as usize).min(len))
}
