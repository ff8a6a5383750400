//! The emit stage of `compile`: one function per output kind stages its
//! files in the output set; then the set is compared (`--check`) or
//! committed, and the depfile, run log and stamp follow.

use std::path::PathBuf;

use super::job::{Emit, Job};
use super::overlap::{Early, Tables};
use super::{CompileArgs, Run};
use crate::cli::common::Global;
use crate::cli::phases::Phases;
use crate::cli::{Outcome, mcast};
use crate::emit::image_vl::ImageVl;
use crate::emit::make_files;
use crate::emit::outputs::{self, OutputSet};
use crate::emit::{fdbs, image, report, vl};
use crate::error::{Error, Result};
use crate::model::OutFile;

/// Stages what needs the verdict (multicast, the state when verification
/// found something, the report) beside the early outputs, then (unless
/// `--check`) commits them together: nothing is replaced before
/// everything has rendered.
pub(super) fn write_outputs(
    args: &CompileArgs,
    job: &Job,
    run: &Run,
    early: Early,
    g: &Global,
    phases: Phases,
) -> Result<Outcome> {
    let Early {
        mut set,
        fingerprint,
        state,
        rows,
        ..
    } = early;
    if let Some((m, check)) = &run.mcast {
        mcast::stage(&mut set, &run.fabric, m, check)?;
    }
    // packed as if verification found nothing: again when it did not
    let state = match state {
        Some(_) if !run.verdict.counts.is_empty() => {
            let t = Tables {
                fabric: &run.fabric,
                lids: &run.lids,
                routing: &run.routing,
                plan: run.routing.vl_plan.as_ref(),
                has_mcast: run.mcast.is_some(),
            };
            Some(packed_state(args, job, &t, false, || rows))
        }
        s => s,
    };
    if let Some(bytes) = state {
        let bytes = bytes.map_err(|e| Error::io(&args.outdir, e))?;
        set.stage(OutFile::State.name(), |w| w.write_all(&bytes))?;
    }
    if job.wants(Emit::Report) {
        let fingerprint =
            fingerprint.unwrap_or_else(|| crate::model::image::fabric_fingerprint(&run.fabric));
        stage_report(&mut set, args, job, run, &fingerprint)?;
    }
    // the manifest is bookkeeping, not a make target
    let mut targets = set.paths();
    set.retire_unlisted()?;
    targets.extend(args.stamp.iter().cloned());
    if args.check {
        phases.finish();
        return Ok(check_outcome(&set, g));
    }
    // depfile and stamp are made ready first: either all of it lands or none
    let inputs: Vec<PathBuf> = run.inputs.iter().map(|(_, p)| p.clone()).collect();
    let dep = match &args.depfile {
        Some(p) => make_files::prepare_depfile(p, &outputs::depfile(&targets, &inputs))?,
        None => make_files::Prepared::Nothing,
    };
    let stamp = match &args.stamp {
        Some(p) => make_files::prepare_stamp(p)?,
        None => make_files::Prepared::Nothing,
    };
    let statuses = set.commit()?;
    // a signal after the commit waits for the depfile too (one rename)
    crate::io::interrupt::critical(|| dep.land())?;
    let timings = phases.finish();
    if let Some(path) = &args.timings {
        let log = report::RunLog {
            schema_version: report::RUN_SCHEMA_VERSION,
            timings,
            outputs: statuses,
        };
        let bytes = report::to_json(&log).map_err(|e| Error::io(path, e))?;
        crate::io::write_atomic(path, |w| w.write_all(&bytes))?;
    }
    stamp.land()?;
    Ok(Outcome::Clean)
}

/// The state file's bytes (`formats/state.md`), its tables digest made of
/// the rows' digests `rows` waits for (switch order: the image writer's).
/// When the image fails before hashing, the digest is left empty: the run
/// fails with the image's error and writes nothing.
pub(super) fn packed_state(
    args: &CompileArgs,
    job: &Job,
    t: &Tables,
    verified_clean: bool,
    rows: impl FnOnce() -> Option<Vec<[u8; 32]>> + Send,
) -> std::io::Result<Vec<u8>> {
    use crate::model::state::{lfts_digest_of_rows, switch_guids};
    let st = super::incremental::state_of(args, job, t.fabric, t.routing, verified_clean);
    let fabric = t.fabric;
    crate::emit::state::pack_state(st, move || {
        rows()
            .map(|d| lfts_digest_of_rows(switch_guids(fabric).zip(d)))
            .unwrap_or_default()
    })
}

/// `--check`: exit 3 and name the outputs that would change.
fn check_outcome(set: &OutputSet, g: &Global) -> Outcome {
    let changed = set.changed_names();
    if changed.is_empty() {
        return Outcome::Clean;
    }
    if !g.quiet {
        for n in &changed {
            eprintln!("would change: {n}");
        }
    }
    Outcome::Changed
}

/// OpenSM's dumps: `opensm-lfts.dump`, and `opensm-sl2vl.dump` when the
/// routing has a VL plan.
pub(super) fn stage_opensm(set: &mut OutputSet, t: &Tables) -> Result<()> {
    set.stage(OutFile::OpensmLfts.name(), |w| {
        crate::emit::opensm::write_lfts_dump(t.fabric, t.lids, &t.routing.lfts, w)
    })?;
    if let Some(plan) = t.plan {
        set.stage(OutFile::Sl2VlDump.name(), |w| {
            vl::write_sl2vl_dump(t.fabric, plan, w)
        })?;
    }
    Ok(())
}

/// What `ibdmchk -s opensm-subnet.lst -f opensm.fdbs -m opensm.mcfdbs
/// [-c ibdmchk.psl -d ibdmchk.sl2vl]` reads: ibdmchk 1.5.7 refuses to run
/// without an MFT file, so an empty `opensm.mcfdbs` goes along when no
/// multicast run writes one; the VL files only with a VL plan.
pub(super) fn stage_ibdmchk(set: &mut OutputSet, t: &Tables) -> Result<()> {
    let (f, lids, lfts) = (t.fabric, t.lids, &t.routing.lfts);
    set.stage(OutFile::Fdbs.name(), |w| fdbs::write_fdbs(f, lids, lfts, w))?;
    set.stage(OutFile::SubnetLst.name(), |w| fdbs::write_subnet_lst(f, w))?;
    if !t.has_mcast {
        set.stage(OutFile::Mcfdbs.name(), |_| Ok(()))?;
    }
    if let Some(plan) = t.plan {
        set.stage(OutFile::IbdmchkPsl.name(), |w| {
            vl::write_ibdmchk_psl(f, lids, plan, w)
        })?;
        set.stage(OutFile::IbdmchkSl2Vl.name(), |w| {
            vl::write_ibdmchk_sl2vl(f, plan, w)
        })?;
    }
    Ok(())
}

/// The route image, plain or zstd-compressed (the other form is removed).
pub(super) fn stage_image(
    set: &mut OutputSet,
    args: &CompileArgs,
    job: &Job,
    t: &Tables,
    fingerprint: &[u8; 32],
    send: &mut dyn FnMut(&[[u8; 32]]),
) -> Result<()> {
    let meta = image_meta(args, job);
    let sw = image::switches_of(t.fabric, &t.routing.lfts);
    let lg = crate::model::table_set::lid_port_guids(t.fabric, t.lids);
    let vl = t.plan.map(|p| ImageVl::of(t.fabric, p));
    let (file, stale) = if args.compress {
        (OutFile::ImageZst, OutFile::Image)
    } else {
        (OutFile::Image, OutFile::ImageZst)
    };
    set.stage(file.name(), |w| {
        let parts = image::ImageParts {
            meta: &meta,
            fingerprint,
            switches: &sw,
            lid_guids: &lg,
            vl: vl.as_ref(),
        };
        if args.compress {
            image::write_image_zstd_with(w, &parts, send)
        } else {
            image::write_image_with(w, &parts, send)
        }
    })?;
    set.remove_stale(stale.name());
    Ok(())
}

/// The engine and options line of the route image header.
fn image_meta(args: &CompileArgs, job: &Job) -> String {
    format!(
        "routec {}; engine={}; roots={}; node_order={}; assign_lids={}; faults={}",
        env!("CARGO_PKG_VERSION"),
        args.engine,
        job.roots.meta_name(),
        args.node_order.is_some(),
        args.assign_lids,
        args.topo.faults.is_some(),
    )
}

/// `report.json`: options, inputs, counts, the verdict, notes and the
/// other outputs of the set.
fn stage_report(
    set: &mut OutputSet,
    args: &CompileArgs,
    job: &Job,
    run: &Run,
    fingerprint: &[u8; 32],
) -> Result<()> {
    let rep = report::Report {
        schema_version: report::REPORT_SCHEMA_VERSION,
        tool: report::Tool::default(),
        engine: run.routing.engine.to_string(),
        options: report::CompileOptions {
            roots: job.roots.report_name(),
            node_order: args.node_order.is_some(),
            assign_lids: args.assign_lids,
            lenient: args.topo.lenient,
            faults: args.topo.faults.is_some(),
            emit: job.emit.iter().map(|e| e.name().to_string()).collect(),
            compress: args.compress,
        },
        inputs: report::inputs(&run.inputs)?,
        fabric_fingerprint: crate::io::hex(fingerprint),
        counts: report::Counts::of(&run.fabric, &run.lids, &run.routing.lfts),
        verification: Some(report::Verification::of(run.verdict.clone())),
        vl_plan: run
            .routing
            .vl_plan
            .as_ref()
            .map(|p| report::VlSummary::of(&run.fabric, &run.lids, p)),
        multicast: run.mcast.as_ref().map(|(m, _)| m.summary.clone()),
        incremental: run.incremental.clone(),
        notes: run.routing.notes.clone(),
        outputs: set.records(),
    };
    let bytes = report::to_json(&rep).map_err(|e| Error::io(&args.outdir, e))?;
    set.remove_stale(OutFile::RunLog.name());
    set.stage(OutFile::Report.name(), |w| w.write_all(&bytes))
}
