//! The verify stage: proves properties of forwarding tables from the tables
//! alone (reachability, up/down, deadlock freedom, quality). It never calls
//! an engine.
//!
//! [`verify_tables`] runs checks 1–3 of issue 6 in one destination-based
//! pass (algorithms.md §3.2): for every LID, each switch's fate toward it is
//! computed once by memoised next-hop walks from the source switches; the
//! same pass collects the turns of the destination's in-tree, which become
//! the channel dependency graph. Results are [`Finding`]s with stable codes
//! (`formats/findings.md`), gathered in a [`Verdict`].
//!
//! Destinations whose routes are all clean — the common case — take a
//! fast path (`walk/fast.rs`: one byte of fate per switch, turns as
//! in-port masks per VL, with a VL plan too when its SL2VL tables ignore
//! ports); any other destination takes the exact pass, so findings come
//! from one code path only. Where the up/down check proves the CDG
//! acyclic (ranks given, no V010, every link oriented one way) only its
//! size is counted, for the report (`cdg_figures`); otherwise it is built
//! and searched for cycles.

mod cdg;
#[cfg(test)]
mod cdg_census_tests;
mod cdg_csr;
mod cdg_figures;
mod cdg_masks;
pub mod congestion;
pub mod finding;
pub mod mcast;
mod options;
pub mod quality;
mod render;
mod tally;
#[cfg(test)]
mod test_ring;
mod topo;
pub mod updown;
mod verdict;
mod walk;
#[cfg(test)]
mod walk_fast_escape_tests;
#[cfg(test)]
mod walk_fast_sources_tests;
#[cfg(test)]
mod walk_fast_tests;
#[cfg(test)]
mod walk_fast_vl_tests;

use rayon::prelude::*;

pub use finding::{Code, Finding, Hop, Severity};
pub use options::VerifyOptions;
pub use verdict::{Stats, Verdict};

use crate::model::scratch_pool::ScratchPool;
use crate::model::{Fabric, LFT_BLOCK, Lfts, LidMap, Sl2Vl};
use cdg_figures::{CdgFigures, cdg_figures, derived_ranks};

/// Checks reachability, the hop limit, up/down (when ranks are given) and
/// deadlock freedom of `lfts` on `fabric`. Reads tables only; the result is
/// the same whatever the thread count.
pub fn verify_tables(fabric: &Fabric, lids: &LidMap, lfts: &Lfts, opts: &VerifyOptions) -> Verdict {
    verify_with(fabric, lids, lfts, opts, true)
}

/// [`verify_tables`], with the fast path for clean destinations
/// (`walk/fast.rs`) and the CDG census ([`cdg_figures`]) or, `fast =
/// false`, the exact pass for all of them and the graph always built
/// (the tests of both shortcuts compare the two).
fn verify_with(
    fabric: &Fabric,
    lids: &LidMap,
    lfts: &Lfts,
    opts: &VerifyOptions,
    fast: bool,
) -> Verdict {
    verify_counted(fabric, lids, lfts, opts, fast).0
}

/// [`verify_with`], and how its shortcuts were taken (for the tests that
/// prove them taken).
fn verify_counted(
    fabric: &Fabric,
    lids: &LidMap,
    lfts: &Lfts,
    opts: &VerifyOptions,
    fast: bool,
) -> (Verdict, walk::Shortcuts) {
    let topo = topo::Topo::new(fabric, lids);
    let identity = Sl2Vl::identity();
    // A plan that keeps every hop on VL 0 is checked as no plan: the same
    // findings, without the per-SL pass.
    let plan = opts.vl_plan.as_ref().filter(|p| !p.is_single_lane());
    let sl2vl = plan.map_or(&identity, |p| &p.sl2vl);
    let op_vls = plan.map(|_| operational_vls(fabric, opts));
    let Switches { all, leaves, guids } = Switches::of(fabric, &topo);
    let cx = walk::WalkCtx {
        topo: &topo,
        lfts,
        sl2vl,
        port_map: sl2vl.port_map(),
        path_sl: plan.map(|p| &p.path_sl),
        sl_blocks: plan
            .filter(|p| !p.path_sl.has_more())
            .map(|p| p.path_sl.nonzero_blocks().into_owned()),
        leaves: &leaves,
        all: &all,
        all_paths: opts.all_paths,
        hop_limit: opts.hop_limit,
        ranks: opts.up_down_ranks.as_deref(),
        op_vls: op_vls.as_deref(),
        guids: &guids,
        cap: opts.max_findings_per_code.max(1),
        host_vl: sl2vl
            .port_map()
            .is_none()
            .then(|| walk::host_vl_table(&topo, sl2vl)),
    };
    // (`fast = false` also builds the CDG where `cdg_figures` would count it)
    let shortcuts = fast;
    let fast = walk::FastTables::new(&cx).filter(|_| fast);
    let top = topo.max_lid().min(lfts.top()) as usize;
    // the ranks that may prove the CDG acyclic need no table: worked out
    // beside the pass rather than after it
    let (mut acc, derived) = rayon::join(
        || every_destination(&cx, fast.as_ref(), top),
        || {
            (shortcuts && fast.is_some() && opts.up_down_ranks.is_none())
                .then(|| derived_ranks(fabric))
                .filter(|r| updown::orients_every_link(&topo, r, &guids))
        },
    );
    let proven = shortcuts
        && acc.updown.is_empty()
        && opts
            .up_down_ranks
            .as_deref()
            .is_some_and(|r| updown::orients_every_link(&topo, r, &guids));
    let cdg = cdg_figures(
        &topo,
        &cx,
        &mut acc,
        fast.is_some(),
        proven,
        derived.as_deref(),
    );
    let r = render::Renderer {
        fabric,
        lids,
        topo: &topo,
        cap: cx.cap,
    };
    let ops = op_vls.as_deref().unwrap_or(&[]);
    (verdict_of(&r, &acc, &cdg, opts, ops), acc.shortcuts)
}

/// The switches by index: all of them, those with end ports (the sources
/// of CA LIDs), and their GUIDs (up/down's tie-break).
struct Switches {
    all: Vec<u32>,
    leaves: Vec<u32>,
    guids: Vec<u64>,
}

impl Switches {
    fn of(fabric: &Fabric, topo: &topo::Topo) -> Self {
        let all: Vec<u32> = (0..fabric.num_switches() as u32).collect();
        let leaves = all
            .iter()
            .copied()
            .filter(|&s| topo.hosts[s as usize] > 0)
            .collect();
        let guids = fabric
            .switches()
            .iter()
            .map(|&n| fabric.node(n).guid.0)
            .collect();
        Switches { all, leaves, guids }
    }
}

/// The figures and findings of a finished pass (`ops`: each switch's
/// operational VLs, empty without a VL plan).
fn verdict_of(
    r: &render::Renderer,
    acc: &walk::Acc,
    cdg: &CdgFigures,
    opts: &VerifyOptions,
    ops: &[u8],
) -> Verdict {
    let stats = tally::stats_of(r.fabric, r.topo, acc, cdg, opts);
    let (findings, counts) = tally::findings_of(r, acc, &cdg.cycles, opts, ops);
    Verdict {
        findings,
        counts,
        stats,
    }
}

/// The operational VLs of every switch: those given, then each switch's
/// own (its `op_vls`), else the default of the options.
fn operational_vls(fabric: &Fabric, opts: &VerifyOptions) -> Vec<u8> {
    let mut v = opts.switch_vls.clone().unwrap_or_default();
    let given = v.len();
    v.extend(
        fabric.switches()[given.min(fabric.num_switches())..]
            .iter()
            .map(|&n| fabric.node(n).op_vls.unwrap_or(opts.operational_vls)),
    );
    v.truncate(fabric.num_switches());
    v
}

/// The per-destination pass over LIDs `1..=top`, one task per block of
/// 64 LIDs (one cache line per switch row per block, loaded once and
/// transposed). Clean destinations take the fast path (`fast`); the
/// others, and every destination where it does not apply, the exact pass.
///
/// A task takes an accumulator from a pool and puts it back
/// ([`ScratchPool`]), so there are as many as tasks run at once (one a
/// thread), merged once at the end. Why: an accumulator holds per-switch
/// scratch, a part of `hop` entries and turn masks of every port (0.6 MB
/// on 11,664 hosts), and rayon's fold made 16 of them with 15 merges on 2
/// threads even bounded to four pieces a thread, and pieces that large
/// left a thread idle for 2 ms at the end (issue 17). Merging is
/// commutative (sums, unions, minima, the smallest findings), so which
/// blocks share an accumulator changes nothing.
fn every_destination(cx: &walk::WalkCtx, fast: Option<&walk::FastTables>, top: usize) -> walk::Acc {
    let blocks = top / LFT_BLOCK + 1;
    let accs = ScratchPool::default();
    (0..blocks).into_par_iter().for_each(|b| {
        accs.with(
            || walk::Acc::new(cx),
            |acc| walk_block(acc, cx, fast, b, top),
        );
    });
    accs.into_inner()
        .into_iter()
        .reduce(walk::Acc::merge)
        .unwrap_or_else(|| walk::Acc::new(cx))
}

/// The destinations of LFT block `b` (those up to `top`) into `acc`.
fn walk_block(
    acc: &mut walk::Acc,
    cx: &walk::WalkCtx,
    fast: Option<&walk::FastTables>,
    b: usize,
    top: usize,
) {
    acc.load_block(cx, fast, b);
    for k in 0..LFT_BLOCK / walk::PART {
        let first = b * LFT_BLOCK + k * walk::PART;
        let end = (first + walk::PART).min(top + 1);
        if first >= end {
            break;
        }
        if let Some(f) = fast {
            acc.load_part(cx, f, b, k);
        }
        for lid in first.max(1)..end {
            let lid = lid as u16;
            if fast.is_some_and(|f| acc.fast_destination(cx, f, lid)) {
                acc.shortcuts.fast_lids += 1;
            } else {
                acc.destination(cx, lid);
            }
        }
    }
}
