//! The `spread` variant of formulas (3)–(4) (seed
//! `dmodc-fault-resiliency-in-fat-trees.txt` §3.4) for degraded up-mode
//! candidate sets (issue 13 §3, `formats/dmodc.md` §5.1).
//!
//! The paper picks `C[⌊d/Π⌋ mod #C]` over the candidate groups C of
//! (switch s, target t). When a fault removes one group from C, every
//! destination of t is dealt anew over the remaining groups, not only those
//! whose group is gone, and sources whose C toward t differs (an intact
//! leaf, a leaf that lost another spine) send one destination by different
//! spines, so two destinations of one leaf can meet on a down cable. The
//! variant keeps Dmodk's choice over the **nominal** up neighbours U of s,
//! `U[⌊d/Π⌋ mod #U]` and port `⌊d/(Π·#U)⌋ mod |g|` (what the paper gives
//! for an intact target of an intact fabric), whenever that group is a
//! candidate, and deals
//! only the **displaced** values of ⌊d/Π⌋ (whose group is not) over the
//! candidate ports: each to the least-used port of C toward t (kept ones
//! counted first), ties broken cyclically from the paper's own pick.
//!
//! U is [`Nominal`]: the up neighbours a switch of the same rank sharing
//! an upper switch with s uses, so a leaf that lost its cable to one spine
//! keeps every other spine where intact leaves have it. Where C = U (every
//! target of an intact fat-tree, every target of a fabric with only empty
//! host ports) nothing is displaced and the result is the paper's byte for
//! byte, so the fast path of `runs.rs` stays valid on every row whose up
//! groups are U; down mode, escape hops and LMC > 0 keep the paper's
//! formulas. Choices
//! are among C only, so routes stay minimal up*·down*; each row is a pure
//! function of the fabric, whatever the thread count.

use std::cell::RefCell;

use rayon::prelude::*;

use super::costs::{Costs, INF};
use super::dests::Dest;
use super::groups::{Dir, Group, Ranked};
use super::routes::{RouteCtx, Scratch};
use super::union::Union;

/// Which port choice Dmodc uses (`compile --dmodc-variant`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Variant {
    /// Formulas (3)–(4) exactly as published.
    Paper,
    /// Dmodk's group where it is still a candidate, the displaced
    /// destinations spread over the least-used candidate ports.
    #[default]
    Spread,
}

/// The nominal up neighbours of every switch (internal indices, ascending,
/// i.e. in neighbour GUID order within a rank).
#[derive(Clone, Debug, Default)]
pub struct Nominal {
    start: Vec<u32>,
    peers: Vec<u32>,
    /// Whether the nominal set is not exactly the switch's up groups (the
    /// row's `runs.rs` up table would then not be this variant's).
    pub differs: Vec<bool>,
}

impl Nominal {
    /// A switch's *useful* up neighbours are those that are a candidate
    /// toward at least one leaf; its nominal set is the union of the
    /// useful up neighbours of every switch of its rank that shares a
    /// useful up neighbour with it (itself included).
    pub fn build(r: &Ranked, costs: &Costs) -> Nominal {
        let n = r.len();
        let useful: Vec<Vec<u32>> = (0..n)
            .into_par_iter()
            .map(|s| useful_up(r, costs, s))
            .collect();
        // Per upper switch p: the union of the useful sets of the switches
        // below it that count p useful; a switch's nominal set is the union
        // of those of its useful up neighbours.
        let below: Vec<Vec<u32>> = (0..n)
            .into_par_iter()
            .map_init(
                || Union::new(n),
                |u, p| {
                    let lists = r.groups(p).iter().filter(|g| g.dir == Dir::Down);
                    let lists = lists
                        .map(|g| useful[g.peer as usize].as_slice())
                        .filter(|l| l.contains(&(p as u32)));
                    u.of(lists)
                },
            )
            .collect();
        let sets: Vec<Vec<u32>> = (0..n)
            .into_par_iter()
            .map_init(
                || Union::new(n),
                |u, s| u.of(useful[s].iter().map(|&p| below[p as usize].as_slice())),
            )
            .collect();
        let mut nom = Nominal {
            start: Vec::with_capacity(n + 1),
            ..Nominal::default()
        };
        for (s, set) in sets.into_iter().enumerate() {
            let up = r.groups(s).iter().filter(|g| g.dir == Dir::Up);
            nom.differs
                .push(!up.map(|g| g.peer).eq(set.iter().copied()));
            nom.start.push(nom.peers.len() as u32);
            nom.peers.extend(set);
        }
        nom.start.push(nom.peers.len() as u32);
        nom
    }

    /// The nominal up neighbours of switch `s`.
    pub fn of(&self, s: usize) -> &[u32] {
        &self.peers[self.start[s] as usize..self.start[s + 1] as usize]
    }
}

/// The up neighbours of `s` that are a candidate toward some leaf:
/// c[Ω][l] + 1 = c[s][l] where s has no down path to l (c[s][l] ≠ rank s).
fn useful_up(r: &Ranked, costs: &Costs, s: usize) -> Vec<u32> {
    let leaves = r.num_leaves;
    let cs = &costs.row(s)[..leaves];
    let rank = r.rank[s];
    let mut out: Vec<u32> = Vec::new();
    for g in r.groups(s).iter().filter(|g| g.dir == Dir::Up) {
        let cp = &costs.row(g.peer as usize)[..leaves];
        let hit = cs
            .iter()
            .zip(cp)
            .any(|(&c, &o)| c != INF && c != rank && o.wrapping_add(1) == c);
        if hit && out.last() != Some(&g.peer) {
            out.push(g.peer);
        }
    }
    out
}

/// Per-thread buffers of [`route`].
#[derive(Default)]
struct Buf {
    /// The row whose `nom_group` this is.
    row_of: usize,
    /// Nominal position → group index of the row (MAX: no cable).
    nom_group: Vec<u32>,
    /// Group index → first index of its ports in `ports` (MAX: not in C).
    slot: Vec<u32>,
    /// The ports of C, group by group, and how many ⌊d/Π⌋ values use each.
    ports: Vec<u8>,
    count: Vec<u32>,
    /// Distinct ⌊d/Π⌋ of the target, ascending, with the index of their
    /// port in `ports` (MAX while displaced).
    qs: Vec<(u32, u32)>,
}

thread_local! {
    static BUF: RefCell<Buf> = RefCell::new(Buf::default());
}

/// Routes the destinations of target `t` at switch `s` (candidates in
/// `sc.cand`) by the spread variant and returns true, or returns false
/// writing nothing where the variant is the paper's formulas (another
/// variant, down mode, C = U, LMC > 0, or `t` not a leaf: a switch LID's
/// candidates are fewer than U even on an intact fat-tree, by design).
pub(super) fn route(
    ctx: &RouteCtx<'_>,
    s: usize,
    t: usize,
    dests: &[Dest],
    row: &mut [u8],
    sc: &Scratch,
) -> bool {
    let groups = ctx.r.groups(s);
    let cand = &sc.cand;
    let Some(nominal) = ctx.nominal.as_ref().map(|n| n.of(s)) else {
        return false;
    };
    let degraded_up =
        !cand.is_empty() && cand.len() < nominal.len() && groups[cand[0] as usize].dir == Dir::Up;
    let leaf = t < ctx.r.num_leaves;
    if ctx.variant != Variant::Spread || !degraded_up || !leaf || ctx.runs.is_none() {
        return false;
    }
    let pi = ctx.costs.divider[s].clamp(1, 1 << 17) as u32;
    BUF.with(|b| {
        let b = &mut *b.borrow_mut();
        if b.row_of != s || b.nom_group.len() != nominal.len() {
            b.row_of = s;
            b.nom_group.clear();
            b.nom_group.extend(nominal.iter().map(|&p| {
                groups
                    .iter()
                    .position(|g| g.peer == p && g.dir == Dir::Up)
                    .map_or(u32::MAX, |i| i as u32)
            }));
        }
        b.slot.clear();
        b.slot.resize(groups.len(), u32::MAX);
        b.ports.clear();
        for &gi in cand {
            b.slot[gi as usize] = b.ports.len() as u32;
            b.ports
                .extend_from_slice(ctx.r.group_ports(&groups[gi as usize]));
        }
        b.count.clear();
        b.count.resize(b.ports.len(), 0);
        b.qs.clear();
        b.qs.extend(dests.iter().map(|d| (d.d / pi, u32::MAX)));
        b.qs.sort_unstable();
        b.qs.dedup();
        keep_formula_ports(b, groups);
        spread_displaced(b, groups, cand);
        for d in dests {
            let q = d.d / pi;
            let i = b.qs.partition_point(|e| e.0 < q);
            if let Some(v) = row.get_mut(d.lid as usize) {
                *v = b.ports[b.qs[i].1 as usize];
            }
        }
    });
    true
}

/// Dmodk's port over the nominal up neighbours, for every ⌊d/Π⌋ whose
/// group is a candidate.
fn keep_formula_ports(b: &mut Buf, groups: &[Group]) {
    let n = b.nom_group.len() as u32;
    for e in b.qs.iter_mut() {
        let gi = b.nom_group[(e.0 % n) as usize];
        let slot = b.slot.get(gi as usize).copied().unwrap_or(u32::MAX);
        if slot != u32::MAX {
            let gi = gi as usize;
            let idx = slot + (e.0 / n) % groups[gi].len;
            b.count[idx as usize] += 1;
            e.1 = idx;
        }
    }
}

/// Each displaced ⌊d/Π⌋ (ascending) to the least-used candidate port,
/// scanning cyclically from the paper's pick `C[q mod #C]`, port
/// `⌊q/#C⌋ mod |g|`.
fn spread_displaced(b: &mut Buf, groups: &[Group], cand: &[u8]) {
    let c = cand.len() as u32;
    for e in b.qs.iter_mut().filter(|e| e.1 == u32::MAX) {
        let gi = cand[(e.0 % c) as usize] as usize;
        let start = (b.slot[gi] + (e.0 / c) % groups[gi].len) as usize;
        let best = least_used_from(&b.count, start);
        b.count[best] += 1;
        e.1 = best as u32;
    }
}

/// The least-used port slot, scanning cyclically from `start` (the first
/// of equals wins, so the paper's pick is kept when it is no busier).
pub(super) fn least_used_from(count: &[u32], start: usize) -> usize {
    let total = count.len();
    let mut best = start;
    for i in 1..total {
        let p = (start + i) % total;
        if count[p] < count[best] {
            best = p;
        }
    }
    best
}
