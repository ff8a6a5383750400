//! Virtual lanes of a merged routing with escape paths (Dmodc on real
//! fabrics, `formats/dmodc.md` §9, `formats/state.md` step 6).
//!
//! The merge keeps every path still valid: up*/down* by the engine's ranks
//! from every switch that has an up-down path to the destination, and only
//! arriving from the switches that have none (the escape sources). The
//! escape paths it keeps were laid on VLs by the previous run, beside
//! up-down paths that may have changed since; the fresh SLs describe the
//! engine's tables, not the merged ones. So the merged tables are laid
//! again by the engine's own layering: up-down paths on VL 0, the paths
//! toward the escape targets on further VLs whose channel dependency graphs
//! stay acyclic, each on its previous SL where that VL still takes it (a
//! source that changes SL can close a credit loop while the change is
//! uploaded, `diff --plan`), the others by first fit. When they need more
//! than `--vls`, the caller routes from scratch (note R023): the engine's
//! tables fit.

use crate::model::{Escapes, Fabric, Lfts, LidMap, PathSl, VlPlan};
use crate::route::layers::{Fit, assign_layers_keeping_sls, assign_layers_keeping_up_down};

/// The merged tables' VLs.
pub struct Relaid {
    /// `None` when every path fits on VL 0.
    pub plan: Option<VlPlan>,
    /// VLs used.
    pub vls: u8,
    /// Source end ports on each VL.
    pub load: Vec<u64>,
}

/// Lays `lfts` (merged from a routing with `escapes`) on at most `vls`
/// VLs, each escape path on its `previous` SL (the previous run's, laid
/// over this fabric) where that VL still takes it; `Err` says why they do
/// not fit.
pub fn relay(
    fabric: &Fabric,
    lids: &LidMap,
    lfts: &Lfts,
    (escapes, previous): (&Escapes, Option<&PathSl>),
    vls: u8,
) -> Result<Relaid, String> {
    // as the engine does: one run with the most VLs tells both the plan
    // and, when `vls` is too few, the number that would do
    let targets = &escapes.targets;
    let fresh =
        || assign_layers_keeping_up_down(fabric, lids, lfts, Fit::engine(15, vls.max(1)), targets);
    let l = match previous {
        Some(prev) => {
            let kept = assign_layers_keeping_sls(fabric, lids, lfts, 15, targets, prev);
            // more VLs than before would rewrite every SL2VL table (the
            // SL → VL map follows the count): first fit may need fewer
            let before = (16 - prev.used().leading_zeros()) as u8;
            if kept.plan.vls > before.max(1) {
                let f = fresh();
                if f.plan.vls < kept.plan.vls { f } else { kept }
            } else {
                kept
            }
        }
        None => fresh(),
    };
    if l.unplaced > 0 {
        return Err(format!(
            "{} paths of the merged tables fit on no 15 VLs without a credit loop",
            l.unplaced
        ));
    }
    let vls = vls.max(1);
    if l.plan.vls > vls {
        return Err(format!(
            "the merged tables' escape paths need {} VLs and --vls is {vls}",
            l.plan.vls
        ));
    }
    Ok(Relaid {
        vls: l.plan.vls,
        plan: (l.plan.vls > 1).then_some(l.plan),
        load: l.load,
    })
}
