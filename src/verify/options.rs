//! What [`super::verify_tables`] checks and how: up/down ranks, the VL
//! plan, the hop limit, and what engines promise.

use crate::model::{Routing, VlPlan};

/// What to check and how.
#[derive(Clone, Debug)]
pub struct VerifyOptions {
    /// Switch ranks for the up/down check (by `SwIdx`, 0 = root), e.g.
    /// `route::Promise::up_down_ranks` or `model::rank::bfs_ranks` from the
    /// roots given to `check`. `None` skips the check.
    pub up_down_ranks: Option<Vec<u32>>,
    /// The virtual-lane plan the tables are checked with: path SLs and
    /// SL2VL tables (`None`: one VL, every path on SL 0). The deadlock
    /// check runs per (destination, SL) on the VL-aware channel graph.
    pub vl_plan: Option<VlPlan>,
    /// Longest acceptable route, in switch-to-switch links.
    pub hop_limit: u32,
    /// Also trace routes that start at switches (toward CA LIDs) and put
    /// switch-LID routes into the CDG (ibdmchk `-a`). Off by default, as
    /// in ibdmchk: management traffic toward switches is light and OpenSM's
    /// min-hop tables are not credit-loop free for it.
    pub all_paths: bool,
    /// Findings kept per code (counts are always complete).
    pub max_findings_per_code: usize,
    /// Operational data VLs of every switch port (IB's common 8 by
    /// default), and per switch where the topology says (by `SwIdx`). Used
    /// with a VL plan: a hop on a VL beyond them is V022.
    pub operational_vls: u8,
    pub switch_vls: Option<Vec<u8>>,
}

impl VerifyOptions {
    /// What `routing`'s engine promises, as the options that check it: its
    /// up/down ranks and its VL plan.
    pub fn promised_by(routing: &Routing) -> Self {
        VerifyOptions {
            up_down_ranks: routing.promise.up_down_ranks.clone(),
            vl_plan: routing.vl_plan.clone(),
            ..VerifyOptions::default()
        }
    }

    /// [`VerifyOptions::promised_by`] with the VL plan (a byte per switch
    /// and LID) moved out of `routing` rather than copied; hand it back
    /// with [`VerifyOptions::give_back`] once the check is done.
    pub fn lent_by(routing: &mut Routing) -> Self {
        VerifyOptions {
            up_down_ranks: routing.promise.up_down_ranks.clone(),
            vl_plan: routing.vl_plan.take(),
            ..VerifyOptions::default()
        }
    }

    /// Returns the VL plan [`VerifyOptions::lent_by`] took.
    pub fn give_back(self, routing: &mut Routing) {
        routing.vl_plan = self.vl_plan;
    }
}

impl Default for VerifyOptions {
    fn default() -> Self {
        VerifyOptions {
            up_down_ranks: None,
            vl_plan: None,
            hop_limit: 64,
            all_paths: false,
            max_findings_per_code: 10,
            operational_vls: 8,
            switch_vls: None,
        }
    }
}
