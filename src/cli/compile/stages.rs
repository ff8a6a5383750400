//! The compile stages around the engine: layering into VLs, checking the
//! tables (`verify`), and saying which roots were used.

use crate::cli::common::Global;
use crate::model::{Fabric, Lfts, LidMap, Routing};
use crate::route;
use crate::verify::{Verdict, VerifyOptions, verify_tables};

/// Deadlock freedom by layering (`--vls N`): the plan is kept only when it
/// needs more than one VL, so a routing that is deadlock-free as it is
/// keeps LFT-only output.
pub(super) fn layer(fabric: &Fabric, lids: &LidMap, routing: &mut Routing, vls: u8, g: &Global) {
    if let Some(ranks) = &routing.promise.up_down_ranks
        && !roots_linked(fabric, ranks)
    {
        // The layering would walk every path only to find them all on VL 0
        // (1.2 s on the 27,648-host RLFT with Dmodc and --vls 3).
        if !g.quiet {
            eprintln!("layers: 1 VL(s) of {vls} (every route up*/down*: one VL is deadlock-free)");
        }
        return;
    }
    let l = route::layers::assign_layers(fabric, lids, &routing.lfts, vls);
    if !g.quiet {
        let load: Vec<String> = l.load.iter().map(u64::to_string).collect();
        eprintln!(
            "layers: {} VL(s) of {vls} (source end ports per VL: {})",
            l.plan.vls,
            load.join(", ")
        );
    }
    routing.notes.extend(l.notes);
    if l.plan.vls > 1 {
        routing.vl_plan = Some(l.plan);
    }
}

/// Whether a cable joins two rank-0 switches (roots). Every other cable
/// is up one way and down the other (`verify::updown::is_up`), so the
/// channels of up*/down* routes can be ordered — up channels by falling
/// (rank, GUID) of their sending switch, then down channels by rising —
/// and each route's dependencies go forward in that order: no credit loop
/// on one VL (Dally & Seitz). Between two roots both ways count as up, so
/// routes may turn round a ring of roots; the layering then decides.
fn roots_linked(fabric: &Fabric, ranks: &[u32]) -> bool {
    let rank = |n| {
        fabric
            .switch_index(n)
            .and_then(|s| ranks.get(s.0 as usize).copied())
    };
    fabric.switches().iter().any(|&n| {
        rank(n) == Some(0)
            && fabric
                .switch_links(n)
                .any(|(_, peer)| rank(peer.node) == Some(0))
    })
}

/// `--vls`, bounded by the switch with the fewest operational VLs (YAML
/// `vls:`): a layered plan maps SL i to VL i mod (VLs used) on every port.
pub(super) fn usable_vls(fabric: &Fabric, vls: u8) -> u8 {
    let fewest = fabric
        .switches()
        .iter()
        .filter_map(|&n| fabric.node(n).op_vls)
        .min();
    fewest.map_or(vls, |f| f.min(vls))
}

/// Checks 1–3 on the engine's tables (reachability, the up/down promise,
/// deadlock freedom per VL, lanes within `--vls`, routes within
/// `--max-hops`), from the tables alone.
/// Findings go to stderr.
pub(super) fn verify_routing(
    fabric: &Fabric,
    lids: &LidMap,
    lfts: &Lfts,
    opts: &VerifyOptions,
    g: &Global,
) -> Verdict {
    let verdict = verify_tables(fabric, lids, lfts, opts);
    if g.quiet || verdict.counts.is_empty() {
        return verdict;
    }
    // Errors are shown whole; warnings alone (switch LIDs an up/down engine
    // leaves unrouted by design) only as counts unless -v asks for them.
    if !verdict.is_clean() || g.verbose > 0 {
        eprint!("{}", verdict.render());
    } else {
        let counts: Vec<String> = verdict
            .counts
            .iter()
            .map(|(c, n)| format!("{c}: {n}"))
            .collect();
        eprintln!(
            "verification passed with warnings ({}); -v or `routec check` lists them",
            counts.join(", ")
        );
    }
    verdict
}

/// Says which up/down roots were used (all of them with `-v`).
pub(super) fn report_roots(fabric: &Fabric, routing: &Routing, all: bool) {
    if routing.roots.is_empty() {
        return;
    }
    let guids: Vec<String> = routing
        .roots
        .iter()
        .take(if all { usize::MAX } else { 8 })
        .map(|&s| fabric.node(fabric.switch_node(s)).guid.to_string())
        .collect();
    let more = routing.roots.len() - guids.len();
    eprintln!(
        "roots: {} of {} switches: {}{}",
        routing.roots.len(),
        fabric.num_switches(),
        guids.join(" "),
        if more > 0 {
            format!(" (+{more} more, -v lists all)")
        } else {
            String::new()
        }
    );
}
