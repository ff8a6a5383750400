//! `sssp`: balanced shortest paths for any topology, after the Myrinet
//! GM-2 mapper's route computation (seed `myrinet-gm2-mapper.txt`,
//! "Routing" and "Route Computation"): a shortest-path search per
//! destination where every route increments the cost of the links it
//! crosses, so later routes avoid loaded links; several routes per
//! destination for dispersion (here IB's LMC: one tree per LID offset); a
//! fixed GUID tie-break instead of the seed's random port order, so the
//! tables are the same on every run and for any `-j`.
//!
//! Stages: [`dests`] (what is routed, in which order), [`tree`] (one
//! destination's in-tree: BFS levels, then least (penalty, load)),
//! [`weights`] (link loads per LID offset and LMC penalties), [`lmc`] (a
//! port's 2^LMC trees), [`reroute`] (rip-up rounds) and [`pairs`] (their
//! objective). The seed's hop limit ("a fatal user error if the network
//! diameter exceeds" 11 hops) is the verifier's V003 with
//! `compile --max-hops`: the engine does not grade itself. Deadlock
//! freedom on non-Clos fabrics comes from `compile --vls N` (layering).
//! Every choice is in `formats/sssp.md`.

pub mod dests;
pub mod lmc;
pub mod pairs;
pub mod reroute;
pub mod tree;
pub mod weights;

use rayon::prelude::*;

use crate::model::{Fabric, Lfts, LidMap};
use crate::route::opensm::SwitchGraph;
use crate::route::{Engine, Note, RouteError, RouteOptions, Routing};

use dests::Dests;
use tree::{Graph, Tree};
use weights::Weights;

/// The balanced shortest-path engine.
#[derive(Clone, Copy, Debug, Default)]
pub struct Sssp;

impl Engine for Sssp {
    fn name(&self) -> &'static str {
        "sssp"
    }

    fn route(
        &self,
        fabric: &Fabric,
        lids: &LidMap,
        opts: &RouteOptions,
    ) -> Result<Routing, RouteError> {
        let sg = SwitchGraph::new(fabric);
        let dests = dests::collect(fabric, lids, opts.node_order.as_deref());
        let gr = Graph::new(
            &sg,
            &guid_ranks(fabric),
            dests::hosts_per_switch(fabric, &dests),
        );
        let mut lfts = Lfts::new(fabric.num_switches(), lids.max_lid());
        let mut w = route_end_ports(&gr, &dests, &mut lfts);
        let rounds = reroute::rounds(&gr, &dests, &mut w, &mut lfts);
        route_switches(&gr, &w, &dests, &mut lfts);
        Ok(Routing {
            notes: notes(&dests, &gr, &w, rounds),
            ..Routing::new("sssp", lfts)
        })
    }
}

/// Position of every switch in ascending node GUID order (the tie-break).
fn guid_ranks(fabric: &Fabric) -> Vec<u32> {
    let mut by_guid: Vec<u32> = (0..fabric.num_switches() as u32).collect();
    by_guid.sort_by_key(|&s| fabric.node(fabric.switch_node(crate::model::SwIdx(s))).guid);
    let mut rank = vec![0u32; by_guid.len()];
    for (r, &s) in by_guid.iter().enumerate() {
        rank[s as usize] = r as u32;
    }
    rank
}

/// End ports one after the other: each tree sees the loads of all earlier
/// ones. Returns the final weights.
fn route_end_ports(gr: &Graph, dests: &Dests, lfts: &mut Lfts) -> Weights {
    let planes = dests.ends.iter().map(|d| usize::from(d.count)).max();
    let mut w = Weights::with_planes(gr.g.num_port_ends(), planes.unwrap_or(1));
    let mut tree = Tree::new(gr.num_switches());
    let mut cols = lmc::Columns::new(gr.num_switches());
    for d in &dests.ends {
        lmc::route_port(gr, &mut w, &mut tree, (lfts, &mut cols), d);
    }
    cols.flush(lfts);
    w
}

/// Switch LIDs under the final weights, which they do not change: each is
/// independent, so they run in parallel and the result is the same for any
/// thread count.
fn route_switches(gr: &Graph, w: &Weights, dests: &Dests, lfts: &mut Lfts) {
    let columns: Vec<Vec<u8>> = dests
        .switches
        .par_iter()
        .map_init(
            || Tree::new(gr.num_switches()),
            |tree, d| {
                tree.grow(gr, w, d.sw);
                lmc::column(gr, tree, d)
            },
        )
        .collect();
    for (d, col) in dests.switches.iter().zip(&columns) {
        for k in 0..d.count {
            for (s, &p) in col.iter().enumerate() {
                lfts.set(s, d.lid + k, p);
            }
        }
    }
}

/// Unknown `--node-order` GUIDs (S001), the balance reached (S002) and
/// what the rip-up rounds did (S003).
fn notes(dests: &Dests, gr: &Graph, w: &Weights, rounds: reroute::Rounds) -> Vec<Note> {
    let mut notes = Vec::new();
    if let Some(first) = dests.unknown.first() {
        notes.push(Note {
            code: "S001",
            message: format!(
                "{} GUID(s) of the node-order file name no end port (first: {first}); ignored",
                dests.unknown.len()
            ),
        });
    }
    let links = gr.g.num_port_ends();
    if links > 0 {
        let loads: Vec<u64> = (0..links).map(|e| w.total(e)).collect();
        let max = loads.iter().copied().max().unwrap_or(0);
        let mean = loads.iter().sum::<u64>() as f64 / links as f64;
        notes.push(Note {
            code: "S002",
            message: format!(
                "{} end-port LIDs routed; routes per switch link: max {max}, mean {mean:.1}",
                dests.ends.iter().map(|d| u64::from(d.count)).sum::<u64>()
            ),
        });
    }
    if !dests.ends.is_empty() {
        let message = if rounds.skipped {
            format!(
                "rip-up and re-route skipped: the base LIDs' most loaded link within 1/{} of their mean (most loaded link, all LID offsets: {} routes)",
                reroute::NEAR_BOUND,
                rounds.max_before,
            )
        } else {
            format!(
                "rip-up and re-route: {} of at most {} round(s) kept; expected crowded triples {:.1} -> {:.1}; most loaded link {} -> {} routes",
                rounds.kept,
                reroute::MAX_ROUNDS,
                rounds.triples_before,
                rounds.triples_after,
                rounds.max_before,
                rounds.max_after
            )
        };
        notes.push(Note {
            code: "S003",
            message,
        });
    }
    notes
}

#[cfg(test)]
mod tests;
