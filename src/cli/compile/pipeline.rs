//! The stages of `routec compile`, in the order `run` calls them. A stage
//! opens its own timing phases (`-v` prints them) where its work starts,
//! so each name stays next to the work it times.

use std::path::PathBuf;

use super::job::Job;
use super::overlap::{self, Early};
use super::stages::{layer, report_roots, usable_vls};
use super::{CompileArgs, incremental, prepare_lids, relid_for_lmc};
use crate::cli::common::{Global, LoadedTopo};
use crate::cli::mcast::{self, McastRun};
use crate::cli::phases::Phases;
use crate::error::{Error, Result};
use crate::model::incremental::IncrementalSummary;
use crate::model::lids;
use crate::model::{Fabric, LidMap, Routing};
use crate::route::RouteOptions;

/// A routed fabric: layering, verification and the writer read and amend
/// it as one.
pub(super) struct Routed {
    pub fabric: Fabric,
    pub lids: LidMap,
    pub routing: Routing,
    /// The VLs the routing may use (`usable_vls`).
    pub vls: u8,
    /// What `--previous` kept and changed.
    pub incremental: Option<IncrementalSummary>,
}

/// The topology with its faults, and every file read; a fabric without a
/// switch is refused here, where the topology file can be named.
pub(super) fn parse(
    args: &CompileArgs,
    phases: &mut Phases,
    g: &Global,
) -> Result<(Fabric, Vec<PathBuf>)> {
    phases.begin("parse");
    let LoadedTopo { fabric, inputs, .. } = args.topo.load(g)?;
    if fabric.num_switches() == 0 {
        return Err(Error::Input(format!(
            "{}: the topology has no switch, so there is nothing to route",
            args.topo.topology.display()
        )));
    }
    Ok((fabric, inputs))
}

/// The engines route to the LIDs the ports hold, so those are settled
/// first: missing ones assigned, all of them renumbered for `--lmc`.
pub(super) fn port_lids(
    args: &CompileArgs,
    fabric: &mut Fabric,
    phases: &mut Phases,
    g: &Global,
) -> Result<LidMap> {
    phases.begin("lids");
    prepare_lids(fabric, args.assign_lids, g)?;
    if let Some(lmc) = args.lmc {
        relid_for_lmc(fabric, lmc, g)?;
    }
    LidMap::new(fabric)
}

/// The engine's routing, merged with `--previous`'s tables; `None` when
/// `--max-changed-blocks` cannot be met (nothing is written, exit 1).
pub(super) fn route(
    args: &CompileArgs,
    job: &Job,
    (mut fabric, mut lids): (Fabric, LidMap),
    phases: &mut Phases,
    g: &Global,
) -> Result<Option<Routed>> {
    phases.begin("route");
    let vls = usable_vls(&fabric, job.vls);
    let route_opts = RouteOptions {
        vls,
        ..job.route.clone()
    };
    let mut routing = job
        .engine
        .route(&fabric, &lids, &route_opts)
        .map_err(|e| super::name_roots_file(e, &job.roots))?;
    if args.incremental.previous.is_some() {
        phases.begin("incremental");
    }
    let incremental = match incremental::apply(args, job, &fabric, &lids, &mut routing, g)? {
        incremental::Step::Full => None,
        incremental::Step::Done(s) => Some(s),
        incremental::Step::TooBig => return Ok(None),
    };
    if let Some(own) = &routing.lids {
        // The engine gave ports LIDs of its own (e.g. an escape LID): every
        // later stage and output uses them.
        lids::apply_port_lids(&mut fabric, own);
        lids = LidMap::new(&fabric)?;
    }
    Ok(Some(Routed {
        fabric,
        lids,
        routing,
        vls,
        incremental,
    }))
}

/// Layering where the engine left a routing on more than one VL without
/// a plan, then its notes and roots, which layering adds to, on stderr.
pub(super) fn layer_and_tell(r: &mut Routed, phases: &mut Phases, g: &Global) {
    if r.vls > 1 && r.routing.vl_plan.is_none() && !r.routing.layered {
        phases.begin("layers");
        layer(&r.fabric, &r.lids, &mut r.routing, r.vls, g);
    }
    if !g.quiet {
        for n in &r.routing.notes {
            eprintln!("note[{}]: {}", n.code, n.message);
        }
        report_roots(&r.fabric, &r.routing, g.verbose > 0);
    }
}

/// `--mcast`: the groups' trees are built before verification, which
/// checks them with the unicast tables.
pub(super) fn assign_mcast(
    args: &CompileArgs,
    fabric: &Fabric,
    phases: &mut Phases,
) -> Result<Option<McastRun>> {
    let Some(path) = &args.mcast else {
        return Ok(None);
    };
    phases.begin("mcast");
    Ok(Some(mcast::assign(fabric, path, args.mcast_opts)?))
}

/// The `verify` phase opens here; `overlap` ends it with the verdict while
/// the outputs are still being staged.
pub(super) fn verify(
    args: &CompileArgs,
    job: &Job,
    r: &mut Routed,
    mcast: Option<McastRun>,
    phases: &mut Phases,
    g: &Global,
) -> overlap::Checked {
    phases.begin("verify");
    overlap::verify_and_stage(args, job, r, mcast, phases, g)
}

/// A failed verification writes nothing (`--allow-invalid` writes
/// anyway): what was staged meanwhile is dropped.
pub(super) fn abandon(early: Result<Early>, g: &Global) {
    if let Ok(early) = early {
        early.abandon();
    }
    if !g.quiet {
        eprintln!("error: verification failed; nothing written (--allow-invalid writes anyway)");
    }
}
