//! What a plan says (`formats/diff-plan.md`): the verdict, the phases and
//! the cycle that stops an upload, as serialised by `diff --plan --json`.

use serde::Serialize;

use crate::diff::guid_hex;
use crate::model::{Guid, Lid, PortNum};

/// What the plan concluded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    /// Nothing to upload.
    Unchanged,
    /// Every mixture is safe: upload everything in one phase.
    AllAtOnce,
    /// Safe in the listed phases, in order.
    Phased,
    /// Phases up to a state from which no remaining entry can be written
    /// safely; `cycle` says what closes.
    Blocked,
    /// The old tables themselves loop or have a credit loop.
    OldUnsafe,
    /// The new tables themselves loop or have a credit loop.
    NewUnsafe,
}

/// Options of the plan.
#[derive(Clone, Copy, Debug, Default)]
pub struct PlanOptions {
    /// Routes from every switch and to switch LIDs count too (`check --all-paths`).
    pub all_paths: bool,
}

/// A turn of a credit loop: a packet enters `guid` on `in_port` and
/// leaves on `out_port`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Turn {
    #[serde(serialize_with = "guid_hex")]
    pub guid: Guid,
    pub in_port: PortNum,
    pub out_port: PortNum,
}

/// A cycle that makes a state unsafe.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Cycle {
    /// Packets for `lid` can go round these switches.
    ForwardingLoop {
        lid: Lid,
        #[serde(serialize_with = "guids_hex")]
        switches: Vec<Guid>,
    },
    /// A cycle of channel dependencies, as turns.
    CreditLoop {
        turns: Vec<Turn>,
        /// The VLs of the lane it closes on, when the tables use several
        /// lanes (`diff-plan.md`, "Virtual lanes").
        #[serde(skip_serializing_if = "Option::is_none")]
        vls: Option<Vec<u8>>,
    },
}

fn guids_hex<S: serde::Serializer>(g: &[Guid], s: S) -> Result<S::Ok, S::Error> {
    s.collect_seq(g.iter().map(|g| g.to_string()))
}

/// One switch's writes in one phase.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PhaseSwitch {
    #[serde(serialize_with = "guid_hex")]
    pub guid: Guid,
    pub lid: Lid,
    pub desc: String,
    /// Blocks written (one LinearForwardingTable SMP each); a block holds
    /// the new entries of `lids` and of earlier phases, old ones otherwise.
    pub blocks: Vec<u32>,
    /// LIDs whose new entry this phase writes.
    pub lids: Vec<Lid>,
}

/// Switches written in parallel.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Phase {
    pub smps: u64,
    pub entries: u64,
    pub switches: Vec<PhaseSwitch>,
}

/// The plan for uploading NEW over OLD.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct UploadPlan {
    pub verdict: Verdict,
    pub all_paths: bool,
    /// Changed entries on the topology's switches.
    pub entries: u64,
    /// LinearForwardingTable SMPs over all phases.
    pub smps: u64,
    /// What writing everything at once could close (`null`: nothing).
    pub all_at_once_cycle: Option<Cycle>,
    pub phases: Vec<Phase>,
    /// For `blocked`, `old-unsafe`, `new-unsafe`: the cycle.
    pub cycle: Option<Cycle>,
    /// Entries no phase writes (blocked).
    pub entries_left: u64,
    /// Switches of OLD or NEW that the topology lacks (their tables are
    /// ignored: gone from the fabric, or the wrong topology).
    #[serde(serialize_with = "guids_hex")]
    pub switches_ignored: Vec<Guid>,
    /// The lanes the channel dependencies were split into, as their VLs,
    /// when there are several (absent: one lane for every path).
    #[serde(skip_serializing_if = "is_one_lane")]
    pub lanes: Vec<Vec<u8>>,
    /// The sources take their new path SLs before the first LFT write
    /// (`diff-plan.md`, "SLs first"); absent when the plan does not ask it.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub sls_first: bool,
    /// Why paths of tables with a VL plan were all put on one lane.
    #[serde(skip)]
    pub one_lane_because: Option<String>,
}

fn is_one_lane(l: &[Vec<u8>]) -> bool {
    l.len() <= 1
}

impl UploadPlan {
    /// Whether the upload can go ahead as planned.
    pub fn is_safe(&self) -> bool {
        matches!(
            self.verdict,
            Verdict::Unchanged | Verdict::AllAtOnce | Verdict::Phased
        )
    }
}
