//! `report.json` (deterministic, a make artifact) and the run log
//! (`compile --timings FILE`: this run's timings and write statuses).
//! Schema: `formats/report-json.md`.
//!
//! Timings and "written/unchanged" differ between two runs of the same
//! inputs, so they cannot sit in OUTDIR without making it change on every
//! run (make would see a new OUTDIR each time): they go to stderr with
//! `-v` and to a file only when asked.

use std::path::{Path, PathBuf};

use rayon::prelude::*;
use serde::Serialize;

use crate::emit::outputs::{OutputRecord, OutputStatus};
use crate::error::Result;
use crate::model::Note;
use crate::model::{Fabric, LFT_BLOCK, Lfts, LidMap, NO_ROUTE, NodeKind};

/// Version of the `report.json` schema.
pub const REPORT_SCHEMA_VERSION: u32 = 2;
/// Version of the run log schema (`compile --timings FILE`).
pub const RUN_SCHEMA_VERSION: u32 = 1;

/// The tool that wrote the report.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Tool {
    pub name: &'static str,
    pub version: &'static str,
}

impl Default for Tool {
    fn default() -> Self {
        Tool {
            name: "routec",
            version: env!("CARGO_PKG_VERSION"),
        }
    }
}

/// The options that shaped the tables (what a re-run must repeat).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct CompileOptions {
    pub roots: String,
    pub node_order: bool,
    pub assign_lids: bool,
    pub lenient: bool,
    pub faults: bool,
    pub emit: Vec<String>,
    pub compress: bool,
}

/// An input file and its content digest.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct InputRecord {
    /// `topology`, `faults`, `roots` or `node-order`.
    pub role: String,
    pub path: String,
    pub sha256: String,
    pub bytes: u64,
}

impl InputRecord {
    /// Hashes the file at `path` (streamed).
    pub fn of(role: &str, path: &Path) -> Result<Self> {
        let (d, n) = crate::io::sha256_file(path)?;
        Ok(InputRecord {
            role: role.to_string(),
            path: path.display().to_string(),
            sha256: crate::io::hex(&d),
            bytes: n,
        })
    }
}

/// Sizes of the routed fabric.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Counts {
    pub switches: usize,
    pub cas: usize,
    pub routers: usize,
    pub links: usize,
    /// Assigned unicast LIDs (LMC ranges counted in full).
    pub lids: usize,
    /// LinearFDBTop of the tables.
    pub lft_top: u16,
    /// (switch, assigned LID) pairs whose entry is "no route".
    pub unreachable_entries: u64,
}

impl Counts {
    /// Counts `fabric` and its tables.
    pub fn of(fabric: &Fabric, lids: &LidMap, lfts: &Lfts) -> Self {
        let kind = |k| fabric.nodes().iter().filter(|n| n.kind == k).count();
        let assigned: Vec<u16> = lids.iter().map(|(l, _)| l).collect();
        // rows in parallel (88 M entries on the 27,648-host RLFT), each a
        // byte-wise pass over its assigned LIDs when they are 1..=max
        let dense = assigned
            .iter()
            .enumerate()
            .all(|(i, &l)| l as usize == i + 1);
        let unreachable = (0..lfts.num_switches())
            .into_par_iter()
            .map(|s| {
                let row = lfts.row(s);
                let n = assigned.len();
                if dense {
                    let within = &row[1.min(row.len())..(n + 1).min(row.len())];
                    let past = (n + 1).saturating_sub(row.len().max(1));
                    (within.iter().filter(|&&p| p == NO_ROUTE).count() + past) as u64
                } else {
                    assigned
                        .iter()
                        .filter(|&&l| row.get(l as usize).is_none_or(|&p| p == NO_ROUTE))
                        .count() as u64
                }
            })
            .sum();
        Counts {
            switches: fabric.num_switches(),
            cas: kind(NodeKind::Ca),
            routers: kind(NodeKind::Router),
            links: fabric.links().count(),
            lids: assigned.len(),
            lft_top: lfts.top(),
            unreachable_entries: unreachable,
        }
    }
}

/// What the run's virtual-lane plan uses (`compile --vls N`, or an engine
/// with lanes of its own).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct VlSummary {
    /// Data VLs the plan uses.
    pub vls: u8,
    /// SLs some path is on, ascending.
    pub sls_used: Vec<u8>,
    /// (source end port, destination LID) paths per SL (index = SL).
    pub paths_per_sl: Vec<u64>,
}

impl VlSummary {
    /// Counts the paths of `plan`: each switch's end ports toward every
    /// end-port LID routed from that switch.
    pub fn of(fabric: &Fabric, lids: &LidMap, plan: &crate::model::VlPlan) -> Self {
        let hosts: Vec<u64> = fabric
            .switches()
            .iter()
            .map(|&n| fabric.end_ports_on(n) as u64)
            .collect();
        let ends: Vec<(u16, Option<usize>)> = lids
            .iter()
            .filter(|(_, o)| fabric.is_endpoint(o.node))
            .map(|(l, o)| {
                let sw = fabric
                    .peer(o.node, o.port)
                    .and_then(|p| fabric.switch_index(p.node));
                (l, sw.map(|s| s.ix()))
            })
            .collect();
        // Paths off SL 0 are few (escape paths, layers above the base):
        // each row is scanned for its non-zero SLs, and SL 0 takes the rest.
        let mut end_at = vec![None; ends.iter().map(|e| e.0 as usize + 1).max().unwrap_or(0)];
        let mut own_ends = vec![0u64; hosts.len()];
        for &(lid, own) in &ends {
            end_at[lid as usize] = Some(own);
            if let Some(o) = own {
                own_ends[o] += 1;
            }
        }
        // only the blocks some row may have off SL 0 are read
        let blocks: Vec<usize> = plan.path_sl.nonzero_blocks().ones().collect();
        let per_sl = (0..hosts.len())
            .into_par_iter()
            .filter(|&s| hosts[s] > 0)
            .map(|s| {
                let h = hosts[s];
                let mut per_sl = [0u64; crate::model::vl::NUM_SL];
                let row = plan.path_sl.row(s);
                let row = &row[..row.len().min(end_at.len())];
                let mut off_zero = 0;
                let chunks = blocks
                    .iter()
                    .map(|&b| b * LFT_BLOCK)
                    .take_while(|&at| at < row.len());
                for at in chunks {
                    let chunk = &row[at..(at + LFT_BLOCK).min(row.len())];
                    if chunk.iter().all(|&sl| sl == 0) {
                        continue;
                    }
                    for (j, &sl) in chunk.iter().enumerate().filter(|(_, sl)| **sl != 0) {
                        if let Some(own) = end_at[at + j] {
                            let w = h - u64::from(own == Some(s));
                            per_sl[sl as usize] += w;
                            off_zero += w;
                        }
                    }
                }
                per_sl[0] += h * ends.len() as u64 - own_ends[s] - off_zero;
                per_sl
            })
            .reduce(
                || [0u64; crate::model::vl::NUM_SL],
                |mut a, b| {
                    a.iter_mut().zip(b).for_each(|(x, y)| *x += y);
                    a
                },
            );
        let used: Vec<u8> = (0..16u8).filter(|&sl| per_sl[sl as usize] > 0).collect();
        let top = used.last().map_or(0, |&sl| sl as usize + 1);
        VlSummary {
            vls: plan.vls,
            sls_used: used,
            paths_per_sl: per_sl[..top].to_vec(),
        }
    }
}

/// The verifier's results for the tables of this run (checks 1–3:
/// reachability, up/down where the engine promises it, deadlock freedom).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Verification {
    /// `pass` (no error finding) or `fail`.
    pub status: &'static str,
    /// Names of the checks that ran.
    pub checks: Vec<&'static str>,
    /// Findings, counts per code and figures, as `routec check --json` prints them.
    #[serde(flatten)]
    pub verdict: crate::verify::Verdict,
}

impl Verification {
    /// Wraps a verdict; `up_down` says whether ranks were checked.
    pub fn of(verdict: crate::verify::Verdict) -> Self {
        let mut checks = vec!["reachability"];
        if verdict.stats.up_down_checked {
            checks.push("updown");
        }
        checks.push("deadlock");
        Verification {
            status: if verdict.is_clean() { "pass" } else { "fail" },
            checks,
            verdict,
        }
    }
}

/// `report.json`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Report {
    pub schema_version: u32,
    pub tool: Tool,
    pub engine: String,
    pub options: CompileOptions,
    pub inputs: Vec<InputRecord>,
    /// SHA-256 of the canonical topology (also in the route image header).
    pub fabric_fingerprint: String,
    pub counts: Counts,
    /// `null` when the run did not verify.
    pub verification: Option<Verification>,
    /// The virtual-lane plan, when the routing has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub vl_plan: Option<VlSummary>,
    /// Multicast summary when `--mcast` was given (also in `mcast.json`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub multicast: Option<crate::model::McastSummary>,
    /// What `compile --previous` kept and changed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub incremental: Option<crate::model::incremental::IncrementalSummary>,
    pub notes: Vec<Note>,
    /// Every other output of the run, by name, with its digest.
    pub outputs: Vec<OutputRecord>,
}

/// One timed stage.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Timing {
    pub stage: String,
    pub ms: f64,
}

/// `compile --timings FILE`: what happened in this run (not deterministic,
/// so never in OUTDIR).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RunLog {
    pub schema_version: u32,
    pub timings: Vec<Timing>,
    /// Every output with `written` or `unchanged`.
    pub outputs: Vec<OutputStatus>,
}

/// Pretty JSON with a final newline.
pub fn to_json<T: Serialize>(v: &T) -> std::io::Result<Vec<u8>> {
    let mut s = serde_json::to_vec_pretty(v).map_err(std::io::Error::other)?;
    s.push(b'\n');
    Ok(s)
}

/// The input files of a run, hashed, in the order given.
pub fn inputs(files: &[(&str, PathBuf)]) -> Result<Vec<InputRecord>> {
    files
        .iter()
        .map(|(role, p)| InputRecord::of(role, p))
        .collect()
}
