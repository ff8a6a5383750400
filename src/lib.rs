//! routec: an offline route-table compiler for InfiniBand-class fabrics.
//!
//! The crate is a pipeline, and each stage is a module whose dependencies
//! point down to the fabric model (`tests/it/layers.rs` keeps it so):
//!
//! ```text
//!   parse ──► model ──► route ──► verify ──► emit / diff
//!                 ╰──► mcast ──────╯
//! ```
//!
//! * [`model`] is the fabric and everything the stages hand each other:
//!   dense node/switch indices, contiguous ports, LIDs, ranks, hop counts,
//!   forwarding tables ([`model::Lfts`]), an engine's result
//!   ([`model::Routing`]) with its virtual-lane plan ([`model::VlPlan`]),
//!   multicast tables ([`model::Mfts`]), table sets read from files, the
//!   route image layout and the names of an output directory's files.
//! * [`parse`] reads topologies (ibnetdiscover, ibsim net, YAML), GUID files,
//!   fault lists, existing tables (dumps, route images), MFTs, multicast
//!   groups and colour tables into the model.
//! * [`route`] holds the unicast engines (min-hop, up/down, Dmodc) and their
//!   registry; [`mcast`] the multicast engine (MR4LMS). Engines know no file
//!   format and never grade themselves.
//! * [`verify`] proves reachability, up/down and deadlock freedom (per
//!   destination and SL, VL-aware) and multicast soundness from the tables
//!   alone; it never calls an engine.
//! * [`emit`] writes tables and reports; [`diff`] compares two runs (tables,
//!   MFTs, cabling); [`generate`] makes fabrics and multicast patterns.
//! * [`cli`] is the command layer: it runs parse → route → verify → emit
//!   (and assign → verify → emit for multicast) and is the only layer that
//!   prints.

pub mod cli;
pub mod diff;
pub mod emit;
pub mod error;
pub mod generate;
pub mod io;
pub mod mcast;
pub mod model;
pub mod parse;
pub mod route;
pub mod verify;

pub use error::{Error, ParseError, Result};
