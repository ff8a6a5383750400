//! `routec compile`: parse → faults → LIDs → route → verify → emit, for
//! unicast and, with `--mcast`, multicast (assign → verify → emit) alike.

mod incremental;
mod job;
mod lid_prep;
mod overlap;
mod pipeline;
mod previous;
mod stages;
mod write;

use std::path::PathBuf;

use clap::Args;

use super::Outcome;
use super::common::{Global, TopoArgs};
use super::mcast::{McastOpts, McastRun};
use super::phases::Phases;
use crate::error::Result;
use crate::model::{Fabric, LidMap, Routing};
use crate::route;
use crate::verify::Verdict;
use crate::verify::mcast::McastCheck;
use job::{Emit, Job, RootsSource};
pub use lid_prep::prepare_lids;
pub(in crate::cli) use lid_prep::relid_for_lmc;

/// `--dmodc-variant` values ([`route::dmodc::spread::Variant`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum DmodcVariant {
    Paper,
    Spread,
}

impl From<DmodcVariant> for route::dmodc::spread::Variant {
    fn from(v: DmodcVariant) -> Self {
        match v {
            DmodcVariant::Paper => Self::Paper,
            DmodcVariant::Spread => Self::Spread,
        }
    }
}

/// Arguments of `routec compile`.
#[derive(Args, Debug)]
pub struct CompileArgs {
    #[command(flatten)]
    pub topo: TopoArgs,
    /// Routing engine.
    #[arg(long, value_parser = clap::builder::PossibleValuesParser::new(route::engine_names()))]
    pub engine: String,
    /// Up/down roots: a GUID file, `top` (highest-rank switches) or `auto`
    /// (OpenSM's heuristic, the default).
    #[arg(long, value_name = "FILE|top|auto")]
    pub roots: Option<String>,
    /// Destination order: a GUID file of end-port GUIDs.
    #[arg(long, value_name = "FILE")]
    pub node_order: Option<PathBuf>,
    /// Dmodc's port choice where faults leave a switch fewer candidate
    /// groups toward a target than up groups: `spread` keeps Dmodk's group
    /// where it is still a candidate and spreads only the displaced
    /// destinations; `paper` deals them all anew by formulas (3)–(4)
    /// (`formats/dmodc.md` §5.1).
    #[arg(long, value_enum, default_value = "spread", value_name = "VARIANT")]
    pub dmodc_variant: DmodcVariant,
    /// Outputs to write, comma-separated.
    #[arg(
        long,
        value_enum,
        value_delimiter = ',',
        default_value = "image,report"
    )]
    pub emit: Vec<Emit>,
    /// Output directory.
    #[arg(short = 'o', long = "output", value_name = "OUTDIR")]
    pub outdir: PathBuf,
    /// Assign LIDs to the ports that lack one even when others have one.
    #[arg(long)]
    pub assign_lids: bool,
    /// Write the route image zstd-compressed (`routes.lft.zst`).
    #[arg(long)]
    pub compress: bool,
    /// Touch this file when the run succeeds.
    #[arg(long, value_name = "FILE")]
    pub stamp: Option<PathBuf>,
    /// Write a Make depfile listing every input read.
    #[arg(long, value_name = "FILE")]
    pub depfile: Option<PathBuf>,
    /// Write this run's stage timings and write statuses (JSON) to FILE.
    /// OUTDIR holds deterministic outputs only.
    #[arg(long, value_name = "FILE")]
    pub timings: Option<PathBuf>,
    /// Compute everything, write nothing; exit 3 if an output would change.
    #[arg(long)]
    pub check: bool,
    /// Write the outputs even when verification fails (still exit 1).
    #[arg(long)]
    pub allow_invalid: bool,
    /// Data VLs the routing may use. Above 1, paths get SLs (one VL each,
    /// identity SL2VL) so that no VL has a credit loop (layering); 1 keeps
    /// LFT-only output that any subnet manager loads. Default 1, or the
    /// fewest the engine needs (vtftr: 2).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u8).range(1..=15))]
    pub vls: Option<u8>,
    /// LMC of every end port (2^N LIDs each). When the topology's differs,
    /// routec assigns LIDs anew, with base LIDs aligned to 2^N
    /// (`formats/lid-assignment.md`), and every output names the new ones.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u8).range(0..=7))]
    pub lmc: Option<u8>,
    /// Longest acceptable route, in switch-to-switch links: a longer route
    /// is finding V003 and fails the compile (the GM-2 mapper refused
    /// routes over 11 hops).
    #[arg(long, value_name = "H", default_value_t = 64, value_parser = clap::value_parser!(u32).range(1..=255))]
    pub max_hops: u32,
    /// Multicast groups file: also build multicast trees and MFT colours.
    #[arg(long, value_name = "FILE")]
    pub mcast: Option<PathBuf>,
    #[command(flatten)]
    pub mcast_opts: McastOpts,
    #[command(flatten)]
    pub incremental: incremental::IncrementalArgs,
}

/// Everything the emit stage needs from a run.
pub(super) struct Run {
    fabric: Fabric,
    lids: LidMap,
    routing: Routing,
    /// Every input file read, with its role, for the report and the depfile.
    inputs: Vec<(&'static str, PathBuf)>,
    verdict: Verdict,
    mcast: Option<(McastRun, McastCheck)>,
    /// What `--previous` kept and changed.
    incremental: Option<crate::model::incremental::IncrementalSummary>,
}

/// Runs `routec compile`.
pub fn run(args: CompileArgs, g: &Global) -> Result<Outcome> {
    let job = Job::from_args(&args)?;
    let mut phases = Phases::new(g);
    let (mut fabric, inputs) = pipeline::parse(&args, &mut phases, g)?;
    let lids = pipeline::port_lids(&args, &mut fabric, &mut phases, g)?;
    let Some(mut r) = pipeline::route(&args, &job, (fabric, lids), &mut phases, g)? else {
        return Ok(Outcome::Findings);
    };
    pipeline::layer_and_tell(&mut r, &mut phases, g);
    let mcast = pipeline::assign_mcast(&args, &r.fabric, &mut phases)?;
    let checked = pipeline::verify(&args, &job, &mut r, mcast, &mut phases, g);
    let overlap::Checked {
        verdict,
        mcast,
        early,
    } = checked;
    let valid = verdict.is_clean();
    if !valid && !args.allow_invalid {
        pipeline::abandon(early, g);
        return Ok(Outcome::Findings);
    }
    let early = early?;
    let run = Run {
        inputs: input_files(&args, &job, &inputs),
        fabric: r.fabric,
        lids: r.lids,
        routing: r.routing,
        verdict,
        mcast,
        incremental: r.incremental,
    };
    let outcome = write::write_outputs(&args, &job, &run, early, g, phases)?;
    // The process ends once the outcome is reported: the tables (88 MB on
    // the 27,648-host RLFT) and the fabric go back to the kernel with the
    // address space at exit, not freed first (issue 17: the munmap of the
    // tables alone took 3-17 ms after the last stage).
    std::mem::forget(run);
    Ok(if valid { outcome } else { Outcome::Findings })
}

/// The engine knows no file: an error about "the root file" gets its
/// name, so that it reads like every other input error (issue 11, item 23).
fn name_roots_file(
    mut e: crate::route::RouteError,
    roots: &RootsSource,
) -> crate::route::RouteError {
    if let RootsSource::File(p) = roots {
        e.message = e
            .message
            .replace("the root file", &format!("root file {}", p.display()));
    }
    e
}

/// Every input file read, with its role, for the report and the depfile.
fn input_files(
    args: &CompileArgs,
    job: &Job,
    topo_inputs: &[PathBuf],
) -> Vec<(&'static str, PathBuf)> {
    let mut files = vec![("topology", topo_inputs[0].clone())];
    files.extend(topo_inputs.iter().skip(1).map(|p| ("faults", p.clone())));
    if let RootsSource::File(p) = &job.roots {
        files.push(("roots", p.clone()));
    }
    if let Some(p) = &args.node_order {
        files.push(("node-order", p.clone()));
    }
    if let Some(p) = &args.mcast {
        files.push(("mcast", p.clone()));
    }
    files
}
