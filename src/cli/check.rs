//! `routec check`: verify existing tables, or compare cabling with a plan.

mod mcast;

use std::path::{Path, PathBuf};

use clap::Args;
use serde::Serialize;

use super::Outcome;
use super::common::{Global, load_topology_warn};
use crate::error::{Error, Result};
use crate::model::rank::{bfs_ranks, switches_by_guid, top_switches};
use crate::model::table_set::Aligned;
use crate::model::{Fabric, LidMap, TableSet};
use crate::parse::LoadOptions;
use crate::verify::{self, VerifyOptions};
use mcast::{McastStats, check_multicast, mcast_inputs};

/// `check --json`: the verdict (unicast and multicast findings together),
/// plus what the multicast check covered when it ran.
#[derive(Serialize)]
struct CheckJson<'a> {
    #[serde(flatten)]
    verdict: &'a verify::Verdict,
    #[serde(skip_serializing_if = "Option::is_none")]
    multicast: Option<&'a McastStats>,
}

/// Arguments of `routec check`.
#[derive(Args, Debug)]
pub struct CheckArgs {
    /// Topology the tables belong to (with --expect: the actual topology).
    #[arg(value_name = "TOPO")]
    pub topology: PathBuf,
    /// Tables to check: a route image, an opensm-lfts.dump, ibroute/dump_fts
    /// output, or a compile output directory.
    #[arg(long, value_name = "FILE|OUTDIR", conflicts_with = "expect")]
    pub lfts: Option<PathBuf>,
    /// Up/down roots to check against: a GUID file or `top`.
    #[arg(long, value_name = "FILE|top")]
    pub roots: Option<String>,
    /// Expected topology: report cabling differences against TOPO instead.
    #[arg(long, value_name = "EXPECTED_TOPO")]
    pub expect: Option<PathBuf>,
    /// Also check routes that start at switches, and switch-LID routes, for
    /// credit loops (ibdmchk -a).
    #[arg(long)]
    pub all_paths: bool,
    /// Longest acceptable route, in switch-to-switch links.
    #[arg(long, default_value_t = 64)]
    pub hop_limit: u32,
    /// SL2VL tables the tables run with: OpenSM's `opensm-sl2vl.dump` or
    /// ibdmchk's `-d` form. With it (or --psl) the check is VL-aware.
    #[arg(long, value_name = "FILE", conflicts_with = "expect")]
    pub sl2vl: Option<PathBuf>,
    /// Path SLs: ibdmchk's `-c` form, or path records as `saquery -p`
    /// prints them (what a running SM hands out). Without it every path is
    /// on SL 0.
    #[arg(long, value_name = "FILE", conflicts_with = "expect")]
    pub psl: Option<PathBuf>,
    /// Operational data VLs of every switch port: with a VL plan (a route
    /// image that carries one), a hop on a higher VL is a finding (V022).
    #[arg(long, value_name = "N", default_value_t = 8, value_parser = clap::value_parser!(u8).range(1..=15))]
    pub vls: u8,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
    /// Multicast groups the MFTs must serve (text, YAML or opensm-sa.dump).
    /// Default, for an OUTDIR holding opensm.mcfdbs: the groups file its
    /// report.json names, if unchanged.
    #[arg(long = "mcast", value_name = "GROUPS")]
    pub mcast: Option<PathBuf>,
    /// MFTs to check (`opensm.mcfdbs`, OpenSM's or routec's). Default:
    /// OUTDIR/opensm.mcfdbs when --lfts is a directory holding one.
    #[arg(long, value_name = "FILE", conflicts_with = "expect")]
    pub mcfdbs: Option<PathBuf>,
    /// Fault list applied to TOPO before the check (`formats/faults.md`):
    /// the tables are checked against the fabric as it is with those
    /// cables, ports, switches and nodes down.
    #[arg(long, value_name = "FILE")]
    pub faults: Option<PathBuf>,
    /// CAs that are not compute nodes (node or port GUIDs), as in compile.
    #[arg(long, value_name = "FILE")]
    pub service_nodes: Option<PathBuf>,
    /// Read topologies as this format instead of detecting it.
    #[arg(long, value_enum)]
    pub format: Option<crate::parse::TopoFormat>,
    /// Skip unrecognised topology lines with a warning.
    #[arg(long)]
    pub lenient: bool,
    /// LMC the tables were compiled with (`compile --lmc N`): LIDs are
    /// assigned anew exactly as compile did when the topology's differ.
    #[arg(long, value_name = "N", conflicts_with = "expect", value_parser = clap::value_parser!(u8).range(0..=7))]
    pub lmc: Option<u8>,
}

/// Runs `routec check`.
pub fn run(args: CheckArgs, g: &Global) -> Result<Outcome> {
    let opts = LoadOptions {
        format: args.format,
        lenient: args.lenient,
    };
    let load = |p: &Path| -> Result<Fabric> { Ok(load_topology_warn(p, &opts, g)?.fabric) };
    let mut actual = load(&args.topology)?;
    if let Some(path) = &args.faults {
        actual = crate::parse::faults::load_and_apply(&actual, path)?.0;
    }
    if let Some(path) = &args.service_nodes {
        super::common::mark_service_nodes(&mut actual, path)?;
    }
    if let Some(lmc) = args.lmc {
        super::compile::relid_for_lmc(&mut actual, lmc, g)?;
    }
    if let Some(expected) = &args.expect {
        let report = crate::diff::cabling::compare(&load(expected)?, &actual);
        print(args.json, &report, || report.render())?;
        // Cabling that differs from the plan is a difference (3), as
        // `formats/exit-codes.md` says, not a verification finding.
        return Ok(if report.changes.is_empty() {
            Outcome::Clean
        } else {
            Outcome::Changed
        });
    }
    let mcast = mcast_inputs(&args)?;
    if args.lfts.is_none() && mcast.is_none() {
        return Err(Error::Usage(
            "check needs --lfts FILE|OUTDIR, --mcfdbs FILE (or --expect EXPECTED_TOPO)".into(),
        ));
    }
    let mut verdict = match &args.lfts {
        Some(lfts_path) => check_unicast(&args, &actual, lfts_path, g)?,
        None => verify::Verdict::default(),
    };
    let multicast = match &mcast {
        Some(m) => Some(check_multicast(&actual, m, &mut verdict, g)?),
        None => None,
    };
    if args.json {
        let report = CheckJson {
            verdict: &verdict,
            multicast: multicast.as_ref(),
        };
        print(true, &report, String::new)?;
    } else {
        let mut text = match &args.lfts {
            Some(_) => verdict.render(),
            None => verdict.findings.iter().map(|f| f.to_string()).collect(),
        };
        if let Some(m) = &multicast {
            text += &m.render();
        }
        print!("{text}");
    }
    Ok(if verdict.is_clean() {
        Outcome::Clean
    } else {
        Outcome::Findings
    })
}

/// Checks 1–3 of the unicast tables at `lfts_path`.
fn check_unicast(
    args: &CheckArgs,
    actual: &Fabric,
    lfts_path: &Path,
    g: &Global,
) -> Result<verify::Verdict> {
    let lids = LidMap::new(actual)?;
    if lids.iter().next().is_none() {
        return Err(Error::Input(format!(
            "{}: the topology carries no LIDs; check needs the LIDs the tables were made for",
            args.topology.display()
        )));
    }
    let set = crate::parse::lfts::read_tables(lfts_path)?;
    let aligned = tables_for(actual, &lids, &set, lfts_path, g)?;
    let ranks = match args.roots.as_deref() {
        None => None,
        Some(r) => Some(ranks_from_roots(actual, r, g)?),
    };
    let vl_plan = match (&args.sl2vl, &args.psl) {
        (None, None) => aligned.vl_plan,
        (sl2vl, psl) => Some(plan_from_files(
            actual,
            &lids,
            &aligned.lfts,
            sl2vl,
            psl,
            g,
        )?),
    };
    let vopts = VerifyOptions {
        up_down_ranks: ranks,
        all_paths: args.all_paths,
        hop_limit: args.hop_limit,
        vl_plan,
        operational_vls: args.vls,
        ..Default::default()
    };
    Ok(verify::verify_tables(actual, &lids, &aligned.lfts, &vopts))
}

/// The VL plan of `--sl2vl` and `--psl`, laid out on the topology; records
/// that name nothing of it are reported (counted, the first few listed).
fn plan_from_files(
    fabric: &Fabric,
    lids: &LidMap,
    lfts: &crate::model::Lfts,
    sl2vl: &Option<PathBuf>,
    psl: &Option<PathBuf>,
    g: &Global,
) -> Result<crate::model::VlPlan> {
    use crate::model::vl_records::{plan_from_records, plan_from_stream};
    use crate::parse::psl_stream::stream_psl;
    use crate::parse::vl_files::{load_sl2vl, read_psl_file};
    let rows = sl2vl
        .as_deref()
        .map(load_sl2vl)
        .transpose()?
        .unwrap_or_default();
    let r = match psl.as_deref() {
        None => plan_from_records(fabric, lids, lfts, &rows, &[]),
        // a plain ibdmchk file in bounded memory (`None`: it is not one,
        // read it whole from the start)
        Some(p) => match plan_from_stream(fabric, lids, lfts, &rows, |sink| {
            match stream_psl(p, sink) {
                Ok(plain) => plain.then_some(()).ok_or(None),
                Err(e) => Err(Some(e)),
            }
        }) {
            Ok(r) => r,
            Err(Some(e)) => return Err(e),
            Err(None) => {
                plan_from_stream(fabric, lids, lfts, &rows, |sink| read_psl_file(p, sink))?
            }
        },
    };
    if !g.quiet && !r.ignored.is_empty() {
        eprintln!("warning: {} VL record(s) ignored:", r.ignored.len());
        r.ignored.iter().take(5).for_each(|w| eprintln!("  {w}"));
    }
    Ok(r.plan)
}

fn print<T: serde::Serialize>(json: bool, v: &T, text: impl FnOnce() -> String) -> Result<()> {
    if json {
        let s = serde_json::to_string_pretty(v).map_err(|e| Error::Input(e.to_string()))?;
        println!("{s}");
    } else {
        print!("{}", text());
    }
    Ok(())
}

/// The tables of `set` in the fabric's switch order, matched by GUID.
/// Switches the file lacks get empty tables (the check reports what breaks,
/// with a warning here); switches the topology lacks are an input error.
pub(super) fn tables_for(
    fabric: &Fabric,
    lids: &LidMap,
    set: &TableSet,
    path: &Path,
    g: &Global,
) -> Result<Aligned> {
    let aligned = set.align(fabric, lids).map_err(|guid| {
        Error::Input(format!(
            "{}: switch {guid} is not a switch of the topology",
            path.display()
        ))
    })?;
    if !aligned.missing.is_empty() && !g.quiet {
        eprintln!(
            "warning: {}: no table for {} switch(es) of the topology",
            path.display(),
            aligned.missing.len()
        );
    }
    Ok(aligned)
}

/// Ranks from `top` (the switches farthest from the leaves) or a root GUID
/// file, read and resolved exactly as `compile --roots` does (OpenSM's
/// number rules; GUIDs that name no switch are ignored with a note).
fn ranks_from_roots(fabric: &Fabric, roots: &str, g: &Global) -> Result<Vec<u32>> {
    let ids = if roots == "top" {
        top_switches(fabric)
    } else {
        let guids = crate::parse::guids::load_guid_file(Path::new(roots))?;
        let (found, ignored) = switches_by_guid(fabric, &guids);
        if let Some(first) = ignored.first().filter(|_| !g.quiet) {
            eprintln!(
                "note[R003]: {} root GUID(s) in {roots} name no switch of the topology and are \
                 ignored, as OpenSM does (first: {first})",
                ignored.len()
            );
        }
        found
    };
    if ids.is_empty() {
        return Err(Error::Input(format!("no up/down roots in {roots}")));
    }
    Ok(bfs_ranks(fabric, &ids))
}
