//! The route stage: engines turn a fabric (faults applied, LIDs assigned)
//! into forwarding tables. Engines know no file format and do not grade
//! themselves: [`crate::verify`] checks their tables.

pub mod dmodc;
pub mod minhop;
pub mod opensm;
pub mod updn;

pub use dmodc::Dmodc;

use crate::model::{Fabric, Guid, Lfts, LidMap, SwIdx};

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
}

/// A note an engine wants the user to see (in the report and on stderr).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Note {
    /// Stable code, e.g. `R001`.
    pub code: &'static str,
    pub message: String,
}

/// What an engine promises about its tables, for the verifier to check.
#[derive(Clone, Debug, Default)]
pub struct Promise {
    /// Every route is up*/down* with respect to these switch ranks
    /// (indexed by [`SwIdx`]); `None` when the engine promises nothing.
    /// Ranks count from the roots as in OpenSM's up/down (0 = root): a link
    /// toward a lower rank goes up (`verify::updown::is_up`). Engines that
    /// rank from the leaves (Dmodc) convert with `max_rank − rank`.
    pub up_down_ranks: Option<Vec<u32>>,
}

/// Alternative output ports per (switch, destination LID), e.g. Dmodc's
/// P_{s,d} (formula (2) of the Dmodc paper), stored as a flat port list.
#[derive(Clone, Debug, Default)]
pub struct AltPorts {
    /// `offsets[sw * stride + lid] .. offsets[.. + 1]` indexes `ports`.
    pub offsets: Vec<u32>,
    pub ports: Vec<u8>,
    pub stride: usize,
}

/// An engine's result.
#[derive(Clone, Debug)]
pub struct Routing {
    /// Engine name as given on the command line.
    pub engine: &'static str,
    /// One byte per (switch, LID).
    pub lfts: Lfts,
    /// Roots used, for engines that have roots (reported).
    pub roots: Vec<SwIdx>,
    pub promise: Promise,
    pub notes: Vec<Note>,
    /// Alternative ports (Dmodc), not written by default.
    pub alt_ports: Option<AltPorts>,
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
}

/// Names of the engines routec knows.
pub const ENGINE_NAMES: &[&str] = &["minhop", "updn", "dmodc"];

/// The engine called `name`.
pub fn engine_by_name(name: &str) -> Option<Box<dyn Engine>> {
    match name {
        "minhop" => Some(Box::new(minhop::MinHop)),
        "updn" => Some(Box::new(updn::UpDown)),
        "dmodc" => Some(Box::new(Dmodc::default())),
        _ => None,
    }
}
