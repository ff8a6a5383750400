//! Arguments and steps shared by several subcommands.

use std::path::PathBuf;

use clap::Args;

use crate::error::{Error, Result};
use crate::model::Fabric;
use crate::model::faults::FaultSummary;
use crate::parse::{self, LoadOptions, TopoFormat};

/// Options every subcommand understands.
#[derive(Args, Debug, Clone, Default)]
pub struct Global {
    /// Worker threads (default: one per core). Output does not depend on it.
    /// Capped at the CPU count with a warning.
    #[arg(short = 'j', long = "threads", global = true, value_name = "N",
          value_parser = clap::value_parser!(u16).range(1..=4096))]
    pub threads: Option<u16>,
    /// Print phase timings and details on stderr (repeat for more).
    #[arg(short, long, global = true, action = clap::ArgAction::Count)]
    pub verbose: u8,
    /// Print nothing on stderr but errors.
    #[arg(short, long, global = true)]
    pub quiet: bool,
}

/// A topology input with its reading options.
#[derive(Args, Debug, Clone)]
pub struct TopoArgs {
    /// Topology file: ibnetdiscover output, ibsim net file or routec YAML.
    #[arg(value_name = "TOPO")]
    pub topology: PathBuf,
    /// Read the topology as this format instead of detecting it.
    #[arg(long, value_enum)]
    pub format: Option<TopoFormat>,
    /// Skip unrecognised lines (with a counted warning) instead of failing.
    #[arg(long)]
    pub lenient: bool,
    /// Fault list to apply before anything else (`formats/faults.md`).
    #[arg(long, value_name = "FILE")]
    pub faults: Option<PathBuf>,
    /// Node or port GUIDs (one per line) of CAs that are not compute
    /// nodes — storage, management or in-network-computing CAs whose
    /// description does not say "Aggregation Node": they never make their
    /// switch a leaf (`formats/dmodc.md` §9).
    #[arg(long, value_name = "FILE")]
    pub service_nodes: Option<PathBuf>,
}

/// A topology after parsing and fault application.
#[derive(Debug)]
pub struct LoadedTopo {
    pub fabric: Fabric,
    pub format: TopoFormat,
    pub faults: Option<FaultSummary>,
    /// Every file read, for depfiles.
    pub inputs: Vec<PathBuf>,
}

impl TopoArgs {
    /// Parses the topology and applies the fault list, printing warnings.
    pub fn load(&self, g: &Global) -> Result<LoadedTopo> {
        let opts = LoadOptions {
            format: self.format,
            lenient: self.lenient,
        };
        let loaded = load_topology_warn(&self.topology, &opts, g)?;
        let mut inputs = vec![self.topology.clone()];
        let (fabric, faults) = match &self.faults {
            Some(path) => {
                inputs.push(path.clone());
                let (f, s) = parse::faults::load_and_apply(&loaded.fabric, path)?;
                (f, Some(s))
            }
            None => (loaded.fabric, None),
        };
        let mut fabric = fabric;
        if let Some(path) = &self.service_nodes {
            inputs.push(path.clone());
            mark_service_nodes(&mut fabric, path)?;
        }
        Ok(LoadedTopo {
            fabric,
            format: loaded.format,
            faults,
            inputs,
        })
    }
}

/// `--service-nodes FILE`: every GUID must name a CA (by node or port
/// GUID); a switch, or a GUID the fabric lacks, is an input error.
pub(super) fn mark_service_nodes(fabric: &mut Fabric, path: &std::path::Path) -> Result<()> {
    for g in parse::guids::load_guid_file(path)? {
        let node = fabric
            .node_by_guid(g)
            .or_else(|| fabric.port_by_guid(g).map(|(n, _)| n));
        match node {
            Some(n) if !fabric.is_switch(n) => fabric.mark_service(n),
            Some(_) => {
                return Err(Error::Input(format!(
                    "{}: {g} is a switch; --service-nodes lists CAs",
                    path.display()
                )));
            }
            None => {
                return Err(Error::Input(format!(
                    "{}: {g} names no node or port of the topology",
                    path.display()
                )));
            }
        }
    }
    Ok(())
}

/// Reads a topology and prints its warnings (lines skipped by `--lenient`)
/// on stderr unless `--quiet`.
pub fn load_topology_warn(
    path: &std::path::Path,
    opts: &LoadOptions,
    g: &Global,
) -> Result<parse::Loaded> {
    let loaded = parse::load_topology(path, opts)?;
    if !g.quiet {
        for w in &loaded.warnings {
            eprintln!("warning: {w}");
        }
    }
    Ok(loaded)
}
