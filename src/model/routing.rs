//! What an engine hands to the rest of the pipeline: the LFTs, what it
//! promises about them, and (when it uses them) a virtual-lane plan and a
//! LID assignment of its own. The verifier checks the promise from the
//! tables; the emitters write the tables and the plan.

use super::vl::VlPlan;
use super::{Lfts, Lid, NodeIdx, PortNum, SwIdx};

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

/// A routing that keeps up*/down* toward every destination but a few,
/// whose escape paths sit on further VLs (Dmodc on real fabrics,
/// `formats/dmodc.md` §9). Not a promise the verifier holds it to (it
/// checks every VL's channel dependencies instead): what `compile
/// --previous` needs to merge such tables and lay them on VLs again.
#[derive(Clone, Debug)]
pub struct Escapes {
    /// Ranks as in [`Promise::up_down_ranks`], over which every path toward
    /// a LID outside `targets` goes up then down.
    pub ranks: Vec<u32>,
    /// The end-port LIDs some switch with end ports has no up-down path
    /// to, ascending: the only destinations whose paths may leave
    /// up*/down*.
    pub targets: Vec<Lid>,
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

/// A port's LIDs as an engine assigned them: base LID and LMC (the port
/// owns `lid .. lid + 2^lmc`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PortLids {
    pub node: NodeIdx,
    pub port: PortNum,
    pub lid: Lid,
    pub lmc: u8,
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
    /// Virtual lanes, when the routing needs more than one: path SLs and
    /// SL2VL tables. `None` = every path on SL 0 and VL 0 (LFT-only output
    /// that any subnet manager can load).
    pub vl_plan: Option<VlPlan>,
    /// LIDs the engine assigned itself (e.g. a second LID per port for an
    /// escape path), to be applied to the fabric before anything reads the
    /// tables; `None` = the fabric's own LIDs.
    pub lids: Option<Vec<PortLids>>,
    /// The engine chose the SLs itself (`vl_plan`, or none when one VL
    /// suffices): the command's layering must not redo it.
    pub layered: bool,
    /// Up*/down* but toward a few destinations (see [`Escapes`]).
    pub escapes: Option<Escapes>,
}

impl Routing {
    /// A result of `engine` with nothing but its tables.
    pub fn new(engine: &'static str, lfts: Lfts) -> Self {
        Routing {
            engine,
            lfts,
            roots: Vec::new(),
            promise: Promise::default(),
            notes: Vec::new(),
            alt_ports: None,
            vl_plan: None,
            lids: None,
            layered: false,
            escapes: None,
        }
    }

    /// The ranks every up*/down* path of the tables keeps: the promise's,
    /// or those of the paths outside the escapes' targets. `compile
    /// --previous` judges kept paths by them.
    pub fn up_down_ranks(&self) -> Option<&[u32]> {
        self.promise
            .up_down_ranks
            .as_deref()
            .or(self.escapes.as_ref().map(|e| &e.ranks[..]))
    }
}
