//! `routec compile`: parse → faults → LIDs → route → verify → emit.

use std::path::PathBuf;

use clap::Args;

use super::common::{Global, LoadedTopo, TopoArgs};
use super::Outcome;
use crate::error::{Error, Result};
use crate::model::lids::{self, LidState};
use crate::model::{Fabric, LidMap};
use crate::route::{self, RootSpec, RouteOptions};

/// Arguments of `routec compile`.
#[derive(Args, Debug)]
pub struct CompileArgs {
    #[command(flatten)]
    pub topo: TopoArgs,
    /// Routing engine.
    #[arg(long, value_parser = clap::builder::PossibleValuesParser::new(route::ENGINE_NAMES))]
    pub engine: String,
    /// Up/down roots: a GUID file, `top` (highest-rank switches) or `auto`
    /// (OpenSM's heuristic, the default).
    #[arg(long, value_name = "FILE|top|auto")]
    pub roots: Option<String>,
    /// Destination order: a GUID file of end-port GUIDs.
    #[arg(long, value_name = "FILE")]
    pub node_order: Option<PathBuf>,
    /// Outputs to write, comma-separated: opensm, image, report, fdbs, none.
    #[arg(long, value_delimiter = ',', default_value = "opensm")]
    pub emit: Vec<String>,
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
    /// Compute everything, write nothing; exit 3 if an output would change.
    #[arg(long)]
    pub check: bool,
    /// Write the outputs even when verification fails (still exit 1).
    #[arg(long)]
    pub allow_invalid: bool,
    /// Multicast groups file: also build multicast trees and MFT colours.
    #[arg(long, value_name = "FILE")]
    pub mcast: Option<PathBuf>,
    /// MFT entries available per switch (colours).
    #[arg(long, value_name = "N")]
    pub mft_size: Option<u32>,
    /// Rebuild the trees of merged groups instead of keeping the old ones.
    #[arg(long)]
    pub rebuild_merged: bool,
}

/// Runs `routec compile`.
pub fn run(args: CompileArgs, g: &Global) -> Result<Outcome> {
    let mut clock = Stages::new(g.verbose > 0);
    let LoadedTopo { mut fabric, .. } = args.topo.load(g)?;
    clock.done("parse");
    prepare_lids(&mut fabric, args.assign_lids, g)?;
    let lids = LidMap::new(&fabric)?;
    clock.done("lids");
    let engine = route::engine_by_name(&args.engine)
        .ok_or_else(|| Error::Usage(format!("engine `{}` is not available yet", args.engine)))?;
    let opts = RouteOptions {
        roots: root_spec(args.roots.as_deref())?,
        node_order: match &args.node_order {
            Some(p) => Some(crate::parse::guids::load_guid_file(p)?),
            None => None,
        },
    };
    let routing = engine.route(&fabric, &lids, &opts)?;
    clock.done("route");
    if !g.quiet {
        for n in &routing.notes {
            eprintln!("note[{}]: {}", n.code, n.message);
        }
        report_roots(&fabric, &routing, g.verbose > 0);
    }
    write_outputs(&args, &fabric, &lids, &routing)?;
    clock.done("emit");
    Ok(Outcome::Clean)
}

/// `-v` stage timings on stderr.
struct Stages {
    on: bool,
    start: std::time::Instant,
    last: std::time::Instant,
}

impl Stages {
    fn new(on: bool) -> Self {
        let now = std::time::Instant::now();
        Stages { on, start: now, last: now }
    }

    fn done(&mut self, stage: &str) {
        if self.on {
            let now = std::time::Instant::now();
            eprintln!(
                "time: {stage:<6} {:>9.3} s (total {:.3} s)",
                (now - self.last).as_secs_f64(),
                (now - self.start).as_secs_f64()
            );
            self.last = now;
        }
    }
}

/// Says which up/down roots were used (all of them with `-v`).
fn report_roots(fabric: &Fabric, routing: &route::Routing, all: bool) {
    if routing.roots.is_empty() {
        return;
    }
    let guids: Vec<String> = routing
        .roots
        .iter()
        .take(if all { usize::MAX } else { 8 })
        .map(|&s| fabric.node(fabric.switch_node(s)).guid.to_string())
        .collect();
    let more = routing.roots.len() - guids.len();
    eprintln!(
        "roots: {} of {} switches: {}{}",
        routing.roots.len(),
        fabric.num_switches(),
        guids.join(" "),
        if more > 0 { format!(" (+{more} more, -v lists all)") } else { String::new() }
    );
}

/// Writes the outputs named by `--emit` into the output directory.
fn write_outputs(
    args: &CompileArgs,
    fabric: &Fabric,
    lids: &LidMap,
    routing: &route::Routing,
) -> Result<()> {
    std::fs::create_dir_all(&args.outdir).map_err(|e| Error::io(&args.outdir, e))?;
    for what in &args.emit {
        match what.as_str() {
            "none" => {}
            "opensm" => {
                let path = args.outdir.join("opensm-lfts.dump");
                crate::io::write_atomic(&path, |w| {
                    crate::emit::opensm::write_lfts_dump(fabric, lids, &routing.lfts, w)
                })?;
            }
            other => return Err(Error::Usage(format!("unknown output `{other}` in --emit"))),
        }
    }
    Ok(())
}

/// Makes sure every port that needs a LID has one: a fabric with none gets a
/// deterministic assignment (`formats/lid-assignment.md`); a partial one is
/// an error unless `--assign-lids`.
pub fn prepare_lids(fabric: &mut Fabric, assign: bool, g: &Global) -> Result<()> {
    match lids::lid_state(fabric) {
        LidState::Complete => Ok(()),
        LidState::Partial { missing } if !assign => Err(Error::Input(format!(
            "{missing} ports have no LID while others have one; \
             pass --assign-lids to give them LIDs"
        ))),
        _ => {
            let n = lids::assign_missing_lids(fabric)?;
            if !g.quiet {
                eprintln!("note: assigned {n} LIDs (formats/lid-assignment.md)");
            }
            Ok(())
        }
    }
}

/// Parses `--roots`.
pub fn root_spec(arg: Option<&str>) -> Result<RootSpec> {
    Ok(match arg {
        None | Some("auto") => RootSpec::Auto,
        Some("top") => RootSpec::Top,
        Some(path) => RootSpec::Guids(crate::parse::guids::load_guid_file(path.as_ref())?),
    })
}
