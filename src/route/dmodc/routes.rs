//! Route computation, formulas (1)–(4) of the Dmodc paper (§3.4), one
//! switch (one LFT row) per task.
//!
//! (1) with the down-path variant of §3.2/§3.4: an up group is a candidate
//! when `c[Ω][t]` < `c[s][t]`; a down group when the *down-path* cost of Ω to t
//! is < `c[s][t]`; a same-rank group never. With BFS ranks every down-only
//! path from x to t is exactly rank(x) − rank(t) hops long, so the down-path
//! cost of x is `c[x][t]` when `c[x][t]` = rank(x) − rank(t) and ∞ otherwise:
//! no second matrix is needed. It follows that a switch with a down path to
//! t ("down mode") has only down candidates and one without only up
//! candidates, so every route is up*·down* (`formats/dmodc.md`).

use super::costs::Costs;
use super::dests::Dests;
use super::escape::Escape;
pub use super::fastdiv::FastDiv;
use super::groups::{Group, Ranked};
use super::runs::{self, Run, Runs};
pub use super::scratch::Scratch;
use crate::model::NO_ROUTE;

/// Everything a row needs, shared by all threads.
pub struct RouteCtx<'a> {
    pub r: &'a Ranked,
    pub costs: &'a Costs,
    pub dests: &'a Dests,
    pub escape: &'a Escape,
    /// `small[v]` divides by v (1..=255).
    pub small: Vec<FastDiv>,
    /// The destinations as runs (`None` with LMC > 0).
    pub runs: Option<Runs>,
    /// The port choice of degraded up-mode targets ([`super::spread`]).
    pub variant: super::spread::Variant,
    pub nominal: Option<super::spread::Nominal>,
}

impl<'a> RouteCtx<'a> {
    pub fn new(r: &'a Ranked, costs: &'a Costs, dests: &'a Dests, escape: &'a Escape) -> Self {
        let small = (0..=255u64).map(FastDiv::new).collect();
        RouteCtx {
            r,
            costs,
            dests,
            escape,
            small,
            runs: Runs::build(dests, r.len()),
            variant: Default::default(),
            nominal: None,
        }
    }

    /// Fills the LFT row of internal switch `s` (entries start as NO_ROUTE).
    /// `alt`, when given, receives (lid, P_{s,d}) for every routed node LID.
    /// Returns the entries routed by escape hops (`D002`) and the entries
    /// of other targets left [`NO_ROUTE`] (`D004`).
    pub fn fill_row(
        &self,
        s: usize,
        row: &mut [u8],
        sc: &mut Scratch,
        mut alt: Option<&mut Vec<(u16, Vec<u8>)>>,
    ) -> (usize, usize) {
        let mut fallback = 0;
        sc.esc_ready = false;
        sc.up_ready = false;
        sc.down_ready = false;
        sc.all_ready = false;
        sc.nominal_ready = false;
        sc.skipped.clear();
        let fast = self.runs.as_ref().filter(|_| alt.is_none());
        self.count_candidates(s, sc);
        sc.pi_val = self.costs.divider[s].min(1 << 17) as u32;
        sc.pi = FastDiv::new(sc.pi_val as u64);
        let r = self.r;
        let groups: &[Group] = r.groups(s);
        for t in 0..r.len() {
            let dests = self.dests.of(t);
            if dests.is_empty() {
                continue;
            }
            if t == s {
                for d in dests {
                    set(row, d.lid, d.nlids, d.local_port);
                }
                continue;
            }
            if sc.count[t] == 0 {
                // No up-down path from s: an escape hop ([`escape`],
                // formats/dmodc.md §9), balanced by the same formulas.
                let Some(k) = self.escape.column(t) else {
                    sc.skipped.push(t as u32);
                    continue;
                };
                let routed = if fast.is_some() {
                    self.route_escape(s, t, k, dests, row, sc)
                } else {
                    self.escape_candidates(s, t, k, sc);
                    if !sc.cand.is_empty() {
                        self.route_dests(s, dests, row, sc);
                    }
                    !sc.cand.is_empty()
                };
                if routed {
                    fallback += dests.len();
                } else {
                    sc.skipped.push(t as u32);
                }
                continue;
            }
            if fast.is_some_and(|runs| self.fill_runs(s, runs.of(t), row, sc, t)) {
                continue;
            }
            self.candidates(s, t, sc);
            if !super::spread::route(self, s, t, dests, row, sc) {
                self.route_dests(s, dests, row, sc);
            }
            if let Some(alt) = alt.as_deref_mut() {
                let all: Vec<u8> = sc
                    .cand
                    .iter()
                    .flat_map(|&gi| r.group_ports(&groups[gi as usize]).iter().copied())
                    .collect();
                for d in dests {
                    for l in 0..d.nlids {
                        alt.push((d.lid + l, all.clone()));
                    }
                }
            }
        }
        // Only skipped targets can hold NO_ROUTE: every other destination
        // got a port (LIDs are distinct, ports are below 255).
        sc.pending.flush(row, &sc.up_table);
        let holes = sc
            .skipped
            .iter()
            .flat_map(|&t| self.dests.of(t as usize))
            .filter(|d| row[d.lid as usize] == NO_ROUTE)
            .count();
        (fallback, holes)
    }

    /// The whole-run cases of [`runs`]: every up group is a candidate (a
    /// slice of the row's up table), or one candidate group of one port (a
    /// fill). False, writing nothing, for the other cases.
    fn fill_runs(
        &self,
        s: usize,
        runs: &[Run],
        row: &mut [u8],
        sc: &mut Scratch,
        t: usize,
    ) -> bool {
        let cnt = sc.count[t] as usize;
        if !sc.down_mode[t] && cnt == sc.up_groups.len() {
            if let Some(nominal) = self.spread_nominal(s, t, cnt) {
                if !sc.nominal_ready {
                    let span = self.runs.as_ref().map_or(0, |r| r.span);
                    let pi = self.costs.divider[s].clamp(1, 1 << 17) as u32;
                    let groups = self.r.groups(s);
                    sc.nominal_row
                        .build(self.r, groups, &sc.up_groups, nominal, pi, span);
                    sc.nominal_ready = true;
                }
                return sc.nominal_row.fill(runs, row);
            }
            if !sc.up_ready {
                let span = self.runs.as_ref().map_or(0, |r| r.span);
                sc.up_table.resize(span, 0);
                runs::up_table(
                    self.r,
                    self.r.groups(s),
                    &sc.up_groups,
                    sc.pi_val,
                    &mut sc.up_table,
                );
                sc.up_ready = true;
            }
            for run in runs {
                let (lo, hi) = bounds(run, row.len());
                let d = run.d as usize;
                match hi - lo {
                    0 => {}
                    // A switch LID: no call to memcpy for one byte.
                    1 => row[lo] = sc.up_table[d],
                    len => sc.pending.add(row, &sc.up_table, lo, d, len),
                }
            }
            return true;
        }
        if cnt == 1 {
            let g = &self.r.groups(s)[sc.first[t] as usize];
            if g.len == 1 {
                let port = self.r.ports[g.start as usize];
                for run in runs {
                    let (lo, hi) = bounds(run, row.len());
                    if hi - lo == 1 {
                        row[lo] = port;
                    } else {
                        row[lo..hi].fill(port);
                    }
                }
                return true;
            }
        }
        false
    }

    /// The nominal up neighbours of `s` when the `spread` variant deals
    /// target `t` (a leaf, in up mode, with `cnt` candidate groups, all up
    /// groups of `s`): fewer candidates than nominal neighbours, as
    /// [`super::spread::route`] decides.
    fn spread_nominal(&self, s: usize, t: usize, cnt: usize) -> Option<&[u32]> {
        if self.variant != super::spread::Variant::Spread || t >= self.r.num_leaves || cnt == 0 {
            return None;
        }
        let nominal = self.nominal.as_ref()?.of(s);
        (cnt < nominal.len()).then_some(nominal)
    }

    /// Formulas (3)–(4) for node `d` at switch `s`, candidates in
    /// `sc.cand`, by exact reciprocal division ([`FastDiv`]).
    #[inline]
    pub(super) fn port_of(&self, s: usize, d: u32, sc: &Scratch) -> u8 {
        let cnt = sc.cand.len() as u32;
        let q = sc.pi.quot(d);
        let q2 = self.small[cnt as usize].quot(q);
        let g = &self.r.groups(s)[sc.cand[(q - q2 * cnt) as usize] as usize];
        let j = q2 - self.small[g.len as usize].quot(q2) * g.len;
        self.r.ports[(g.start + j) as usize]
    }

    /// Formulas (3)–(4) for the destinations of one target, candidates in
    /// `sc.cand`. Runs of consecutive `d` (a leaf's nodes in the default
    /// order) advance ⌊d/Π⌋ and the group index like an odometer instead of
    /// dividing for every node; the port of every candidate group is cached
    /// per value of ⌊d/(Π·#C)⌋.
    fn route_dests(
        &self,
        s: usize,
        dests: &[super::dests::Dest],
        row: &mut [u8],
        sc: &mut Scratch,
    ) {
        let r = self.r;
        let groups = r.groups(s);
        let cnt = sc.cand.len() as u32;
        let (pi_val, pi) = (sc.pi_val, sc.pi);
        let div_c = self.small[cnt as usize];
        let (mut prev, mut rem, mut k, mut q2) = (u32::MAX, 0u32, 0u32, 0u32);
        let mut cached_q2 = u32::MAX;
        for d in dests {
            if prev != u32::MAX && d.d == prev + 1 {
                rem += 1;
                if rem == pi_val {
                    rem = 0;
                    k += 1;
                    if k == cnt {
                        k = 0;
                        q2 += 1;
                    }
                }
            } else {
                let q = pi.quot(d.d);
                rem = d.d - q * pi_val;
                q2 = div_c.quot(q);
                k = q - q2 * cnt;
            }
            let run = prev != u32::MAX && d.d == prev + 1;
            prev = d.d;
            if !run && cached_q2 != q2 {
                // A lone destination (a switch LID): one port, no cache.
                let g = &groups[sc.cand[k as usize] as usize];
                let j = q2 - self.small[g.len as usize].quot(q2) * g.len;
                set(row, d.lid, d.nlids, r.ports[(g.start + j) as usize]);
                continue;
            }
            if cached_q2 != q2 {
                sc.port_of_k.clear();
                for &gi in &sc.cand {
                    let g = &groups[gi as usize];
                    let j = q2 - self.small[g.len as usize].quot(q2) * g.len;
                    sc.port_of_k.push(r.ports[(g.start + j) as usize]);
                }
                cached_q2 = q2;
            }
            set(row, d.lid, d.nlids, sc.port_of_k[k as usize]);
        }
        // LMC > 0: the LIDs past the base take the other ports of P_{s,d}.
        super::lmc::spread(r, groups, &sc.cand, pi_val, dests, row);
    }
}

/// The LID range of `run` cut to the row (as [`set`] cuts).
#[inline]
fn bounds(run: &Run, len: usize) -> (usize, usize) {
    let lo = (run.lid as usize).min(len);
    (lo, (lo + run.len as usize).min(len))
}

#[inline]
fn set(row: &mut [u8], lid: u16, nlids: u16, port: u8) {
    if nlids == 1 {
        if let Some(v) = row.get_mut(lid as usize) {
            *v = port;
        }
        return;
    }
    let lo = lid as usize;
    let hi = (lo + nlids as usize).min(row.len());
    if lo < hi {
        row[lo..hi].fill(port);
    }
}
