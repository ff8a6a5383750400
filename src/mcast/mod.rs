//! Multicast trees and MFT colour assignment for limited MFT sizes (MR4LMS,
//! seed:mr4lms-multicast-routing-limited-mft §3).
//!
//! A *colour* is an MFT entry (MLID). Two trees may share a colour when they
//! share no switch (Def. 5), so switches with small MFTs can carry many
//! groups. Groups are placed one after the other ([`assign`]): FBTC builds
//! then colours, FCTB colours then builds, and Merge joins groups into one
//! tree when no colour fits; the policy of Alg. 7 picks between them.
//!
//! This is the multicast engine only: groups come from `parse`, the MFT
//! types live in `model`, the command layer has the tables verified
//! (`verify::mcast`) and written (`emit`) exactly as for unicast.

pub mod baseline;
pub mod dijkstra;
pub mod fbtc;
pub mod fctb;
pub mod merge;
pub mod nearest;
pub mod policy;
pub mod state;
pub mod summary;
pub mod tables;
pub mod topo;
pub mod walk;

pub use baseline::{BaselineSummary, opensm_baseline};
pub use policy::{MAX_COLOURS, McastConfig, McastResult, assign};
pub use summary::summary;
pub use tables::{colour_lines, group_colours, mfts};
pub use topo::SwitchGraph;
