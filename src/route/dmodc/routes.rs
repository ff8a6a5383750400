//! Route computation, formulas (1)–(4) of the Dmodc paper (§3.4), one
//! switch (one LFT row) per task.
//!
//! (1) with the down-path variant of §3.2/§3.4: an up group is a candidate
//! when c[Ω][t] < c[s][t]; a down group when the *down-path* cost of Ω to t
//! is < c[s][t]; a same-rank group never. With BFS ranks every down-only
//! path from x to t is exactly rank(x) − rank(t) hops long, so the down-path
//! cost of x is c[x][t] when c[x][t] = rank(x) − rank(t) and ∞ otherwise:
//! no second matrix is needed. It follows that a switch with a down path to
//! t ("down mode") has only down candidates and one without only up
//! candidates, so every route is up*·down* (`formats/dmodc.md`).

use super::costs::{Costs, INF};
use super::dests::Dests;
use super::groups::{Dir, Group, Ranked};

const NONE: u8 = u8::MAX;

/// Exact division by a constant for numerators below 2^17 (node indices are
/// below 2^17 since LIDs are 16-bit): `x / v = (x · ⌈2^40 / v⌉) >> 40`,
/// exact because x · (⌈2^40/v⌉·v − 2^40) < 2^17 · 2^17 < 2^40.
#[derive(Clone, Copy, Debug)]
pub struct FastDiv {
    m: u64,
}

impl FastDiv {
    /// Divider `v` (>= 1). Values above 2^17 act as 2^17: every quotient of
    /// a numerator below 2^17 is 0 either way.
    pub fn new(v: u64) -> FastDiv {
        let v = v.clamp(1, 1 << 17);
        FastDiv {
            m: (1u64 << 40).div_ceil(v),
        }
    }

    #[inline]
    pub fn div(self, x: u32) -> u32 {
        ((x as u64 * self.m) >> 40) as u32
    }
}

/// Per-thread buffers of one row computation.
pub struct Scratch {
    down_mode: Vec<bool>,
    count: Vec<u8>,
    first: Vec<u8>,
    cand: Vec<u8>,
}

impl Scratch {
    pub fn new(n: usize) -> Scratch {
        Scratch {
            down_mode: vec![false; n],
            count: vec![0; n],
            first: vec![NONE; n],
            cand: Vec::with_capacity(256),
        }
    }
}

/// Everything a row needs, shared by all threads.
pub struct RouteCtx<'a> {
    pub r: &'a Ranked,
    pub costs: &'a Costs,
    pub dests: &'a Dests,
    /// `small[v]` divides by v (1..=255).
    pub small: Vec<FastDiv>,
}

impl<'a> RouteCtx<'a> {
    pub fn new(r: &'a Ranked, costs: &'a Costs, dests: &'a Dests) -> Self {
        let small = (0..=255u64).map(FastDiv::new).collect();
        RouteCtx { r, costs, dests, small }
    }

    /// Counts the candidate groups of switch `s` for every target at once
    /// (byte-wide passes over the cost rows), remembering the first one.
    fn count_candidates(&self, s: usize, sc: &mut Scratch) {
        let r = self.r;
        let cs = self.costs.row(s);
        let rank_s = r.rank[s];
        for ((dm, &c), &rt) in sc.down_mode.iter_mut().zip(cs).zip(&r.rank) {
            *dm = c != INF && rt <= rank_s && c == rank_s - rt;
        }
        sc.count.fill(0);
        sc.first.fill(NONE);
        for (gi, g) in r.groups(s).iter().enumerate() {
            if g.dir == Dir::Level {
                continue;
            }
            let want_down = g.dir == Dir::Down;
            let cg = self.costs.row(g.peer as usize);
            let it = sc.count.iter_mut().zip(sc.first.iter_mut()).zip(cs.iter().zip(cg)).zip(&sc.down_mode);
            for (((cnt, first), (&c, &o)), &dm) in it {
                let hit = c != INF && o.wrapping_add(1) == c && dm == want_down;
                *cnt += hit as u8;
                if hit && *first == NONE {
                    *first = gi as u8;
                }
            }
        }
    }

    /// The candidate groups C_{s,t} (indices into the groups of `s`), in
    /// group (neighbour GUID) order.
    fn candidates(&self, s: usize, t: usize, sc: &mut Scratch) {
        sc.cand.clear();
        let cnt = sc.count[t];
        if cnt == 1 {
            sc.cand.push(sc.first[t]);
            return;
        }
        let want_down = sc.down_mode[t];
        let c = self.costs.get(s, t);
        for (gi, g) in self.r.groups(s).iter().enumerate() {
            let dir_ok = if want_down { g.dir == Dir::Down } else { g.dir == Dir::Up };
            if dir_ok && self.costs.get(g.peer as usize, t).wrapping_add(1) == c {
                sc.cand.push(gi as u8);
            }
        }
        debug_assert_eq!(sc.cand.len(), cnt as usize);
    }

    /// Fills the LFT row of internal switch `s` (entries start as NO_ROUTE).
    /// `alt`, when given, receives (lid, P_{s,d}) for every routed node LID.
    pub fn fill_row(&self, s: usize, row: &mut [u8], sc: &mut Scratch, mut alt: Option<&mut Vec<(u16, Vec<u8>)>>) {
        self.count_candidates(s, sc);
        let r = self.r;
        let groups: &[Group] = r.groups(s);
        let pi = FastDiv::new(self.costs.divider[s]);
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
            let cnt = sc.count[t];
            if cnt == 0 {
                continue;
            }
            self.candidates(s, t, sc);
            let div_c = self.small[cnt as usize];
            for d in dests {
                let q = pi.div(d.d);
                let q2 = div_c.div(q);
                let k = q - q2 * cnt as u32;
                let g = &groups[sc.cand[k as usize] as usize];
                let j = q2 - self.small[g.len as usize].div(q2) * g.len;
                let port = r.ports[(g.start + j) as usize];
                set(row, d.lid, d.nlids, port);
                if let Some(alt) = alt.as_deref_mut() {
                    let all: Vec<u8> = sc.cand.iter().flat_map(|&gi| r.group_ports(&groups[gi as usize]).iter().copied()).collect();
                    for l in 0..d.nlids {
                        alt.push((d.lid + l, all.clone()));
                    }
                }
            }
        }
    }
}

fn set(row: &mut [u8], lid: u16, nlids: u16, port: u8) {
    let lo = lid as usize;
    let hi = (lo + nlids as usize).min(row.len());
    if lo < hi {
        row[lo..hi].fill(port);
    }
}
