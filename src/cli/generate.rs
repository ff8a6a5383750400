//! `routec gen`: fabric and multicast-pattern generators.

use std::path::PathBuf;

use clap::{Args, Subcommand, ValueEnum};

use super::Outcome;
use super::common::Global;

/// Generators.
#[derive(Subcommand, Debug)]
pub enum GenCommand {
    /// A Parallel Generalised Fat-Tree PGFT(h; m; w; p) as ibnetdiscover text.
    Pgft(PgftArgs),
    /// Multicast groups from an MPI process grid or at random.
    Mcast(GenMcastArgs),
}

/// Arguments of `routec gen pgft`.
#[derive(Args, Debug)]
pub struct PgftArgs {
    /// Number of levels h.
    #[arg(long = "h")]
    pub height: usize,
    /// Children per node at each level, m1,..,mh.
    #[arg(long = "m", value_delimiter = ',', required = true)]
    pub m: Vec<u32>,
    /// Parents per node at each level, w1,..,wh.
    #[arg(long = "w", value_delimiter = ',', required = true)]
    pub w: Vec<u32>,
    /// Parallel cables between a node and each parent, p1,..,ph (default all 1).
    #[arg(long = "p", value_delimiter = ',')]
    pub p: Option<Vec<u32>>,
    /// Output file (standard output by default).
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Also write a fault list of N random switch-to-switch cables.
    #[arg(long, value_name = "N")]
    pub faults: Option<usize>,
    /// Also fail N random switches above the leaves.
    #[arg(long, value_name = "N")]
    pub fail_switches: Option<usize>,
    /// Seed for the random faults.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Where to write the fault list (default: OUTPUT.faults).
    #[arg(long, value_name = "FILE")]
    pub faults_out: Option<PathBuf>,
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
    #[arg(long, default_value_t = 1)]
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

/// `routec gen pgft`: the fabric as ibnetdiscover text, and the random
/// fault list when `--faults`/`--fail-switches` ask for one.
fn gen_pgft(a: &PgftArgs, g: &Global) -> crate::Result<Outcome> {
    use crate::error::Error;
    use crate::generate::faults::{FaultPlan, random_faults, write_faults};
    use crate::generate::pgft::{PgftSpec, pgft};
    let spec = PgftSpec::new(a.height, &a.m, &a.w, a.p.as_deref());
    let fabric = pgft(&spec).map_err(|e| Error::Usage(format!("gen pgft: {e}")))?;
    match &a.output {
        Some(path) => {
            crate::io::write_atomic(path, |w| crate::emit::ibnetdiscover::write(&fabric, w))?
        }
        None => {
            let stdout = std::io::stdout();
            crate::emit::ibnetdiscover::write(&fabric, &mut stdout.lock())
                .map_err(|e| Error::io("<stdout>", e))?;
        }
    }
    let plan = FaultPlan {
        links: a.faults.unwrap_or(0),
        switches: a.fail_switches.unwrap_or(0),
        seed: a.seed,
    };
    if a.faults.is_none() && a.fail_switches.is_none() {
        return Ok(Outcome::Clean);
    }
    let faults =
        random_faults(&fabric, &plan).map_err(|e| Error::Usage(format!("gen pgft: {e}")))?;
    let path = match (&a.faults_out, &a.output) {
        (Some(p), _) => p.clone(),
        (None, Some(out)) => {
            let mut s = out.clone().into_os_string();
            s.push(".faults");
            PathBuf::from(s)
        }
        (None, None) => {
            return Err(Error::Usage(
                "gen pgft: --faults/--fail-switches need --faults-out or -o (the list goes to OUTPUT.faults)".into(),
            ));
        }
    };
    let header = format!(
        "routec gen pgft: PGFT({}; {}; {}; {}), {} switches and {} cables failed, seed {}",
        spec.h,
        join(&spec.m),
        join(&spec.w),
        join(&spec.p),
        plan.switches,
        plan.links,
        plan.seed
    );
    crate::io::write_atomic(&path, |w| write_faults(&faults, &header, w))?;
    if !g.quiet {
        eprintln!("note: wrote {} faults to {}", faults.len(), path.display());
    }
    Ok(Outcome::Clean)
}

fn join(v: &[u32]) -> String {
    v.iter().map(u32::to_string).collect::<Vec<_>>().join(",")
}

/// Runs `routec gen`.
pub fn run(cmd: GenCommand, g: &Global) -> crate::Result<Outcome> {
    match cmd {
        GenCommand::Pgft(a) => gen_pgft(&a, g),
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
        None => {
            write(&mut std::io::stdout().lock()).map_err(|e| crate::Error::io("<stdout>", e))?
        }
    }
    Ok(Outcome::Clean)
}
