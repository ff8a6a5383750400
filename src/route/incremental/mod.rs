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
//! 4. a routing with escape paths on further VLs (Dmodc on real fabrics)
//!    is merged by the up*/down* rule of its other paths, and the merged
//!    tables are laid on VLs again ([`relay`]).
//!
//! The result is verified like any compile; this module does not grade it.

mod cols;
mod column;
mod floor;
mod lanes;
mod walk;

use rayon::prelude::*;

use crate::model::hops::SwitchHops;
use crate::model::incremental::IncrementalSummary;
use crate::model::{Fabric, LFT_BLOCK, Lfts, LidMap, Routing};
use column::{Counts, Ctx, Scratch};
pub use lanes::{Relaid, relay};
use walk::{Ports, Target};

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
    /// Nothing was added or moved (no new switch, cable or LID), the
    /// ranks are the previous run's and its verification found nothing:
    /// a column none of whose entries leads onto a port that lost its
    /// cable follows the same hops to the same ports as before, so it
    /// keeps the promise and its entries are none of the floor's. Only the
    /// touched columns are merged (the others are kept without a walk).
    pub untouched_valid: bool,
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
    let ranks = fresh.up_down_ranks();
    let ctx = Ctx {
        ports: Ports::new(fabric, ranks),
        hops: ranks.is_none().then(|| SwitchHops::compute(fabric)),
        prev,
        any_new_switch: prev.new_switch.iter().any(|&b| b),
        restore: restore == Restore::Engine && prev.new_cable.iter().flatten().any(|&b| b),
    };
    let n = fabric.num_switches();
    let lids_n = fresh.lfts.top() as usize + 1;
    let cols = if prev.untouched_valid {
        cols::touched(&ctx.ports, prev.lfts, lids_n)
    } else {
        (0..lids_n as u16).collect()
    };
    // LID-major copies of the merged columns, each contiguous
    let (old_t, fresh_t) = (
        cols::gather(prev.lfts, &cols),
        cols::gather(&fresh.lfts, &cols),
    );
    let mut out_t = vec![0u8; old_t.len()];
    let mut why_t = vec![None; old_t.len()];
    let mut total = out_t
        .par_chunks_mut(n.max(1))
        .zip(why_t.par_chunks_mut(n.max(1)))
        .enumerate()
        .map_init(
            || Scratch::new(n),
            |sc, (i, (out, why))| {
                let target = Target::of(fabric, lids, cols[i]);
                let (old, fresh) = (&old_t[i * n..][..n], &fresh_t[i * n..][..n]);
                ctx.column(target, old, fresh, out, why, sc)
            },
        )
        .reduce(Counts::default, |mut a, b| {
            a.add(&b);
            a
        });
    if cols.len() < lids_n {
        // the untouched columns are kept as they were
        let untouched = (lids_n - cols.len()) as u64;
        total.kept += untouched * n as u64;
        total.differs += cols::differing(prev.lfts, &fresh.lfts, lids_n)
            - old_t.iter().zip(&fresh_t).filter(|(a, b)| a != b).count() as u64;
    }
    let lfts = cols::merged(prev.lfts, &fresh.lfts, &cols, &out_t, prev.untouched_valid);
    let promise = match (&ctx.hops, ranks) {
        (Some(h), _) => floor::Promise::Shortest(h),
        (None, Some(_)) => floor::Promise::UpDown,
        (None, None) => floor::Promise::Reach,
    };
    let must = floor::must_change(
        fabric,
        lids,
        &ctx.ports,
        promise,
        (&old_t, &cols),
        prev.new_switch,
    );
    let blocks = cols::Blocks::of((&must, &why_t), &cols, lids_n, prev.new_switch);
    let summary = IncrementalSummary {
        restore: restore.name(),
        kept: total.kept,
        changed: total.changed,
        changed_blocks: changed_blocks(prev.lfts, &lfts, prev.new_switch),
        floor_entries: must.iter().filter(|&&m| m).count() as u64,
        floor_blocks: blocks.floor,
        above_floor: blocks.above,
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
        .into_par_iter()
        .map(|s| {
            let blocks = new.top() as usize / LFT_BLOCK + 1;
            (0..blocks)
                .filter(|&b| new_switch[s] || old.block(s, b) != new.block(s, b))
                .count() as u64
        })
        .sum()
}
