//! `minhop`: OpenSM 3.3.23's default engine, table for table
//! (algorithms.md §2.1–2.2). Least-hop distances come from one BFS per
//! switch; the port choice balances per-port counters of CA routes in
//! OpenSM's port order.

use super::opensm::assign::{self, LeastHops};
use super::opensm::hops::Distances;
use super::opensm::order::{self, PortOrder};
use super::opensm::{NO_PATH, SwitchGraph};
use super::{Engine, Note, Promise, RouteError, RouteOptions, Routing};
use crate::model::{Fabric, LidMap};

/// OpenSM's min-hop engine.
pub struct MinHop;

/// Min-hop tables: `hops[s][x][p] = 1 + dist(peer(s, p), x)`.
pub(crate) struct MinHopTables<'a> {
    pub g: &'a SwitchGraph,
    pub dist: &'a Distances,
}

impl LeastHops for MinHopTables<'_> {
    #[inline]
    fn least(&self, s: usize, x: usize) -> u8 {
        self.dist.get(s, x)
    }

    #[inline]
    fn on_least_path(&self, e: usize, x: usize, least: u8) -> bool {
        let d = self.dist.get(self.g.nbr[e] as usize, x);
        d != NO_PATH && d + 1 == least
    }
}

impl Engine for MinHop {
    fn name(&self) -> &'static str {
        "minhop"
    }

    fn route(&self, fabric: &Fabric, lids: &LidMap, opts: &RouteOptions) -> Result<Routing, RouteError> {
        let g = SwitchGraph::new(fabric);
        let dist = Distances::compute(&g);
        let order = order::port_order(fabric, &g, opts.node_order.as_deref());
        let lfts = assign::assign(fabric, &g, &MinHopTables { g: &g, dist: &dist }, &order.targets, lids.max_lid());
        Ok(Routing {
            engine: "minhop",
            lfts,
            roots: Vec::new(),
            promise: Promise::default(),
            notes: order_notes(&order),
            alt_ports: None,
        })
    }
}

/// Notes shared by the OpenSM engines: unknown `--node-order` GUIDs, and
/// LMC > 0, where OpenSM's extra preferences (new system image, new node)
/// are not reproduced.
pub(crate) fn order_notes(order: &PortOrder) -> Vec<Note> {
    let mut notes = Vec::new();
    if let Some(first) = order.unknown.first() {
        notes.push(Note {
            code: "R010",
            message: format!(
                "{} GUID(s) of the node-order file match no port (first: {first}); OpenSM ignores them too",
                order.unknown.len()
            ),
        });
    }
    if order.targets.iter().any(|t| t.lmc > 0) {
        notes.push(Note {
            code: "R011",
            message: "LMC > 0: base LIDs are routed as OpenSM does; the extra LIDs of each port are \
                      spread by port rotation only (OpenSM also prefers new system images), so they \
                      may differ from OpenSM's"
                .into(),
        });
    }
    notes
}
