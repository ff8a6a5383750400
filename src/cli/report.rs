//! `routec report`: route quality under traffic patterns.

use std::path::{Path, PathBuf};

use clap::{Args, ValueEnum};

use super::Outcome;
use super::common::{Global, TopoArgs};
use crate::error::{Error, Result};
use crate::model::{Fabric, LidMap};
use crate::verify::congestion::{EndPort, topological_nodes};
use crate::verify::quality::{QualityOptions, evaluate};

/// Traffic patterns.
#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
pub enum Pattern {
    Shift,
    Random,
    A2a,
    All,
}

/// Arguments of `routec report`.
#[derive(Args, Debug)]
pub struct ReportArgs {
    #[command(flatten)]
    pub topo: TopoArgs,
    /// Tables: a route image, an opensm-lfts.dump, or an output directory.
    #[arg(long, value_name = "FILE|OUTDIR")]
    pub lfts: PathBuf,
    /// Traffic pattern(s).
    #[arg(long, value_enum, default_value = "all")]
    pub pattern: Pattern,
    /// Random permutations to sample.
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub samples: u32,
    /// Seed for random permutations.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Destination order: a GUID file of end-port GUIDs.
    #[arg(long, value_name = "FILE")]
    pub node_order: Option<PathBuf>,
    /// Longest route followed, in switch-to-switch links.
    #[arg(long, default_value_t = 64)]
    pub hop_limit: u32,
    /// Print JSON instead of text (`formats/quality-report.md`).
    #[arg(long)]
    pub json: bool,
    /// LMC the tables were compiled with (`compile --lmc N`): LIDs are
    /// assigned anew exactly as compile did when the topology's differ.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u8).range(0..=7))]
    pub lmc: Option<u8>,
}

/// Runs `routec report`: quality never fails a build, so findings still
/// exit 0; only bad input exits 2.
pub fn run(args: ReportArgs, g: &Global) -> Result<Outcome> {
    let mut fabric = args.topo.load(g)?.fabric;
    if let Some(lmc) = args.lmc {
        super::compile::relid_for_lmc(&mut fabric, lmc, g)?;
    }
    let lids = LidMap::new(&fabric)?;
    if lids.iter().next().is_none() {
        return Err(Error::Input(format!(
            "{}: the topology carries no LIDs; report needs the LIDs the tables were made for",
            args.topo.topology.display()
        )));
    }
    let set = crate::parse::lfts::read_tables(&args.lfts)?;
    let lfts = super::check::tables_for(&fabric, &lids, &set, &args.lfts, g)?.lfts;
    let (nodes, order) = match &args.node_order {
        Some(path) => (node_order(&fabric, path)?, "file"),
        None => (topological_nodes(&fabric), "topological"),
    };
    let all = args.pattern == Pattern::All;
    let opts = QualityOptions {
        shift: all || args.pattern == Pattern::Shift,
        random: all || args.pattern == Pattern::Random,
        all_to_all: all || args.pattern == Pattern::A2a,
        samples: args.samples as usize,
        seed: args.seed,
        hop_limit: args.hop_limit,
    };
    let t = std::time::Instant::now();
    let report = evaluate(&fabric, &lids, &lfts, &nodes, order, &opts);
    if g.verbose > 0 {
        eprintln!(
            "report: patterns evaluated in {:.3} s",
            t.elapsed().as_secs_f64()
        );
    }
    if args.json {
        let s = serde_json::to_string_pretty(&report).map_err(|e| Error::Input(e.to_string()))?;
        println!("{s}");
    } else {
        print!("{}", report.render());
    }
    Ok(Outcome::Clean)
}

/// The end ports of a GUID file of port GUIDs, in file order. Each must be
/// a CA or router port cabled to a switch, and appear once.
fn node_order(fabric: &Fabric, path: &Path) -> Result<Vec<EndPort>> {
    let name = path.display().to_string();
    let text = crate::io::read_text(path)?;
    let lines = crate::parse::guids::parse_guid_file(&name, &text)?;
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::with_capacity(lines.len());
    for l in lines {
        let at = |what: &str| Error::Input(format!("{name}:{}: {} {what}", l.line, l.guid));
        let (node, port) = fabric
            .port_by_guid(l.guid)
            .filter(|&(n, _)| !fabric.is_switch(n))
            .ok_or_else(|| at("is not the port GUID of a CA or router of the topology"))?;
        if !fabric
            .peer(node, port)
            .is_some_and(|p| fabric.is_switch(p.node))
        {
            return Err(at("is not cabled to a switch"));
        }
        if !seen.insert((node, port)) {
            return Err(at("appears twice"));
        }
        out.push(EndPort { node, port });
    }
    if out.is_empty() {
        return Err(Error::Input(format!("{name}: no GUIDs")));
    }
    Ok(out)
}
