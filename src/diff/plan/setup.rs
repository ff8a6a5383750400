//! What every step of `plan_upload` reads, built once: the upload's
//! fabric as the planner sees it, the destinations, the two tables side
//! by side and the lanes their paths are on.

use super::cdg::Counts;
use super::lanes::Lanes;
use super::net::{Net, Rows, Target, targets};
use super::phases::{Planner, Unsafe};
use super::run::side_unsafe;
use super::walk::{OLD, Tables, View};
use super::{Cycle, PlanOptions, UploadPlan, Verdict, describe};
use crate::model::{Fabric, LidMap, TableSet};

/// The planner borrows these while the plan is filled in, so they live
/// apart from both.
pub(super) struct Setup<'a> {
    pub fabric: &'a Fabric,
    pub opts: PlanOptions,
    pub net: Net,
    pub targets: Vec<Target>,
    pub rows: Rows,
    pub lanes: Lanes,
}

impl<'a> Setup<'a> {
    /// The plan starts out `Unchanged` with nothing to write: every step
    /// after this one only fills in what it found.
    pub fn new(
        fabric: &'a Fabric,
        lids: &LidMap,
        (old, new): (&TableSet, &TableSet),
        opts: PlanOptions,
    ) -> (Setup<'a>, UploadPlan) {
        let net = Net::new(fabric);
        let targets = targets(fabric, lids);
        let rows = Rows::build(fabric, lids, old, new);
        let (lanes, one_lane_because) = match Lanes::build(fabric, &rows, old, new) {
            Ok(l) => (l, None),
            Err(why) => (Lanes::one(net.nsw), Some(why)),
        };
        let plan = UploadPlan {
            verdict: Verdict::Unchanged,
            all_paths: opts.all_paths,
            entries: 0,
            smps: 0,
            all_at_once_cycle: None,
            phases: Vec::new(),
            cycle: None,
            entries_left: 0,
            switches_ignored: rows.gone.clone(),
            lanes: lanes.vls.clone(),
            sls_first: false,
            one_lane_because,
        };
        let setup = Setup {
            fabric,
            opts,
            net,
            targets,
            rows,
            lanes,
        };
        (setup, plan)
    }

    /// The planner starts where the upload does: every entry old, every
    /// source on its old SL.
    pub fn planner(&self) -> Planner<'_> {
        let (net, rows, lanes) = (&self.net, &self.rows, &self.lanes);
        let tables = Tables {
            net,
            rows,
            lanes,
            modes: vec![OLD; net.nsw * rows.len],
            all_paths: self.opts.all_paths,
            sls_first: false,
        };
        Planner {
            tables,
            targets: &self.targets,
            counts: Counts::new(net, lanes.count()),
        }
    }

    /// The plan names cycles by GUIDs and ports, not by the planner's
    /// indices.
    pub fn cycle(&self, p: &Planner, u: Unsafe) -> Cycle {
        describe(&self.net, &self.lanes, p.targets, u)
    }

    /// One side's tables alone, on that side's own lanes: a cycle there is
    /// the tables' fault, not the upload's.
    pub fn side(&self, set: &TableSet, old: bool) -> Option<Cycle> {
        let (net, rows) = (&self.net, &self.rows);
        let lanes = Lanes::side(self.fabric, rows, set, old).unwrap_or(Lanes::one(net.nsw));
        let view = if old { View::Old } else { View::New };
        side_unsafe(net, rows, &self.targets, &lanes, self.opts, view)
    }
}
