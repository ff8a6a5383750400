//! `routec diff`: what a re-route would upload.

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::Args;

use super::Outcome;
use super::common::Global;
use crate::error::Error;
use crate::model::OutFile;
use crate::parse::lfts::read_tables;

/// Arguments of `routec diff`.
#[derive(Args, Debug)]
pub struct DiffArgs {
    /// Old tables: an output directory, routes.lft[.zst] or opensm-lfts.dump.
    /// MFTs are compared too when both sides are directories holding
    /// `opensm.mcfdbs`.
    pub old: PathBuf,
    /// New tables, likewise.
    pub new: PathBuf,
    /// Print the full per-switch detail as JSON.
    #[arg(long)]
    pub json: bool,
    /// Exit 3 if anything differs.
    #[arg(long)]
    pub exit_code: bool,
    /// Plan the upload: prove every mixture of old and new entries safe, or
    /// order the writes into safe phases (`formats/diff-plan.md`). Needs
    /// --topology. Exits 1 when no safe order was found.
    #[arg(long, requires = "topology")]
    pub plan: bool,
    /// The topology the upload runs on (the new one), for --plan.
    #[arg(long, value_name = "TOPO")]
    pub topology: Option<PathBuf>,
    /// Fault list applied to --topology (`formats/faults.md`).
    #[arg(long, value_name = "FILE", requires = "topology")]
    pub faults: Option<PathBuf>,
    /// With --plan: routes from every switch and to switch LIDs count too,
    /// as `check --all-paths`.
    #[arg(long, requires = "plan")]
    pub all_paths: bool,
}

/// Runs `routec diff`.
pub fn run(args: DiffArgs, g: &Global) -> crate::Result<Outcome> {
    let t0 = std::time::Instant::now();
    let (old, new) = rayon::join(|| read_tables(&args.old), || read_tables(&args.new));
    let (old, new) = (old?, new?);
    let t1 = std::time::Instant::now();
    let mut d = crate::diff::diff_tables(&old, &new, args.json);
    d.mft = diff_mfts(&args.old, &args.new, &d.switches_removed, g)?;
    if args.plan {
        d.plan = Some(upload_plan(&args, &old, &new, g)?);
    }
    if g.verbose > 0 {
        eprintln!(
            "read: {:.1} ms, diff: {:.1} ms",
            (t1 - t0).as_secs_f64() * 1e3,
            t1.elapsed().as_secs_f64() * 1e3
        );
    }
    let text = if args.json {
        let mut s = serde_json::to_string_pretty(&d).map_err(|e| Error::Input(e.to_string()))?;
        s.push('\n');
        s
    } else {
        crate::diff::summary(&d)
    };
    let mut out = std::io::stdout().lock();
    if let Err(e) = out.write_all(text.as_bytes()).and_then(|_| out.flush())
        && e.kind() != std::io::ErrorKind::BrokenPipe
    {
        return Err(Error::io("<stdout>", e));
    }
    if d.plan.as_ref().is_some_and(|p| !p.is_safe()) {
        return Ok(Outcome::Findings);
    }
    Ok(if args.exit_code && !d.is_empty() {
        Outcome::Changed
    } else {
        Outcome::Clean
    })
}

/// `--plan`: the upload plan on `--topology` (with `--faults`).
fn upload_plan(
    args: &DiffArgs,
    old: &crate::model::TableSet,
    new: &crate::model::TableSet,
    g: &Global,
) -> crate::Result<crate::diff::plan::UploadPlan> {
    let Some(topology) = args.topology.clone() else {
        return Err(Error::Usage("--plan needs --topology TOPO".into()));
    };
    let topo = super::common::TopoArgs {
        topology,
        format: None,
        lenient: false,
        faults: args.faults.clone(),
        service_nodes: None,
    };
    let fabric = topo.load(g)?.fabric;
    let lids = crate::model::LidMap::new(&fabric)?;
    if lids.iter().next().is_none() {
        return Err(Error::Input(format!(
            "{}: the topology carries no LIDs; --plan needs the LIDs the tables were made for",
            topo.topology.display()
        )));
    }
    let opts = crate::diff::plan::PlanOptions {
        all_paths: args.all_paths,
    };
    let plan = crate::diff::plan::plan_upload(&fabric, &lids, old, new, opts);
    if let (Some(why), false) = (&plan.one_lane_because, g.quiet) {
        eprintln!(
            "note: {why}; --plan checks credit loops on one lane for every VL (sufficient, so \
             routings that need VLs show as unsafe)"
        );
    }
    Ok(plan)
}

/// The MFT diff when both sides are directories with `opensm.mcfdbs`.
/// Switches gone from the fabric upload nothing, so their MFTs are left out.
fn diff_mfts(
    old: &Path,
    new: &Path,
    removed: &[crate::diff::SwitchRef],
    g: &Global,
) -> crate::Result<Option<crate::diff::mft::MftDiff>> {
    use crate::parse::mcfdbs::parse_mcfdbs_by_guid;
    let file =
        |dir: &Path| Some(dir.join(OutFile::Mcfdbs.name())).filter(|p| dir.is_dir() && p.is_file());
    let (o, n) = match (file(old), file(new)) {
        (Some(o), Some(n)) => (o, n),
        (None, None) => return Ok(None),
        (o, _) => {
            if !g.quiet {
                let (has, lacks) = if o.is_some() { (old, new) } else { (new, old) };
                eprintln!(
                    "note: MFTs not compared: {} has opensm.mcfdbs, {} has not",
                    has.display(),
                    lacks.display()
                );
            }
            return Ok(None);
        }
    };
    let read = |p: &Path| -> crate::Result<_> {
        parse_mcfdbs_by_guid(&p.display().to_string(), &crate::io::read_text(p)?)
    };
    let mut old_mfts = read(&o)?;
    for s in removed {
        old_mfts.remove(&s.guid);
    }
    Ok(Some(crate::diff::mft::diff_mfts(&old_mfts, &read(&n)?)))
}
