//! Comparisons of two runs: forwarding tables (what a re-route will
//! upload), MFTs ([`mft`]) and topologies ([`cabling`], the cabling check
//! of `check --expect`).
//!
//! Switches are matched by node GUID. Destinations are matched by port GUID
//! when both sides tell LID → port GUID (so a LID renumbering shows as
//! renumbered LIDs, not as every entry changed), by LID otherwise.
//! Uploads are counted in the new LID space: a 64-entry block of the new
//! table whose bytes differ from the old is one LinearForwardingTable SMP.
//! `formats/diff-json.md` documents the JSON.

pub mod cabling;
mod destinations;
pub mod mft;
pub mod plan;
mod tables;
pub mod vl;

pub use tables::diff_tables;

use serde::Serialize;

use crate::model::{Guid, Lid};

/// Version of the JSON below (`formats/diff-json.md`).
pub const DIFF_SCHEMA_VERSION: u32 = 1;

/// GUIDs print as OpenSM prints them (`0x%016x`), not as JSON integers
/// (which lose precision above 2^53 in most JSON readers).
fn guid_hex<S: serde::Serializer>(g: &Guid, s: S) -> Result<S::Ok, S::Error> {
    s.collect_str(g)
}

fn opt_guid_hex<S: serde::Serializer>(g: &Option<Guid>, s: S) -> Result<S::Ok, S::Error> {
    match g {
        Some(g) => s.collect_str(g),
        None => s.serialize_none(),
    }
}

/// A switch named in a diff.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SwitchRef {
    #[serde(serialize_with = "guid_hex")]
    pub guid: Guid,
    pub lid: Lid,
    pub desc: Option<String>,
}

/// A destination that exists on one side only.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LidRef {
    pub lid: Lid,
    #[serde(serialize_with = "opt_guid_hex")]
    pub port_guid: Option<Guid>,
}

/// A port whose LID changed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Renumbered {
    #[serde(serialize_with = "guid_hex")]
    pub port_guid: Guid,
    pub old_lid: Lid,
    pub new_lid: Lid,
}

/// One changed entry of one switch.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct EntryChange {
    /// LID in the new tables (in the old ones when renumbered: `old_lid`).
    pub lid: Lid,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub old_lid: Option<Lid>,
    /// Old and new output port (255 = no route).
    pub old_port: u8,
    pub new_port: u8,
}

/// What changed on one switch present on both sides.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SwitchDiff {
    #[serde(flatten)]
    pub switch: SwitchRef,
    pub entries_changed: u64,
    pub blocks_changed: u64,
    /// Indices of the blocks to upload (block `b` holds LIDs `64b..64b+63`).
    pub blocks: Vec<u32>,
    /// Every changed entry (only with detail).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub changes: Vec<EntryChange>,
}

/// The result of comparing two table sets.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TableDiff {
    pub schema_version: u32,
    /// `port-guid` or `lid`.
    pub destinations_matched_by: &'static str,
    pub switches_old: usize,
    pub switches_new: usize,
    pub switches_changed: usize,
    pub entries_changed: u64,
    pub blocks_changed: u64,
    /// `blocks_changed` plus every block of the new switches: SMPs to send.
    pub blocks_to_upload: u64,
    pub destinations_changed: usize,
    pub switches_added: Vec<SwitchRef>,
    pub switches_removed: Vec<SwitchRef>,
    pub lids_added: Vec<LidRef>,
    pub lids_removed: Vec<LidRef>,
    pub lids_renumbered: Vec<Renumbered>,
    /// Changed switches, by GUID.
    pub switches: Vec<SwitchDiff>,
    /// MFT changes, when both sides have `opensm.mcfdbs` (fields flattened).
    #[serde(flatten)]
    pub mft: Option<mft::MftDiff>,
    /// VL plan changes, when either side has a plan.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub vl: Option<vl::VlDiff>,
    /// The upload plan (`diff --plan`, `formats/diff-plan.md`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub plan: Option<plan::UploadPlan>,
}

impl TableDiff {
    /// Whether anything differs.
    pub fn is_empty(&self) -> bool {
        self.switches_changed == 0
            && self.switches_added.is_empty()
            && self.switches_removed.is_empty()
            && self.lids_added.is_empty()
            && self.lids_removed.is_empty()
            && self.lids_renumbered.is_empty()
            && self.mft.as_ref().is_none_or(mft::MftDiff::is_empty)
            && self.vl.as_ref().is_none_or(vl::VlDiff::is_empty)
    }
}

/// The human summary `routec diff` prints.
pub fn summary(d: &TableDiff) -> String {
    let mut s = format!(
        "switches: {} old, {} new; {} changed, {} added, {} removed\n\
         LFT entries changed: {}\n\
         blocks to upload: {} (LinearForwardingTable SMPs; {} on changed switches)\n\
         destinations whose path changed: {} (matched by {})\n\
         LIDs: {} added, {} removed, {} renumbered\n",
        d.switches_old,
        d.switches_new,
        d.switches_changed,
        d.switches_added.len(),
        d.switches_removed.len(),
        d.entries_changed,
        d.blocks_to_upload,
        d.blocks_changed,
        d.destinations_changed,
        d.destinations_matched_by,
        d.lids_added.len(),
        d.lids_removed.len(),
        d.lids_renumbered.len(),
    );
    for sw in d.switches.iter().take(20) {
        s += &format!(
            "  {} lid {} {:?}: {} entries, {} blocks\n",
            sw.switch.guid,
            sw.switch.lid,
            sw.switch.desc.as_deref().unwrap_or(""),
            sw.entries_changed,
            sw.blocks_changed
        );
    }
    if d.switches.len() > 20 {
        s += &format!(
            "  ... and {} more switches (see --json)\n",
            d.switches.len() - 20
        );
    }
    for r in d.lids_renumbered.iter().take(20) {
        s += &format!(
            "  renumbered {}: LID {} -> {}\n",
            r.port_guid, r.old_lid, r.new_lid
        );
    }
    if let Some(v) = &d.vl {
        s += &format!(
            "VLs: {} old, {} new; SLtoVLMappingTable SMPs: {} on {} switches{}\n\
             path SLs changed: {} (source switch, destination) pairs on {} switches\n",
            v.vls_old,
            v.vls_new,
            v.sl2vl_smps,
            v.sl2vl_switches,
            if v.end_port_map_changed {
                ", end-port map changed (one SMP per CA port)"
            } else {
                ""
            },
            v.path_sls_changed,
            v.path_sl_switches
        );
    }
    if let Some(m) = &d.mft {
        s += &mft::summary(m);
    }
    if let Some(p) = &d.plan {
        s += &plan::render(p);
    }
    s
}
