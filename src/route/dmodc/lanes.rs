//! Virtual lanes for escape paths (`formats/dmodc.md` §9).
//!
//! Every up–down path stays on SL 0 / VL 0: those paths alone are
//! deadlock-free (up*/down*, the channel order of the paper's §2), and
//! they keep the compute hosts' balance. The paths that start at a switch
//! with no up–down path to their target ([`super::escape`]) are the only
//! ones that turn from down to up; the layering of the virtual-lane stage
//! (`route::layers`, kept from moving the up–down paths) puts them on the
//! fewest further VLs whose channel dependency graphs stay acyclic.

use rayon::prelude::*;

use crate::model::{Fabric, Guid, Lfts, Lid, LidMap, Note, VlPlan};
use crate::route::RouteError;
use crate::route::layers::{Fit, assign_layers_keeping_up_down};

use super::costs::{Costs, INF};
use super::dests::Dests;
use super::escape::Escape;
use super::groups::Ranked;

/// Escape pairs named in messages.
const PAIRS_SHOWN: usize = 5;

/// Ordered pairs of switches with end ports and no up–down path between
/// them: the traffic that needs an escape.
#[derive(Clone, Debug, Default)]
pub struct EscapePairs {
    pub count: usize,
    /// Of which both ends are leaves (switches with compute nodes).
    pub leaf_pairs: usize,
    /// End-port pairs (source port, destination LID) they carry.
    pub paths: u64,
    pub first: Vec<(Guid, Guid)>,
    /// Pairs with no path at all (separate planes): no escape either.
    pub disconnected: usize,
    pub disconnected_leaf_pairs: usize,
    pub first_disconnected: Vec<(Guid, Guid)>,
    /// The end-port LIDs of the targets some switch escapes toward,
    /// ascending: the only destinations with paths that are not up–down.
    pub suspects: Vec<Lid>,
}

impl EscapePairs {
    /// Scans the cost rows of the switches with end ports, one task per
    /// row (8.3 M cost entries on the 27,648-host RLFT with aggregation
    /// nodes, 2 M of them escape pairs); the rows' counts are summed and
    /// their first pairs kept in row order, as one scan would.
    pub fn find(r: &Ranked, costs: &Costs, dests: &Dests, escape: &Escape) -> EscapePairs {
        let ports: Vec<u64> = (0..r.len())
            .map(|s| dests.of(s).iter().filter(|d| d.local_port != 0).count() as u64)
            .collect();
        let ends: Vec<usize> = (0..r.len()).filter(|&s| ports[s] > 0).collect();
        let rows: Vec<EscapePairs> = ends
            .par_iter()
            .map(|&s| EscapePairs::of_row(r, costs, escape, &ports, &ends, s))
            .collect();
        let mut p = rows
            .into_iter()
            .fold(EscapePairs::default(), EscapePairs::absorb);
        p.suspects = escape_lids(r, dests, escape);
        p
    }

    /// The pairs from switch `s` (a row of the costs) to the switches
    /// with end ports (`ends`, `ports[t]` of them at `t`).
    fn of_row(
        r: &Ranked,
        costs: &Costs,
        escape: &Escape,
        ports: &[u64],
        ends: &[usize],
        s: usize,
    ) -> EscapePairs {
        let row = costs.row(s);
        let mut p = EscapePairs::default();
        for &t in ends.iter().filter(|&&t| row[t] == INF) {
            let leaves = s < r.num_leaves && t < r.num_leaves;
            if escape.toward(t).is_none_or(|e| e[s] == INF) {
                p.disconnected += 1;
                p.disconnected_leaf_pairs += usize::from(leaves);
                if p.first_disconnected.len() < PAIRS_SHOWN {
                    p.first_disconnected.push((r.guid[s], r.guid[t]));
                }
                continue;
            }
            p.count += 1;
            p.paths += ports[s] * ports[t];
            p.leaf_pairs += usize::from(leaves);
            if p.first.len() < PAIRS_SHOWN {
                p.first.push((r.guid[s], r.guid[t]));
            }
        }
        p
    }

    /// `self` followed by the later rows' `row`: counts summed, the first
    /// pairs kept in row order.
    fn absorb(mut self, row: EscapePairs) -> EscapePairs {
        self.count += row.count;
        self.leaf_pairs += row.leaf_pairs;
        self.paths += row.paths;
        self.disconnected += row.disconnected;
        self.disconnected_leaf_pairs += row.disconnected_leaf_pairs;
        let room = PAIRS_SHOWN - self.first.len();
        self.first.extend(row.first.into_iter().take(room));
        let room = PAIRS_SHOWN - self.first_disconnected.len();
        let more = row.first_disconnected.into_iter().take(room);
        self.first_disconnected.extend(more);
        self
    }

    fn shown(&self) -> String {
        shown(&self.first)
    }

    /// Refuses a fabric where some pairs have no path at all.
    pub fn check_connected(&self) -> Result<(), RouteError> {
        if self.disconnected == 0 {
            return Ok(());
        }
        Err(RouteError {
            message: format!(
                "dmodc: {} ordered pairs of switches with end ports ({} ordered leaf switch \
                 pairs) have no path at all (first: {})",
                self.disconnected,
                self.disconnected_leaf_pairs,
                shown(&self.first_disconnected)
            ),
            help: Some(
                "restore the failed links or switches, or route each switch plane as its own \
                 subnet"
                    .into(),
            ),
        })
    }
}

/// The end-port LIDs of the targets with escape lengths, ascending. A
/// switch with an up–down path to its target forwards only to neighbours
/// with one, by Dmodc's hops (up*·down* over the ranks counted from the
/// compute leaves, §4), so the paths toward every other LID agree with the
/// up*/down* channel order, and the layering need not walk them.
fn escape_lids(r: &Ranked, dests: &Dests, escape: &Escape) -> Vec<Lid> {
    let mut lids: Vec<Lid> = (0..r.len())
        .filter(|&t| escape.needed(t))
        .flat_map(|t| dests.of(t))
        .filter(|d| d.local_port != 0)
        .flat_map(|d| (0..d.nlids).map(move |i| d.lid + i))
        .collect();
    lids.sort_unstable();
    lids
}

fn shown(pairs: &[(Guid, Guid)]) -> String {
    let v: Vec<String> = pairs.iter().map(|(a, b)| format!("{a} -> {b}")).collect();
    v.join(", ")
}

/// The SLs of a routing with escape paths, within `vls` data VLs; a note
/// saying what escaped and where. Refuses (naming the pairs) when `vls` is
/// too few, with the number that would do.
pub fn place(
    fabric: &Fabric,
    lids: &LidMap,
    lfts: &Lfts,
    pairs: &EscapePairs,
    vls: u8,
) -> Result<(Option<VlPlan>, Note), RouteError> {
    let vls = vls.max(1);
    // First fit opens layers only as paths need them, so the most VLs
    // allowed changes nothing below the number it needs: one run tells
    // both the plan and, when `vls` is too few, the number that would do.
    // Only the paths toward escape targets can leave VL 0 or close a
    // cycle with the up–down ones; the others are not walked one by one.
    let l =
        assign_layers_keeping_up_down(fabric, lids, lfts, Fit::engine(15, vls), &pairs.suspects);
    let what = format!(
        "dmodc: {} ordered pairs of switches with end ports ({} of them leaf pairs) have no \
         up-down path (first: {})",
        pairs.count,
        pairs.leaf_pairs,
        pairs.shown()
    );
    if l.unplaced > 0 {
        return Err(RouteError {
            message: format!("{what}; their escape paths fit on no 15 VLs without a credit loop"),
            help: Some("restore failed links or switches, or route with another engine".into()),
        });
    }
    if vls < l.plan.vls {
        return Err(RouteError {
            message: format!(
                "{what}; with their escape paths the routing needs {} VLs and --vls is {vls}",
                l.plan.vls
            ),
            help: Some(format!(
                "--vls {} routes them (up-down paths on VL 0, escape paths on VLs 1..{})",
                l.plan.vls,
                l.plan.vls - 1
            )),
        });
    }
    let note = Note {
        code: "D005",
        message: format!(
            "escape: {} ordered switch pairs with end ports ({} leaf pairs) have no up-down path \
             (first: {}); {} end-port pairs take escape routes; {} VL(s) in all (source end ports \
             per VL: {})",
            pairs.count,
            pairs.leaf_pairs,
            pairs.shown(),
            pairs.paths,
            l.plan.vls,
            l.load
                .iter()
                .map(u64::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        ),
    };
    Ok(((l.plan.vls > 1).then_some(l.plan), note))
}
