//! The fabric model every stage stands on.
//!
//! Dense indices ([`NodeIdx`], [`SwIdx`]), a contiguous port array (port `p`
//! of node `n` is one slot, port 0 included), GUID and LID lookups, ranks,
//! fault application, and the forwarding tables ([`Lfts`], one byte per
//! switch and LID). Nothing here knows a file format.

mod builder;
mod fabric;
pub mod faults;
pub mod hops;
mod ids;
pub mod image;
pub mod incremental;
pub mod lft;
pub mod lids;
mod link;
pub mod mcast;
pub mod mft;
mod outdir;
pub mod rank;
pub mod routing;
pub mod scratch_pool;
pub mod state;
pub mod summary;
mod table_bytes;
pub mod table_set;
pub mod vl;
pub mod vl_records;

pub use builder::{BuildError, FabricBuilder, Linked, NodeSpec};
pub use fabric::{Fabric, Node, NodeKind, Peer, Port, lids_per_port};
pub use faults::{Fault, FaultError, PortRef};
pub use ids::{FxHasher, Guid, GuidMap, Lid, NodeIdx, PortNum, SwIdx};
pub use lft::{LFT_BLOCK, Lfts, NO_ROUTE};
pub use lids::{LidMap, LidOwner};
pub use link::{Speed, Width};
pub use mcast::{ColourLine, GroupColour, McastGroup, McastSummary, Member};
pub use mft::{MLID_BASE, Mfts, MftsByGuid, PortMask};
pub use outdir::{MANIFEST_REPLACING, OutFile};
pub use routing::{Escapes, Note, Promise, Routing};
pub use table_set::{TableKind, TableSet};
pub use vl::{PathSl, Sl2Vl, VlPlan};
