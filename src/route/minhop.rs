//! `minhop`: OpenSM 3.3.23's default engine, table for table
//! (algorithms.md §2.1–2.2). Least-hop distances come from one BFS per
//! switch; the port choice balances per-port counters of CA routes in
//! OpenSM's port order.

use super::opensm::assign::{self, LeastHops};
use super::opensm::hops::Distances;
use super::opensm::order::{self, PortOrder};
use super::opensm::{NO_PATH, SwitchGraph};
use super::{Engine, Note, RouteError, RouteOptions, Routing};
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

    fn distances(&self) -> Option<&Distances> {
        Some(self.dist)
    }
}

impl Engine for MinHop {
    fn name(&self) -> &'static str {
        "minhop"
    }

    fn route(
        &self,
        fabric: &Fabric,
        lids: &LidMap,
        opts: &RouteOptions,
    ) -> Result<Routing, RouteError> {
        // the switch graph and the port order are serial and need no
        // distances: they run while the BFS fills the other core (issue 17)
        let (dist, (g, order)) = rayon::join(
            || Distances::compute(fabric),
            || {
                let g = SwitchGraph::new(fabric);
                let order = order::port_order(fabric, &g, opts.node_order.as_deref());
                (g, order)
            },
        );
        let lfts = assign::assign(
            fabric,
            &g,
            &MinHopTables { g: &g, dist: &dist },
            &order.targets,
            lids.max_lid(),
        );
        Ok(Routing {
            notes: order_notes(&order),
            ..Routing::new("minhop", lfts)
        })
    }
}

/// Notes shared by the OpenSM engines: unknown `--node-order` GUIDs. (LMC
/// > 0 needs no note: the extra LIDs follow OpenSM's rule, `opensm/lmc.rs`.)
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
    notes
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{NO_ROUTE as X, SwIdx};
    use crate::route::opensm::testfab;

    /// Hand-worked (algorithms.md §2.2): order = h(lid 5), h(lid 6), then
    /// switch LIDs 1..4. s0 sends lid 6 on port 1 (first of two tied ports)
    /// and counts it; switch LIDs 2, 3 then take port 2 and are not counted.
    #[test]
    fn hand_worked_tables() {
        let f = testfab::line_with_island();
        let lids = LidMap::new(&f).unwrap();
        let r = MinHop.route(&f, &lids, &RouteOptions::default()).unwrap();
        let row = |s: u32| r.lfts.row(SwIdx(s).ix())[..7].to_vec();
        assert_eq!(row(0), [X, 0, 2, 2, X, 4, 1]);
        assert_eq!(row(1), [X, 2, 0, 3, X, 1, 3]);
        assert_eq!(row(2), [X, 1, 1, 0, X, 1, 4]);
        assert_eq!(row(3), [X, X, X, X, 0, X, X]);
        assert!(r.notes.is_empty());
    }

    /// A node-order file moves lid 6 first on s1 too, and unknown GUIDs are
    /// reported.
    #[test]
    fn node_order_changes_the_balance() {
        let f = testfab::line_with_island();
        let lids = LidMap::new(&f).unwrap();
        let opts = RouteOptions {
            node_order: Some(vec![crate::model::Guid(0x201), crate::model::Guid(0xdead)]),
            ..Default::default()
        };
        let r = MinHop.route(&f, &lids, &opts).unwrap();
        // s0: lid 6 first (port 1, counted), then lid 5 local.
        assert_eq!(r.lfts.get(0, 6), 1);
        assert_eq!(r.notes.len(), 1);
        assert_eq!(r.notes[0].code, "R010");
    }

    /// Same bytes whatever the thread count.
    #[test]
    fn thread_count_does_not_matter() {
        let (one, three) = testfab::tables_on_1_and_3_threads(&MinHop);
        assert_eq!(one, three);
    }
}
