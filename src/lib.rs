//! routec: an offline route-table compiler for InfiniBand-class fabrics.
//!
//! The crate is a pipeline, and each stage is a module whose dependencies
//! point down to the fabric model:
//!
//! ```text
//!   parse ──► model ──► route ──► verify ──► emit / diff
//!                 ╰──► mcast ─────────╯
//! ```
//!
//! * [`parse`] reads topologies (ibnetdiscover, ibsim net, YAML), GUID files,
//!   fault lists and existing route tables into the model.
//! * [`model`] is the fabric: dense node/switch indices, contiguous ports,
//!   LIDs, ranks, and the forwarding tables ([`model::Lfts`]).
//! * [`route`] holds the engines (min-hop, up/down, Dmodc). Engines know no
//!   file format.
//! * [`verify`] proves reachability, up/down and deadlock freedom from the
//!   tables alone; it never calls an engine.
//! * [`emit`] writes tables and reports; [`diff`] compares two runs.
//! * [`mcast`] assigns multicast trees and MFT colours (MR4LMS).
//! * [`cli`] is the command layer used by the thin binary.

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
