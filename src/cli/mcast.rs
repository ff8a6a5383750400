//! `routec mcast`: multicast trees and MFT colours on their own; and the
//! multicast half of `routec compile --mcast`. Both run the same stages as
//! unicast: assign (the MR4LMS engine), verify (`verify::mcast`), emit.

use std::path::{Path, PathBuf};
use std::time::Instant;

use clap::Args;

use super::Outcome;
use super::common::{Global, TopoArgs};
use crate::emit::mcast::{McastReport, write_colours, write_mcast_json};
use crate::emit::outputs::OutputSet;
use crate::error::{Error, Result};
use crate::mcast::{McastConfig, McastResult};
use crate::model::{Fabric, McastGroup, McastSummary, Mfts, OutFile};
use crate::parse::mcast_groups::load_groups;
use crate::verify::mcast::{McastCheck, verify_mfts};

/// Arguments of `routec mcast`.
#[derive(Args, Debug)]
pub struct McastArgs {
    #[command(flatten)]
    pub topo: TopoArgs,
    /// Multicast groups (text, YAML, or opensm-sa.dump).
    #[arg(long = "mcast", value_name = "GROUPS")]
    pub groups: PathBuf,
    #[command(flatten)]
    pub opts: McastOpts,
    /// Output directory.
    #[arg(short = 'o', long = "output", value_name = "OUTDIR")]
    pub outdir: PathBuf,
}

/// Options of the multicast engine, shared by `mcast` and `compile --mcast`.
#[derive(Args, Debug, Clone, Copy)]
pub struct McastOpts {
    /// MFT entries available per switch (colours).
    #[arg(long, value_name = "N")]
    pub mft_size: Option<u32>,
    /// Rebuild the trees of merged groups instead of keeping the old ones.
    #[arg(long)]
    pub rebuild_merged: bool,
}

impl McastOpts {
    fn config(self) -> Result<McastConfig> {
        let mut cfg = McastConfig {
            rebuild_merged: self.rebuild_merged,
            ..McastConfig::default()
        };
        if let Some(n) = self.mft_size {
            if n == 0 {
                return Err(Error::Usage("--mft-size must be at least 1".into()));
            }
            cfg.mft_size = n;
        }
        Ok(cfg)
    }
}

/// A multicast run: the groups, the engine's result and its tables.
pub(super) struct McastRun {
    pub groups: Vec<McastGroup>,
    pub result: McastResult,
    pub mfts: Mfts,
    pub summary: McastSummary,
}

/// Reads the groups and assigns trees and colours (the route stage).
pub(super) fn assign(fabric: &Fabric, groups: &Path, opts: McastOpts) -> Result<McastRun> {
    let path = groups;
    let groups = load_groups(groups, fabric)?;
    refuse_more_groups_than_mlids(path, groups.len())?;
    let result = crate::mcast::assign(fabric, &groups, opts.config()?)?;
    Ok(McastRun {
        mfts: crate::mcast::mfts(fabric, &result),
        summary: crate::mcast::summary(&result),
        groups,
        result,
    })
}

/// IB has 16,383 MLIDs (0xC000..=0xFFFE), so a fabric cannot hold more
/// groups than that; past it every new group would be merged into an old
/// tree, a search that grows quadratically (34,000 groups once ran 34 s
/// with nothing shown). Refused before any tree is built.
fn refuse_more_groups_than_mlids(path: &Path, n: usize) -> Result<()> {
    let max = crate::mcast::MAX_COLOURS as usize;
    if n > max {
        return Err(Error::Input(format!(
            "{}: {n} multicast groups, but InfiniBand has only {max} MLIDs \
             (0xC000..=0xFFFE), one per group: split the groups over several fabrics or runs",
            path.display()
        )));
    }
    Ok(())
}

/// Checks the run's MFTs against its groups and colours (the verify stage).
pub(super) fn verify(fabric: &Fabric, run: &McastRun) -> McastCheck {
    let colours = crate::mcast::group_colours(&run.groups, &run.result);
    verify_mfts(fabric, &run.mfts, &run.groups, &colours)
}

/// Stages `opensm.mcfdbs`, `mcast-colors.txt` and `mcast.json` (the emit stage).
pub(super) fn stage(
    set: &mut OutputSet,
    fabric: &Fabric,
    run: &McastRun,
    check: &McastCheck,
) -> Result<()> {
    set.stage(OutFile::Mcfdbs.name(), |w| {
        crate::emit::mcfdbs::write_mcfdbs(fabric, &run.mfts, w)
    })?;
    let lines = crate::mcast::colour_lines(fabric, &run.groups, &run.result);
    set.stage(OutFile::McastColours.name(), |w| write_colours(&lines, w))?;
    let report = McastReport {
        summary: &run.summary,
        check,
    };
    set.stage(OutFile::McastJson.name(), |w| write_mcast_json(&report, w))
}

/// Runs `routec mcast`: exit 1 when the MFTs fail verification (the files
/// are written all the same, for inspection).
pub fn run(args: McastArgs, g: &Global) -> Result<Outcome> {
    let mut phases = crate::cli::phases::Phases::new(g).command("mcast");
    phases.begin("parse");
    let topo = args.topo.load(g)?;
    phases.begin("assign");
    let t0 = Instant::now();
    let run = assign(&topo.fabric, &args.groups, args.opts)?;
    let elapsed = t0.elapsed();
    phases.begin("verify");
    let check = verify(&topo.fabric, &run);
    phases.finish();
    if !g.quiet {
        let s = &run.summary;
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
        for f in &check.findings {
            eprint!("{f}");
        }
    }
    std::fs::create_dir_all(&args.outdir).map_err(|e| Error::io(&args.outdir, e))?;
    let mut set = OutputSet::new(&args.outdir, false);
    stage(&mut set, &topo.fabric, &run, &check)?;
    set.commit()?;
    Ok(if check.findings.is_empty() {
        Outcome::Clean
    } else {
        Outcome::Findings
    })
}
