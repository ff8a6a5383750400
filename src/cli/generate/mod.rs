//! `routec gen`: fabric and multicast-pattern generators, one file per
//! family.

mod pgft;
mod topologies;

use std::path::PathBuf;

use clap::{Args, Subcommand, ValueEnum};

use super::Outcome;
use super::common::Global;

/// Generators.
#[derive(Subcommand, Debug)]
pub enum GenCommand {
    /// A Parallel Generalised Fat-Tree PGFT(h; m; w; p) as ibnetdiscover text.
    Pgft(pgft::PgftArgs),
    /// A torus or mesh (k-ary n-cube).
    Torus(topologies::TorusArgs),
    /// A dragonfly.
    Dragonfly(topologies::DragonflyArgs),
    /// A 2-D fat tree (leaves in a grid, row and column switches) for VTFTR.
    Ft2d(topologies::Ft2dArgs),
    /// Multicast groups from an MPI process grid or at random.
    Mcast(GenMcastArgs),
}

/// Process-grid patterns of the MR4LMS evaluation.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum McastPattern {
    Grid2d,
    Grid3d,
    Random,
}

/// Arguments of `routec gen mcast`.
#[derive(Args, Debug)]
pub struct GenMcastArgs {
    /// Pattern of the groups.
    #[arg(long, value_enum)]
    pub pattern: McastPattern,
    /// Process grid AxB or AxBxC (random: number of groups x group size).
    #[arg(long)]
    pub dims: String,
    /// MPI processes per node.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=4096))]
    pub procs_per_node: u32,
    /// Topology whose nodes (in node order) host the processes.
    #[arg(long, value_name = "TOPO")]
    pub topology: PathBuf,
    /// Seed for random groups.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Output file (standard output by default).
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
}

/// Runs `routec gen`.
pub fn run(cmd: GenCommand, g: &Global) -> crate::Result<Outcome> {
    match cmd {
        GenCommand::Pgft(a) => pgft::run(&a, g),
        GenCommand::Torus(a) => topologies::torus(&a),
        GenCommand::Dragonfly(a) => topologies::dragonfly(&a),
        GenCommand::Ft2d(a) => topologies::ft2d(&a, g),
        GenCommand::Mcast(a) => gen_mcast(a),
    }
}

/// `routec gen mcast`: the MR4LMS evaluation patterns as a groups file.
fn gen_mcast(a: GenMcastArgs) -> crate::Result<Outcome> {
    use crate::generate::mcast_pattern::{Pattern, generate, parse_dims};
    let fabric = crate::parse::load_topology(&a.topology, &Default::default())?.fabric;
    let pattern = match a.pattern {
        McastPattern::Grid2d => Pattern::Grid2d,
        McastPattern::Grid3d => Pattern::Grid3d,
        McastPattern::Random => Pattern::Random,
    };
    let groups = generate(
        &fabric,
        pattern,
        &parse_dims(&a.dims)?,
        a.procs_per_node,
        a.seed,
    )?;
    let write = |w: &mut dyn std::io::Write| crate::emit::mcast::write_groups(&fabric, &groups, w);
    match &a.output {
        Some(path) => crate::io::write_atomic(path, write)?,
        None => crate::io::to_stdout(write)?,
    }
    Ok(Outcome::Clean)
}

/// Writes a generated fabric as ibnetdiscover text to `output` (atomic)
/// or standard output.
fn write_fabric(fabric: &crate::model::Fabric, output: &Option<PathBuf>) -> crate::Result<()> {
    match output {
        Some(path) => {
            crate::io::write_atomic(path, |w| crate::emit::ibnetdiscover::write(fabric, w))
        }
        None => crate::io::to_stdout(|w| crate::emit::ibnetdiscover::write(fabric, w)),
    }
}

/// `OUTPUT.faults`, or an error when the fabric goes to standard output.
fn faults_path(
    explicit: &Option<PathBuf>,
    output: &Option<PathBuf>,
    what: &str,
) -> crate::Result<PathBuf> {
    match (explicit, output) {
        (Some(p), _) => Ok(p.clone()),
        (None, Some(out)) => {
            let mut s = out.clone().into_os_string();
            s.push(".faults");
            Ok(PathBuf::from(s))
        }
        (None, None) => Err(crate::Error::Usage(format!(
            "{what}: a fault list needs --faults-out or -o (the list goes to OUTPUT.faults)"
        ))),
    }
}
