//! Writes the multicast outputs of a run into a directory: `opensm.mcfdbs`,
//! `mcast-colors.txt` and `mcast.json`, staged in an output set. `routec mcast`
//! and `routec compile --mcast` share it.

use serde::Serialize;

use crate::emit::outputs::OutputSet;
use crate::error::Result;
use crate::model::Fabric;
use crate::verify::mcast::{McastCheck, verify_mfts};

use super::colours::{GroupColour, write_colours};
use super::groups::McastGroup;
use super::mft::Mfts;
use super::policy::McastResult;
use super::summary::McastSummary;

/// The content of `mcast.json`.
#[derive(Clone, PartialEq, Debug, Serialize)]
pub struct McastReport {
    #[serde(flatten)]
    pub summary: McastSummary,
    /// Self-check of the computed MFTs (empty when sound).
    pub check: McastCheck,
}

/// The colour of every group of `result`, as the colour table states it.
pub fn group_colours(groups: &[McastGroup], result: &McastResult) -> Vec<GroupColour> {
    groups
        .iter()
        .enumerate()
        .map(|(g, group)| GroupColour {
            name: group.name.clone(),
            mlid: result.mlid(g),
            tree: result.group_tree[g],
        })
        .collect()
}

/// Computes the MFTs of `result`, verifies them and stages the three files
/// in `set` (written, if changed, when the caller commits the set).
pub fn stage_outputs(
    fabric: &Fabric,
    groups: &[McastGroup],
    result: &McastResult,
    set: &mut OutputSet,
) -> Result<McastReport> {
    let mfts = Mfts::from_result(fabric, result);
    let check = verify_mfts(fabric, &mfts, groups, &group_colours(groups, result));
    set.stage("opensm.mcfdbs", |w| {
        crate::emit::mcfdbs::write_mcfdbs(fabric, &mfts, w)
    })?;
    set.stage("mcast-colors.txt", |w| {
        write_colours(fabric, groups, result, w)
    })?;
    let report = McastReport {
        summary: McastSummary::of(result),
        check,
    };
    set.stage("mcast.json", |w| {
        serde_json::to_writer_pretty(&mut *w, &report)?;
        writeln!(w)
    })?;
    Ok(report)
}
