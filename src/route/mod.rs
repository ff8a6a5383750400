//! The route stage: engines turn a fabric (faults applied, LIDs assigned)
//! into forwarding tables. Engines know no file format and do not grade
//! themselves: [`crate::verify`] checks their tables.

pub mod dmodc;
pub mod incremental;
pub mod layers;
pub mod minhop;
pub mod opensm;
pub mod sssp;
pub mod updn;
pub mod vtftr;

pub use dmodc::Dmodc;

pub use crate::model::routing::{AltPorts, Note, Promise, Routing};
use crate::model::{Fabric, Guid, LidMap};

/// Which switches are up/down roots.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum RootSpec {
    /// OpenSM's min-hop histogram heuristic (`updn_find_root_nodes_by_min_hop`).
    #[default]
    Auto,
    /// The switches of highest rank counted from the leaves.
    Top,
    /// Switch node GUIDs, as in OpenSM's `--root_guid_file`.
    Guids(Vec<Guid>),
}

/// Options every engine receives; each uses what it needs.
#[derive(Clone, Debug, Default)]
pub struct RouteOptions {
    /// Up/down roots (updn).
    pub roots: RootSpec,
    /// Destination order: end port GUIDs (minhop/updn: OpenSM's
    /// `guid_routing_order_file`; dmodc: the node numbering).
    pub node_order: Option<Vec<Guid>>,
    /// Data VLs the routing may use (`--vls`, bounded by the switch with
    /// the fewest operational VLs); 0 counts as 1. Engines that need more
    /// than one VL (Dmodc with escape paths) lay out their own SLs.
    pub vls: u8,
    /// Dmodc's port choice on degraded candidate sets (`--dmodc-variant`).
    pub dmodc_variant: dmodc::spread::Variant,
}

/// A fabric the engine cannot route (exit code 2 with the message).
#[derive(Clone, Debug, thiserror::Error, PartialEq)]
#[error("{message}")]
pub struct RouteError {
    pub message: String,
    /// How to get past it.
    pub help: Option<String>,
}

impl From<RouteError> for crate::Error {
    fn from(e: RouteError) -> Self {
        crate::Error::Route {
            message: e.message,
            help: e.help,
        }
    }
}

/// A routing engine.
pub trait Engine: Sync {
    /// Name used on the command line (`minhop`, `updn`, `dmodc`).
    fn name(&self) -> &'static str;
    /// Routes `fabric`, whose LIDs are `lids`.
    fn route(
        &self,
        fabric: &Fabric,
        lids: &LidMap,
        opts: &RouteOptions,
    ) -> Result<Routing, RouteError>;
    /// The fewest data VLs the engine's routing needs, and why (used by
    /// `compile --vls`): 1 for engines whose tables stand on one VL.
    fn min_vls(&self) -> (u8, &'static str) {
        (1, "")
    }
}

/// An engine routec knows: adding one is its file plus one line here.
pub struct EngineEntry {
    /// Name on the command line (`--engine`).
    pub name: &'static str,
    /// One line for `--help` and error messages.
    pub about: &'static str,
    make: fn() -> Box<dyn Engine>,
}

/// Every engine, in the order `--help` lists them.
pub const ENGINES: &[EngineEntry] = &[
    EngineEntry {
        name: "minhop",
        about: "OpenSM 3.3.23's min-hop, byte-identical",
        make: || Box::new(minhop::MinHop),
    },
    EngineEntry {
        name: "updn",
        about: "OpenSM 3.3.23's up/down, byte-identical",
        make: || Box::new(updn::UpDown),
    },
    EngineEntry {
        name: "dmodc",
        about: "Dmodc: closed-form fault-resilient fat-tree routing",
        make: || Box::new(Dmodc::default()),
    },
    EngineEntry {
        name: "vtftr",
        about: "VTFTR: fault-tolerant 2-D fat-tree routing, deadlock-free on 2 VLs",
        make: || Box::new(vtftr::Vtftr),
    },
    EngineEntry {
        name: "sssp",
        about: "balanced shortest paths for any topology, one tree per LMC offset (GM-2 style)",
        make: || Box::new(sssp::Sssp),
    },
];

/// Names of the engines routec knows.
pub fn engine_names() -> impl Iterator<Item = &'static str> {
    ENGINES.iter().map(|e| e.name)
}

/// The engine called `name`.
pub fn engine_by_name(name: &str) -> Option<Box<dyn Engine>> {
    ENGINES.iter().find(|e| e.name == name).map(|e| (e.make)())
}
