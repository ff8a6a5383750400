//! `routec mcast`: multicast trees and MFT colours on their own.

use std::path::PathBuf;
use std::time::Instant;

use clap::Args;

use super::Outcome;
use super::common::{Global, TopoArgs};
use crate::emit::outputs::OutputSet;
use crate::mcast::{McastConfig, assign, outputs::stage_outputs};
use crate::parse::mcast_groups::load_groups;

/// Arguments of `routec mcast`.
#[derive(Args, Debug)]
pub struct McastArgs {
    #[command(flatten)]
    pub topo: TopoArgs,
    /// Multicast groups (text, YAML, or opensm-sa.dump).
    #[arg(long = "mcast", value_name = "GROUPS")]
    pub groups: PathBuf,
    /// MFT entries available per switch (colours).
    #[arg(long, value_name = "N")]
    pub mft_size: Option<u32>,
    /// Rebuild the trees of merged groups instead of keeping the old ones.
    #[arg(long)]
    pub rebuild_merged: bool,
    /// Output directory.
    #[arg(short = 'o', long = "output", value_name = "OUTDIR")]
    pub outdir: PathBuf,
}

/// Runs `routec mcast`: exit 1 when the self-check of the MFTs finds problems.
pub fn run(args: McastArgs, g: &Global) -> crate::Result<Outcome> {
    let topo = args.topo.load(g)?;
    let groups = load_groups(&args.groups, &topo.fabric)?;
    let mut cfg = McastConfig {
        rebuild_merged: args.rebuild_merged,
        ..McastConfig::default()
    };
    if let Some(n) = args.mft_size {
        if n == 0 {
            return Err(crate::Error::Usage("--mft-size must be at least 1".into()));
        }
        cfg.mft_size = n;
    }
    let t0 = Instant::now();
    let result = assign(&topo.fabric, &groups, cfg)?;
    let elapsed = t0.elapsed();
    std::fs::create_dir_all(&args.outdir).map_err(|e| crate::Error::io(&args.outdir, e))?;
    let mut set = OutputSet::new(&args.outdir, false);
    let report = stage_outputs(&topo.fabric, &groups, &result, &mut set)?;
    set.commit()?;
    if !g.quiet {
        let s = &report.summary;
        eprintln!(
            "{} groups: {} colours, {} trees, {} merges, max EFI {}, max TFI {}, max height {} ({:.1} ms)",
            s.groups,
            s.colours_used,
            s.trees,
            s.merges,
            s.max_efi,
            s.max_tfi,
            s.max_height,
            elapsed.as_secs_f64() * 1e3
        );
        for f in &report.check.findings {
            eprintln!("finding: {f}");
        }
    }
    Ok(if report.check.findings.is_empty() {
        Outcome::Clean
    } else {
        Outcome::Findings
    })
}
