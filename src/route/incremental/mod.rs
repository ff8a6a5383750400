//! Incremental re-routing (`compile --previous DIR`, 2005 OpenSM memo §6,
//! seed `opensm-unicast-routing-enhancements-2005.txt`): keep every entry of
//! the previous tables that is still valid on the new fabric and re-route
//! only the others.
//!
//! Engine-agnostic: the engine routes the new fabric from scratch as usual
//! (its *fresh* tables and promise), and this module merges, per
//! destination LID (`formats/state.md`, "compile --previous"):
//! 1. a path is *valid* when, followed in the tables over the new cables,
//!    it reaches the destination and keeps the engine's promise — up/down
//!    with the fresh ranks (dmodc, updn; CA LIDs), or every hop one switch
//!    closer (minhop, no ranks); a destination routed as before is kept;
//! 2. the merge starts from the previous tables (fresh entries for switches
//!    new to them, and with `--restore engine` where the fresh path crosses
//!    a cable that came back);
//! 3. round by round, each broken path gets one fresh entry: the one
//!    closest to the break whose fresh route keeps the promise from the
//!    phase the path arrives in (memo §6: spread the failing port's routes
//!    at its switch, go back to the feeding switches only when there is no
//!    other way). Each round makes one more entry the engine's, so it ends;
//!    at worst the column is the engine's own, which keeps the promise.
//!
//! The result is verified like any compile; this module does not grade it.

mod walk;

use std::collections::BTreeMap;

use rayon::prelude::*;

use crate::model::hops::SwitchHops;
use crate::model::incremental::{ChangeReason, IncrementalSummary};
use crate::model::{Fabric, LFT_BLOCK, Lfts, LidMap, Routing};
use walk::{End, Next, Ports, Rule, Target, Walker};

/// What to do where a cable came back (or is new): the reverse change.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Restore {
    /// Take the engine's route for every entry whose fresh path crosses a
    /// cable the previous fabric lacked.
    Engine,
    /// Keep the previous entries: the smallest change.
    Keep,
}

impl Restore {
    pub fn name(self) -> &'static str {
        match self {
            Restore::Engine => "engine",
            Restore::Keep => "keep",
        }
    }
}

/// The previous run, laid over the new fabric.
pub struct Previous<'a> {
    /// The previous tables in the new fabric's switch order and LID space
    /// (same shape as the fresh tables).
    pub lfts: &'a Lfts,
    /// Switches the previous tables lack.
    pub new_switch: &'a [bool],
    /// Per switch, per port (0..=NumPorts): the cable on it is absent from
    /// the previous fabric.
    pub new_cable: &'a [Vec<bool>],
}

/// The merged tables and what was done.
pub struct Repaired {
    pub lfts: Lfts,
    pub summary: IncrementalSummary,
}

/// Merges `prev` with the engine's `fresh` routing of `fabric`.
pub fn repair(
    fabric: &Fabric,
    lids: &LidMap,
    prev: &Previous,
    fresh: &Routing,
    restore: Restore,
) -> Repaired {
    let ranks = fresh.promise.up_down_ranks.as_deref();
    let ctx = Ctx {
        ports: Ports::new(fabric, ranks),
        hops: ranks.is_none().then(|| SwitchHops::compute(fabric)),
        prev,
        any_new_switch: prev.new_switch.iter().any(|&b| b),
        restore: restore == Restore::Engine && prev.new_cable.iter().flatten().any(|&b| b),
    };
    let n = fabric.num_switches();
    let lids_n = fresh.lfts.top() as usize + 1;
    // LID-major copies, so that each destination's column is contiguous
    let (old_t, fresh_t) = (columns(prev.lfts, lids_n), columns(&fresh.lfts, lids_n));
    let mut out_t = vec![0u8; n * lids_n];
    let total = out_t
        .par_chunks_mut(n.max(1))
        .enumerate()
        .map_init(
            || Scratch::new(n),
            |sc, (lid, out)| {
                let target = Target::of(fabric, lids, lid as u16);
                let (old, fresh) = (&old_t[lid * n..][..n], &fresh_t[lid * n..][..n]);
                ctx.column(target, old, fresh, out, sc)
            },
        )
        .reduce(Counts::default, |mut a, b| {
            a.add(&b);
            a
        });
    let mut lfts = fresh.lfts.clone();
    for (s, row) in lfts.rows_mut().enumerate() {
        for (lid, e) in row[..lids_n].iter_mut().enumerate() {
            *e = out_t[lid * n + s];
        }
    }
    let summary = IncrementalSummary {
        restore: restore.name(),
        kept: total.kept,
        changed: total.changed,
        changed_blocks: changed_blocks(prev.lfts, &lfts, prev.new_switch),
        reasons: total.reasons,
        differs_from_engine: total.differs,
        cabling: Vec::new(),
    };
    Repaired { lfts, summary }
}

/// 64-entry blocks of `new` that differ from `old` (every block of a
/// switch `old` lacks): the LinearForwardingTable SMPs of the change.
pub fn changed_blocks(old: &Lfts, new: &Lfts, new_switch: &[bool]) -> u64 {
    (0..new.num_switches())
        .map(|s| {
            let blocks = new.top() as usize / LFT_BLOCK + 1;
            (0..blocks)
                .filter(|&b| new_switch[s] || old.block(s, b) != new.block(s, b))
                .count() as u64
        })
        .sum()
}

/// The first `lids` entries of every row, LID-major (`[lid * switches + s]`).
fn columns(t: &Lfts, lids: usize) -> Vec<u8> {
    let n = t.num_switches();
    let mut out = vec![0u8; n * lids];
    out.par_chunks_mut(n.max(1))
        .enumerate()
        .for_each(|(lid, col)| {
            for (s, e) in col.iter_mut().enumerate() {
                *e = t.get(s, lid as u16);
            }
        });
    out
}

/// Why a re-routed entry had to change: how its path broke, and whether
/// the entry is where it broke (`at_break`, its own port `next`).
fn reason(how: End, at_break: bool, next: Next) -> ChangeReason {
    match how {
        End::PortDown if at_break && next == Next::Down => ChangeReason::PortDown,
        End::PortDown => ChangeReason::PathBroken,
        End::NoRoute | End::Elsewhere if at_break => ChangeReason::Unreached,
        End::NoRoute | End::Elsewhere => ChangeReason::PathBroken,
        End::Loop => ChangeReason::Loop,
        End::UpAfterDown => ChangeReason::UpDown,
        End::NotShortest => ChangeReason::NotShortest,
        End::Reached => ChangeReason::Consistency,
    }
}

/// Counts of one column (or all).
#[derive(Default)]
struct Counts {
    kept: u64,
    changed: u64,
    differs: u64,
    reasons: BTreeMap<ChangeReason, u64>,
}

impl Counts {
    fn add(&mut self, o: &Counts) {
        self.kept += o.kept;
        self.changed += o.changed;
        self.differs += o.differs;
        for (&r, &c) in &o.reasons {
            *self.reasons.entry(r).or_default() += c;
        }
    }
}

struct Ctx<'a> {
    ports: Ports,
    hops: Option<SwitchHops>,
    prev: &'a Previous<'a>,
    any_new_switch: bool,
    restore: bool,
}

/// Per-thread buffers.
struct Scratch {
    walker: Walker,
    new: Vec<u8>,
    end: Vec<End>,
    /// How the merged path ends when it need only reach.
    loose: Vec<End>,
    path: Vec<usize>,
    /// How the engine's own path ends, per switch × phase.
    fresh_end: Vec<End>,
    /// `fresh_end` holds this column's walk.
    fresh_walked: bool,
    why: Vec<Option<ChangeReason>>,
}

impl Scratch {
    fn new(n: usize) -> Scratch {
        Scratch {
            walker: Walker::new(n),
            new: vec![0; n],
            end: vec![End::Reached; n],
            loose: vec![End::Reached; n],
            path: Vec::new(),
            fresh_walked: false,
            fresh_end: vec![End::Reached; 2 * n],
            why: vec![None; n],
        }
    }
}

impl Ctx<'_> {
    /// The merged column of one destination into `out`.
    fn column(
        &self,
        target: Target,
        old: &[u8],
        fresh: &[u8],
        out: &mut [u8],
        sc: &mut Scratch,
    ) -> Counts {
        let n = old.len();
        let mut c = Counts::default();
        if old == fresh && !self.any_new_switch {
            // the engine routes this destination as before
            out.copy_from_slice(old);
            c.kept = n as u64;
            return c;
        }
        // up/down binds paths to CA LIDs; switch LIDs need only be reached
        let strict = match (&self.hops, target) {
            (Some(h), _) => Rule::Shortest(h),
            (None, Target::Switch(_)) => Rule::Reach,
            (None, _) => Rule::UpDown,
        };
        sc.fresh_walked = false;
        let restored = if self.restore {
            self.crosses_new(fresh)
        } else {
            vec![false; n]
        };
        sc.new.copy_from_slice(old);
        for s in 0..n {
            sc.why[s] = if self.prev.new_switch[s] {
                Some(ChangeReason::NewSwitch)
            } else if restored[s] && old[s] != fresh[s] {
                Some(ChangeReason::Restored)
            } else {
                None
            };
            if sc.why[s].is_some() {
                sc.new[s] = fresh[s];
            }
        }
        self.settle(target, strict, old, fresh, sc);
        for s in 0..n {
            if sc.new[s] == old[s] && !self.prev.new_switch[s] {
                c.kept += 1;
            } else {
                c.changed += 1;
                let why = sc.why[s].unwrap_or(ChangeReason::Consistency);
                *c.reasons.entry(why).or_default() += 1;
            }
            c.differs += u64::from(sc.new[s] != fresh[s]);
        }
        out.copy_from_slice(&sc.new);
        c
    }

    /// Until every path of the merged column keeps the promise, re-routes
    /// one entry per broken path: the one closest to where it breaks whose
    /// fresh route keeps the promise (memo §6: spread the routes of a
    /// failing port at its switch; go back to the switches feeding it only
    /// when there is no other way). A path from a switch where the engine's
    /// own route breaks the promise (Dmodc's escape hops, used only by
    /// traffic starting there) need only reach the destination. Each round
    /// makes one more entry equal to the engine's, so it ends.
    fn settle(&self, target: Target, strict: Rule, old: &[u8], fresh: &[u8], sc: &mut Scratch) {
        let n = sc.new.len();
        loop {
            sc.walker
                .walk(&self.ports, (target, strict), &sc.new, &mut sc.end);
            if sc.end.iter().all(|&e| e == End::Reached) {
                return;
            }
            if !sc.fresh_walked {
                // needed only once some path is broken (most columns: never)
                sc.walker
                    .walk_keys(&self.ports, (target, strict), fresh, &mut sc.fresh_end);
                sc.fresh_walked = true;
            }
            let fresh_ok = |s: usize| sc.fresh_end[2 * s] == End::Reached;
            let loose = (0..n).any(|s| !fresh_ok(s) && sc.end[s] != End::Reached);
            if loose {
                sc.walker
                    .walk(&self.ports, (target, Rule::Reach), &sc.new, &mut sc.loose);
            }
            let mut changed = false;
            let mut path = std::mem::take(&mut sc.path);
            for s in 0..n {
                let (rule, end) = if sc.fresh_end[2 * s] == End::Reached {
                    (strict, sc.end[s])
                } else {
                    (Rule::Reach, sc.loose[s])
                };
                if end == End::Reached {
                    continue;
                }
                let how = walk::trace(&self.ports, (target, rule), &sc.new, s, &mut path);
                if how == End::Reached {
                    continue; // mended by an earlier pick of this round
                }
                // the entry closest to the break whose fresh route keeps
                // the promise from where the path arrives (key = phase)
                let differs = |k: &usize| sc.new[*k / 2] != fresh[*k / 2];
                let pick = path
                    .iter()
                    .rev()
                    .find(|&k| differs(k) && sc.fresh_end[*k] == End::Reached)
                    .or_else(|| path.iter().rev().find(|&k| differs(k)))
                    .copied();
                let Some(k) = pick else { continue };
                let u = k / 2;
                sc.new[u] = fresh[u];
                let at_break = Some(&k) == path.last();
                sc.why[u].get_or_insert(reason(how, at_break, self.ports.get(u, old[u])));
                changed = true;
            }
            sc.path = path;
            if !changed {
                return;
            }
        }
    }

    /// Per switch: the engine's fresh path crosses a cable the previous
    /// fabric lacked (`--restore engine`).
    fn crosses_new(&self, fresh: &[u8]) -> Vec<bool> {
        let n = fresh.len();
        // 0 unknown, 1 on the current chain, 2 no, 3 yes
        let mut mark = vec![0u8; n];
        let mut chain = Vec::new();
        for start in 0..n {
            chain.clear();
            let mut u = start;
            let mut yes = loop {
                match mark[u] {
                    2 => break false,
                    3 => break true,
                    1 => break false,
                    _ => {}
                }
                mark[u] = 1;
                chain.push(u);
                let p = fresh[u];
                if self.prev.new_cable[u].get(p as usize) == Some(&true) {
                    break true;
                }
                match self.ports.get(u, p) {
                    Next::Switch { t, .. } => u = t as usize,
                    _ => break false,
                }
            };
            for &k in chain.iter().rev() {
                yes |= self.prev.new_cable[k].get(fresh[k] as usize) == Some(&true);
                mark[k] = if yes { 3 } else { 2 };
            }
        }
        mark.into_iter().map(|m| m == 3).collect()
    }
}
