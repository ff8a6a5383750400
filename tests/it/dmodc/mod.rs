//! Dmodc: the paper's worked examples, Dmodk behaviour on full-bisection
//! PGFTs, degraded PGFTs, determinism.

mod cli;
mod paper;
mod pgft;
mod rules;

use routec::generate::faults::{FaultPlan, random_faults};
use routec::generate::pgft::{PgftSpec, pgft};
use routec::model::lids::assign_missing_lids;
use routec::model::{
    Fabric, FabricBuilder, Guid, LidMap, NO_ROUTE, NodeIdx, NodeKind, NodeSpec, SwIdx,
};
use routec::route::dmodc::{costs, groups::Ranked};
use routec::route::{Dmodc, Engine, RouteOptions, Routing};
use routec::verify::congestion::{shift_congestion, topological_nodes, trace};

/// A hand-built fabric: switches and hosts by GUID, cables by (GUID, port).
struct Hand {
    b: FabricBuilder,
}

impl Hand {
    fn new() -> Self {
        Hand {
            b: FabricBuilder::new(),
        }
    }
    fn sw(&mut self, guid: u64, ports: u8) -> &mut Self {
        self.b
            .add_node(NodeSpec::new(
                NodeKind::Switch,
                Guid(guid),
                ports,
                format!("sw{guid:x}"),
            ))
            .unwrap();
        self
    }
    /// A one-port host `guid` on port `port` of switch `sw`.
    fn host(&mut self, guid: u64, sw: u64, port: u8) -> &mut Self {
        let h = self
            .b
            .add_node(NodeSpec::new(
                NodeKind::Ca,
                Guid(guid),
                1,
                format!("h{guid:x}"),
            ))
            .unwrap();
        self.b.port_mut(h, 1).unwrap().guid = Guid(guid + 1);
        let s = self.b.node_by_guid(Guid(sw)).unwrap();
        self.b.connect(h, 1, s, port).unwrap();
        self
    }
    fn cable(&mut self, a: u64, pa: u8, b: u64, pb: u8) -> &mut Self {
        let (a, b2) = (
            self.b.node_by_guid(Guid(a)).unwrap(),
            self.b.node_by_guid(Guid(b)).unwrap(),
        );
        self.b.connect(a, pa, b2, pb).unwrap();
        self
    }
    fn build(&mut self) -> Fabric {
        let mut f = std::mem::take(&mut self.b).build();
        assign_missing_lids(&mut f).unwrap();
        f
    }
}

fn route(f: &Fabric) -> Routing {
    let lids = LidMap::new(f).unwrap();
    Dmodc::default()
        .route(f, &lids, &RouteOptions::default())
        .unwrap()
}

/// The validity error of a fabric Dmodc must refuse.
fn route_err(f: &Fabric) -> routec::route::RouteError {
    let lids = LidMap::new(f).unwrap();
    Dmodc::default()
        .route(f, &lids, &RouteOptions::default())
        .unwrap_err()
}

fn sw_of(f: &Fabric, guid: u64) -> SwIdx {
    f.switch_index(f.node_by_guid(Guid(guid)).unwrap()).unwrap()
}

fn host_lid(f: &Fabric, guid: u64) -> u16 {
    f.port(f.node_by_guid(Guid(guid)).unwrap(), 1).lid
}
