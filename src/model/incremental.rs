//! What an incremental compile (`compile --previous DIR`) did, for
//! `report.json` and the note it prints: entries kept and changed, and why
//! each changed entry had to change (2005 OpenSM memo §6, seed
//! `opensm-unicast-routing-enhancements-2005.txt`).

use std::collections::BTreeMap;

use serde::Serialize;

/// Why a (switch, destination LID) entry of the previous tables was
/// replaced.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ChangeReason {
    /// The entry's own port lost its cable (link, port or switch down).
    PortDown,
    /// The path from the entry meets a lost cable further on.
    PathBroken,
    /// The path loops in the previous tables over the new fabric.
    Loop,
    /// The path ends at the wrong port, or the entry was empty.
    Unreached,
    /// The path turns up after going down (the engine's up/down promise).
    UpDown,
    /// The path is longer than the fabric's shortest (min-hop's promise).
    NotShortest,
    /// The switch had no table in the previous run.
    NewSwitch,
    /// `--restore engine`: the engine's own path crosses a cable that came
    /// back (or is new).
    Restored,
}

/// The `incremental` object of `report.json` (`formats/report-json.md`).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct IncrementalSummary {
    /// `engine` or `keep` (`--restore`).
    pub restore: &'static str,
    /// Entries (switch × LID, over the new fabric's switches and LIDs)
    /// equal to the previous tables.
    pub kept: u64,
    /// Entries that differ from the previous tables.
    pub changed: u64,
    /// 64-entry blocks that differ (LinearForwardingTable SMPs), every
    /// block of a switch the previous tables lacked included.
    pub changed_blocks: u64,
    /// Changed entries by reason.
    pub reasons: BTreeMap<ChangeReason, u64>,
    /// Entries where the engine's fresh route would differ from the
    /// result (what a full re-route would have changed besides).
    pub differs_from_engine: u64,
    /// Entries every valid result must change (`route::incremental`'s
    /// floor, from the previous tables and the new cabling alone).
    pub floor_entries: u64,
    /// LFT blocks holding a floor entry, every block of a new switch
    /// included: no valid result uploads fewer.
    pub floor_blocks: u64,
    /// Changed blocks above the floor, by the reason of the block's first
    /// changed entry: where the merge changes more than it must.
    pub above_floor: BTreeMap<ChangeReason, u64>,
    /// The cabling changes against the previous fabric (`check --expect`
    /// wording), at most 100.
    pub cabling: Vec<String>,
}
