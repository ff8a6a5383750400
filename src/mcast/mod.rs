//! Multicast trees and MFT colour assignment for limited MFT sizes (MR4LMS,
//! seed:mr4lms-multicast-routing-limited-mft §3).
//!
//! A *colour* is an MFT entry (MLID). Two trees may share a colour when they
//! share no switch (Def. 5), so switches with small MFTs can carry many
//! groups. Groups are placed one after the other ([`assign`]): FBTC builds
//! then colours, FCTB colours then builds, and Merge joins groups into one
//! tree when no colour fits; the policy of Alg. 7 picks between them.

pub mod baseline;
pub mod colours;
pub mod fbtc;
pub mod fctb;
pub mod groups;
pub mod mcfdbs_read;
pub mod merge;
pub mod mft;
pub mod nearest;
pub mod outputs;
pub mod pattern;
pub mod policy;
pub mod state;
pub mod summary;
pub mod topo;
pub mod walk;

pub use baseline::{BaselineSummary, opensm_baseline};
pub use colours::{GroupColour, parse_colours, write_colours};
pub use groups::{McastGroup, Member};
pub use mft::{MLID_BASE, Mfts, PortMask};
pub use policy::{MAX_COLOURS, McastConfig, McastResult, assign};
pub use summary::McastSummary;
pub use topo::SwitchGraph;
