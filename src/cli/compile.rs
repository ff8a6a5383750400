//! `routec compile`: parse → faults → LIDs → route → verify → emit.

use std::path::PathBuf;

use clap::Args;

use super::Outcome;
use super::common::{Global, LoadedTopo, TopoArgs};
use super::phases::Phases;
use crate::error::{Error, Result};
use crate::mcast::McastConfig;
use crate::model::lids::{self, LidState};
use crate::model::{Fabric, LidMap};
use crate::route::{self, RootSpec, RouteOptions};
use crate::verify::{Verdict, VerifyOptions, verify_tables};

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
    #[arg(long, value_delimiter = ',', default_value = "image,report")]
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
    let emit = parse_emit(&args.emit)?;
    let mut phases = Phases::new(g);
    phases.begin("parse");
    let LoadedTopo {
        mut fabric, inputs, ..
    } = args.topo.load(g)?;
    if fabric.num_switches() == 0 {
        return Err(Error::Input(format!(
            "{}: the topology has no switch, so there is nothing to route",
            args.topo.topology.display()
        )));
    }
    phases.begin("lids");
    prepare_lids(&mut fabric, args.assign_lids, g)?;
    let lids = LidMap::new(&fabric)?;
    let engine = route::engine_by_name(&args.engine).ok_or_else(|| {
        Error::Usage(format!(
            "engine `{}` is unknown (known: {})",
            args.engine,
            route::ENGINE_NAMES.join(", ")
        ))
    })?;
    let opts = RouteOptions {
        roots: root_spec(args.roots.as_deref())?,
        node_order: match &args.node_order {
            Some(p) => Some(crate::parse::guids::load_guid_file(p)?),
            None => None,
        },
    };
    phases.begin("route");
    let routing = engine.route(&fabric, &lids, &opts)?;
    if !g.quiet {
        for n in &routing.notes {
            eprintln!("note[{}]: {}", n.code, n.message);
        }
        report_roots(&fabric, &routing, g.verbose > 0);
    }
    let mut files = input_files(&args, &inputs, &opts);
    phases.begin("verify");
    let verdict = verify_routing(&fabric, &lids, &routing, g);
    let mcast = match &args.mcast {
        Some(path) => {
            phases.begin("mcast");
            files.push(("mcast", path.clone()));
            Some(route_multicast(&args, &fabric, path)?)
        }
        None => None,
    };
    let valid = verdict.is_clean();
    if !valid && !args.allow_invalid {
        if !g.quiet {
            eprintln!(
                "error: verification failed; nothing written (--allow-invalid writes anyway)"
            );
        }
        return Ok(Outcome::Findings);
    }
    let ctx = EmitCtx {
        fabric: &fabric,
        lids: &lids,
        routing: &routing,
        inputs: &files,
        emit: &emit,
        verdict,
        mcast,
    };
    let outcome = write_outputs(&args, g, &ctx, phases)?;
    Ok(if valid { outcome } else { Outcome::Findings })
}

/// Every input file read, with its role, for the report and the depfile.
fn input_files(
    args: &CompileArgs,
    topo_inputs: &[PathBuf],
    opts: &RouteOptions,
) -> Vec<(&'static str, PathBuf)> {
    let mut files = vec![("topology", topo_inputs[0].clone())];
    files.extend(topo_inputs.iter().skip(1).map(|p| ("faults", p.clone())));
    if let (RootSpec::Guids(_), Some(r)) = (&opts.roots, &args.roots) {
        files.push(("roots", PathBuf::from(r)));
    }
    if let Some(p) = &args.node_order {
        files.push(("node-order", p.clone()));
    }
    files
}

/// Checks 1–3 on the engine's tables (reachability, the up/down promise,
/// deadlock freedom), from the tables alone. Findings go to stderr.
fn verify_routing(fabric: &Fabric, lids: &LidMap, routing: &route::Routing, g: &Global) -> Verdict {
    let opts = VerifyOptions {
        up_down_ranks: routing.promise.up_down_ranks.clone(),
        ..VerifyOptions::default()
    };
    let verdict = verify_tables(fabric, lids, &routing.lfts, &opts);
    if g.quiet || verdict.counts.is_empty() {
        return verdict;
    }
    // Errors are shown whole; warnings alone (switch LIDs an up/down engine
    // leaves unrouted by design) only as counts unless -v asks for them.
    if !verdict.is_clean() || g.verbose > 0 {
        eprint!("{}", verdict.render());
    } else {
        let counts: Vec<String> = verdict
            .counts
            .iter()
            .map(|(c, n)| format!("{c}: {n}"))
            .collect();
        eprintln!(
            "verification passed with warnings ({}); -v or `routec check` lists them",
            counts.join(", ")
        );
    }
    verdict
}

/// Multicast trees and MFT colours for `--mcast GROUPS` (MR4LMS).
fn route_multicast(
    args: &CompileArgs,
    fabric: &Fabric,
    path: &std::path::Path,
) -> Result<McastRun> {
    let groups = crate::parse::mcast_groups::load_groups(path, fabric)?;
    let mut cfg = McastConfig {
        rebuild_merged: args.rebuild_merged,
        ..McastConfig::default()
    };
    if let Some(n) = args.mft_size {
        if n == 0 {
            return Err(Error::Usage("--mft-size must be at least 1".into()));
        }
        cfg.mft_size = n;
    }
    let result = crate::mcast::assign(fabric, &groups, cfg)?;
    Ok(McastRun { groups, result })
}

/// The multicast part of a compile run.
struct McastRun {
    groups: Vec<crate::mcast::groups::McastGroup>,
    result: crate::mcast::policy::McastResult,
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
        if more > 0 {
            format!(" (+{more} more, -v lists all)")
        } else {
            String::new()
        }
    );
}

/// The names `--emit` accepts.
pub const EMIT_NAMES: &[&str] = &["opensm", "image", "report", "fdbs", "none"];

/// Validates `--emit` (before any work, so a typo costs nothing).
fn parse_emit(list: &[String]) -> Result<Vec<String>> {
    let mut out: Vec<String> = Vec::new();
    for what in list {
        if !EMIT_NAMES.contains(&what.as_str()) {
            return Err(Error::Usage(format!(
                "unknown output `{what}` in --emit (expected one of {})",
                EMIT_NAMES.join(", ")
            )));
        }
        if what != "none" && !out.contains(what) {
            out.push(what.clone());
        }
    }
    Ok(out)
}

/// What the emitters need from the run.
struct EmitCtx<'a> {
    fabric: &'a Fabric,
    lids: &'a LidMap,
    routing: &'a route::Routing,
    inputs: &'a [(&'a str, PathBuf)],
    emit: &'a [String],
    verdict: Verdict,
    mcast: Option<McastRun>,
}

impl EmitCtx<'_> {
    fn wants(&self, what: &str) -> bool {
        self.emit.iter().any(|e| e == what)
    }
}

/// The engine and options line of the route image header.
fn image_meta(args: &CompileArgs) -> String {
    format!(
        "routec {}; engine={}; roots={}; node_order={}; assign_lids={}; faults={}",
        env!("CARGO_PKG_VERSION"),
        args.engine,
        match args.roots.as_deref() {
            None | Some("auto") => "auto",
            Some("top") => "top",
            Some(_) => "file",
        },
        args.node_order.is_some(),
        args.assign_lids,
        args.topo.faults.is_some(),
    )
}

/// Renders every output named by `--emit`, then (unless `--check`) commits
/// them together: nothing is replaced before everything has rendered.
fn write_outputs(
    args: &CompileArgs,
    g: &Global,
    c: &EmitCtx,
    mut phases: Phases,
) -> Result<Outcome> {
    use crate::emit::{fdbs, image, outputs, report};
    phases.begin("emit");
    if !args.check {
        std::fs::create_dir_all(&args.outdir).map_err(|e| Error::io(&args.outdir, e))?;
    }
    let mut set = outputs::OutputSet::new(&args.outdir, args.check);
    let lfts = &c.routing.lfts;
    // Hashing the topology is needed only by the image and the report.
    let fingerprint = std::cell::LazyCell::new(|| image::fabric_fingerprint(c.fabric));
    if c.wants("image") {
        let meta = image_meta(args);
        let sw = image::switches_of(c.fabric, lfts);
        let lg = image::lid_guids_of(c.fabric, c.lids);
        if args.compress {
            set.stage("routes.lft.zst", |w| {
                image::write_image_zstd(w, &meta, &fingerprint, &sw, &lg)
            })?;
            set.remove_stale("routes.lft");
        } else {
            set.stage("routes.lft", |w| {
                image::write_image(w, &meta, &fingerprint, &sw, &lg)
            })?;
            set.remove_stale("routes.lft.zst");
        }
    }
    if c.wants("opensm") {
        set.stage("opensm-lfts.dump", |w| {
            crate::emit::opensm::write_lfts_dump(c.fabric, c.lids, lfts, w)
        })?;
    }
    if c.wants("fdbs") {
        set.stage("opensm.fdbs", |w| {
            fdbs::write_fdbs(c.fabric, c.lids, lfts, w)
        })?;
        set.stage("opensm-subnet.lst", |w| fdbs::write_subnet_lst(c.fabric, w))?;
    }
    let mcast_report = match &c.mcast {
        Some(m) => Some(crate::mcast::outputs::stage_outputs(
            c.fabric, &m.groups, &m.result, &mut set,
        )?),
        None => None,
    };
    // MR4LMS trees are verified like unicast tables: a bad MFT is a finding.
    let mcast_findings = mcast_report.as_ref().map_or(0, |r| r.check.findings.len());
    if !g.quiet {
        for f in mcast_report.iter().flat_map(|r| &r.check.findings) {
            eprintln!("finding: {f}");
        }
    }
    if c.wants("report") {
        let rep = report::Report {
            schema_version: report::REPORT_SCHEMA_VERSION,
            tool: report::Tool::default(),
            engine: c.routing.engine.to_string(),
            options: report::CompileOptions {
                roots: args.roots.clone().unwrap_or_else(|| "auto".into()),
                node_order: args.node_order.is_some(),
                assign_lids: args.assign_lids,
                lenient: args.topo.lenient,
                faults: args.topo.faults.is_some(),
                emit: c.emit.to_vec(),
                compress: args.compress,
            },
            inputs: report::inputs(c.inputs)?,
            fabric_fingerprint: crate::io::hex(&*fingerprint),
            counts: report::Counts::of(c.fabric, c.lids, lfts),
            verification: Some(report::Verification::of(c.verdict.clone())),
            multicast: mcast_report.map(|r| r.summary),
            notes: c.routing.notes.clone(),
            outputs: set.records(),
            run_log: "run.json",
        };
        let bytes = report::to_json(&rep).map_err(|e| Error::io(&args.outdir, e))?;
        set.stage("report.json", |w| w.write_all(&bytes))?;
    }
    let mut targets = set.paths();
    targets.extend(args.stamp.iter().cloned());
    if args.check {
        let changed = set.changed_names();
        phases.finish();
        if mcast_findings > 0 {
            return Ok(Outcome::Findings);
        }
        if changed.is_empty() {
            return Ok(Outcome::Clean);
        }
        if !g.quiet {
            for n in &changed {
                eprintln!("would change: {n}");
            }
        }
        return Ok(Outcome::Changed);
    }
    let statuses = set.commit()?;
    if let Some(dep) = &args.depfile {
        let inputs: Vec<PathBuf> = c.inputs.iter().map(|(_, p)| p.clone()).collect();
        crate::io::write_if_changed(dep, outputs::depfile(&targets, &inputs).as_bytes())?;
    }
    let timings = phases.finish();
    if c.wants("report") {
        let log = report::RunLog {
            schema_version: report::RUN_SCHEMA_VERSION,
            timings,
            outputs: statuses,
        };
        let bytes = report::to_json(&log).map_err(|e| Error::io(&args.outdir, e))?;
        crate::io::write_atomic(&args.outdir.join("run.json"), |w| w.write_all(&bytes))?;
    }
    if let Some(stamp) = &args.stamp {
        outputs::touch(stamp)?;
    }
    Ok(if mcast_findings > 0 {
        Outcome::Findings
    } else {
        Outcome::Clean
    })
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
