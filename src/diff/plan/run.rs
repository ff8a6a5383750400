//! One planning of an upload from its start (`upload`), and the check of
//! one side's tables alone (`side_unsafe`); `mod.rs` runs them in order
//! and, when the upload blocks with sources on either SL, plans it again
//! with the sources on their new SLs ("SLs first").

use super::cdg::Counts;
use super::lanes::Lanes;
use super::net::{Net, Rows, Target};
use super::phases::{Entry, Planner, Unsafe};
use super::walk::{BOTH, OLD, Tables, View};
use super::{Cycle, PlanOptions, Verdict, describe};

/// What closes in one side's tables alone (`view` `Old` or `New`), on
/// that side's own lanes (`Lanes::side`).
pub(super) fn side_unsafe(
    net: &Net,
    rows: &Rows,
    targets: &[Target],
    lanes: &Lanes,
    opts: PlanOptions,
    view: View,
) -> Option<Cycle> {
    let mut p = Planner {
        tables: Tables {
            net,
            rows,
            lanes,
            modes: Vec::new(),
            all_paths: opts.all_paths,
            sls_first: false,
        },
        targets,
        counts: Counts::new(net, lanes.count()),
    };
    let looped = p.count_all(view);
    p.check(looped).map(|u| describe(net, lanes, targets, u))
}

/// How one planning of the upload from its start ended.
pub(super) struct Run {
    pub verdict: Verdict,
    /// The entries of each phase.
    pub done: Vec<Vec<Entry>>,
    pub all_at_once: Option<Unsafe>,
    /// What stops a blocked upload.
    pub stop: Option<Unsafe>,
    /// Entries no phase writes.
    pub left: usize,
}

/// Plans the writes of `pending` from the upload's start (every entry
/// old): all at once when that is safe, else phase after phase.
pub(super) fn upload(p: &mut Planner, pending: &[Entry]) -> Run {
    let looped = p.set(pending, BOTH);
    let Some(all_at_once) = p.check(looped) else {
        return Run {
            verdict: Verdict::AllAtOnce,
            done: vec![pending.to_vec()],
            all_at_once: None,
            stop: None,
            left: 0,
        };
    };
    p.set(pending, OLD);
    let mut run = Run {
        verdict: Verdict::Phased,
        done: Vec::new(),
        all_at_once: Some(all_at_once),
        stop: None,
        left: 0,
    };
    loop {
        let left = p.pending();
        if left.is_empty() {
            return run;
        }
        let mut cands = p.eligible(&left);
        if cands.is_empty() {
            cands = left.clone();
        }
        match p.phase(&cands) {
            Ok(entries) => {
                p.commit(&entries);
                run.done.push(entries);
            }
            Err(u) => {
                run.verdict = Verdict::Blocked;
                run.stop = Some(u);
                run.left = left.len();
                return run;
            }
        }
    }
}
