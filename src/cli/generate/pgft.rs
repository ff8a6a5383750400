//! `routec gen pgft`: PGFT(h; m; w; p), optionally with the features of real
//! fat trees (`formats/pgft.md`), and a random fault list.

use std::path::PathBuf;

use clap::Args;

use super::{Outcome, faults_path, write_fabric};
use crate::cli::common::Global;
use crate::error::Error;
use crate::generate::faults::{FaultPlan, random_faults, write_faults};
use crate::generate::features::{self, Features, MgmtPod};
use crate::generate::pgft::{PgftSpec, pgft};

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
    /// Seed for the random faults and the random features.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Where to write the fault list (default: OUTPUT.faults).
    #[arg(long, value_name = "FILE")]
    pub faults_out: Option<PathBuf>,
    /// An aggregation-node CA ("Mellanox Technologies Aggregation Node") on
    /// a new last port of every switch.
    #[arg(long)]
    pub aggregation_nodes: bool,
    /// Leave this fraction of host ports empty (random hosts removed).
    #[arg(long, value_name = "FRACTION", default_value_t = 0.0)]
    pub empty_host_ports: f64,
    /// Remove N random top switches (a partially populated top level).
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub drop_top: u32,
    /// A management pod LEAVES:HOSTS:TOPS: LEAVES leaves with HOSTS hosts
    /// each, cabled only to the first TOPS top switches.
    #[arg(long, value_name = "L:H:T")]
    pub mgmt_pod: Option<String>,
    /// The last N pods' spines reach only the upper half of the top level.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub isolated_pods: u32,
    /// N extra cables between random pairs of spines (on new ports).
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub cross_cables: u32,
}

impl PgftArgs {
    fn features(&self) -> crate::Result<Features> {
        let mgmt_pod = match &self.mgmt_pod {
            None => None,
            Some(s) => {
                let v: Vec<u32> = s
                    .split(':')
                    .map(str::parse)
                    .collect::<Result<_, _>>()
                    .map_err(|_| bad_pod(s))?;
                let [leaves, hosts, tops] = v[..] else {
                    return Err(bad_pod(s));
                };
                Some(MgmtPod {
                    leaves,
                    hosts,
                    tops,
                })
            }
        };
        if !(0.0..1.0).contains(&self.empty_host_ports) {
            return Err(Error::Usage(format!(
                "--empty-host-ports {}: a fraction in 0..1",
                self.empty_host_ports
            )));
        }
        Ok(Features {
            aggregation_nodes: self.aggregation_nodes,
            empty_host_ports: self.empty_host_ports,
            drop_top: self.drop_top,
            mgmt_pod,
            isolated_pods: self.isolated_pods,
            cross_cables: self.cross_cables,
            seed: self.seed,
        })
    }
}

fn bad_pod(s: &str) -> Error {
    Error::Usage(format!(
        "--mgmt-pod {s}: expected LEAVES:HOSTS:TOPS, e.g. 2:16:4"
    ))
}

/// `routec gen pgft`: the fabric as ibnetdiscover text, and the random
/// fault list when `--faults`/`--fail-switches` ask for one.
pub fn run(a: &PgftArgs, g: &Global) -> crate::Result<Outcome> {
    let spec = PgftSpec::new(a.height, &a.m, &a.w, a.p.as_deref());
    let mut fabric = pgft(&spec).map_err(|e| Error::Usage(format!("gen pgft: {e}")))?;
    let feat = a.features()?;
    if feat.any() {
        fabric = features::apply(&spec, &fabric, &feat)
            .map_err(|e| Error::Usage(format!("gen pgft: {e}")))?;
    }
    write_fabric(&fabric, &a.output)?;
    if a.faults.is_none() && a.fail_switches.is_none() {
        return Ok(Outcome::Clean);
    }
    let plan = FaultPlan {
        links: a.faults.unwrap_or(0),
        switches: a.fail_switches.unwrap_or(0),
        seed: a.seed,
    };
    let faults =
        random_faults(&fabric, &plan).map_err(|e| Error::Usage(format!("gen pgft: {e}")))?;
    let path = faults_path(&a.faults_out, &a.output, "gen pgft")?;
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
