//! Verification and the outputs that need no verdict, side by side.
//!
//! The verifier walks every (switch, LID) entry on rayon's threads while
//! the image writer hashes and writes the same read-only tables. Neither
//! keeps both cores busy on its own: on the 27,648-host RLFT the
//! verifier's second thread gains only 1.7×, and the image's write (or its
//! compare with an existing image) and the state's JSON and zstd run on
//! one thread each. One after the other they took 186 + 85 ms there; side
//! by side the verdict comes 20–30 ms later and 12–21 ms remain after it.
//! The outputs stay staged (anonymous files, or nothing when an output is
//! unchanged) until the verdict: when it fails, they are dropped with the
//! directories this run created, and nothing is written, as before.

use std::path::PathBuf;

use super::job::{Emit, Job};
use super::pipeline::Routed;
use super::stages::verify_routing;
use super::write::{packed_state, stage_ibdmchk, stage_image, stage_opensm};
use super::{CompileArgs, McastCheck, McastRun};
use crate::cli::common::Global;
use crate::cli::mcast;
use crate::cli::phases::Phases;
use crate::emit::outputs::OutputSet;
use crate::error::{Error, Result};
use crate::model::{Fabric, LidMap, Routing, VlPlan};
use crate::verify::{Verdict, VerifyOptions};

/// The verdict on the tables (multicast's folded in), and the early
/// outputs or the error that stopped them.
pub(super) struct Checked {
    pub verdict: Verdict,
    pub mcast: Option<(McastRun, McastCheck)>,
    pub early: Result<Early>,
}

/// Verifies the routing of `r` (the `verify` stage ends with the verdict)
/// while a second thread stages the image, the dumps and the state; the
/// `emit` stage begins while that thread finishes.
pub(super) fn verify_and_stage(
    args: &CompileArgs,
    job: &Job,
    r: &mut Routed,
    mcast: Option<McastRun>,
    phases: &mut Phases,
    g: &Global,
) -> Checked {
    let (fabric, lids, vls, routing) = (&r.fabric, &r.lids, r.vls, &mut r.routing);
    let opts = VerifyOptions {
        operational_vls: vls,
        hop_limit: args.max_hops,
        ..VerifyOptions::lent_by(routing)
    };
    let has_mcast = mcast.is_some();
    let (verdict, mcast, early) = std::thread::scope(|sc| {
        let t = Tables {
            fabric,
            lids,
            routing,
            plan: opts.vl_plan.as_ref(),
            has_mcast,
        };
        let staging = sc.spawn(move || stage_early(args, job, &t));
        let mut verdict = verify_routing(fabric, lids, &routing.lfts, &opts, g);
        let mcast = mcast.map(|m| {
            let check = mcast::verify(fabric, &m);
            let cap = VerifyOptions::default().max_findings_per_code;
            verdict.absorb(check.findings.iter().cloned(), cap);
            if !g.quiet {
                check.findings.iter().for_each(|f| eprint!("{f}"));
            }
            (m, check)
        });
        phases.begin("emit");
        let early = staging
            .join()
            .unwrap_or_else(|p| std::panic::resume_unwind(p));
        (verdict, mcast, early)
    });
    opts.give_back(routing);
    Checked {
        verdict,
        mcast,
        early,
    }
}

/// The outputs that depend on the tables alone, rendered while the tables
/// are being verified (`overlap.rs`): the route image, the OpenSM and
/// ibdmchk files, and the state packed on the guess that verification
/// finds nothing.
pub(super) struct Early {
    pub set: OutputSet,
    /// The topology's digest, when the image needed it (the report reuses it).
    pub fingerprint: Option<[u8; 32]>,
    /// The state's bytes (with `verified_clean: true`), when the image is
    /// emitted.
    pub state: Option<std::io::Result<Vec<u8>>>,
    /// The image rows' SHA-256, for a state packed again.
    pub rows: Option<Vec<[u8; 32]>>,
    /// The output directories this run created, deepest first: removed
    /// again when verification fails and nothing is written.
    pub created: Vec<PathBuf>,
}

impl Early {
    /// Drops what was staged (anonymous files vanish, named ones are
    /// removed) and the directories this run created, if still empty.
    pub fn abandon(self) {
        let created = self.created;
        drop(self.set);
        for d in created {
            let _ = std::fs::remove_dir(d);
        }
    }
}

/// What the early outputs are rendered from.
pub(super) struct Tables<'a> {
    pub fabric: &'a Fabric,
    pub lids: &'a LidMap,
    pub routing: &'a Routing,
    /// The VL plan, lent to the verifier meanwhile (`routing`'s is `None`).
    pub plan: Option<&'a VlPlan>,
    pub has_mcast: bool,
}

/// Creates the output directory and stages the outputs that need no
/// verdict, the state packed on a second thread meanwhile.
pub(super) fn stage_early(args: &CompileArgs, job: &Job, t: &Tables) -> Result<Early> {
    let created = if args.check {
        Vec::new()
    } else {
        create_dirs(&args.outdir)?
    };
    let mut set = OutputSet::new(&args.outdir, args.check);
    let fingerprint = job
        .wants(Emit::Image)
        .then(|| crate::model::image::fabric_fingerprint(t.fabric));
    // What `compile --previous` reads next time, beside the image: packed
    // on a second thread while the image and dumps are written (it is a
    // fabric-sized JSON through zstd: 70 ms on the 27,648-host RLFT).
    // The state's tables digest is made of the image's row digests: the
    // image hands them over the channel as soon as it has hashed its rows.
    let mut rows = None;
    let state = std::thread::scope(|sc| -> Result<_> {
        let (rows_tx, rows_rx) = std::sync::mpsc::sync_channel(1);
        let packing = job.wants(Emit::Image).then(|| {
            sc.spawn(move || packed_state(args, job, t, true, move || rows_rx.recv().ok()))
        });
        // hashed exactly when the image is wanted
        if let Some(fingerprint) = &fingerprint {
            // the receiver is gone only when the state packing failed,
            // which reports its own error
            let mut send = |d: &[[u8; 32]]| {
                rows = Some(d.to_vec());
                drop(rows_tx.send(d.to_vec()));
            };
            stage_image(&mut set, args, job, t, fingerprint, &mut send)?;
        }
        if job.wants(Emit::Opensm) {
            stage_opensm(&mut set, t)?;
        }
        if job.wants(Emit::Fdbs) {
            stage_ibdmchk(&mut set, t)?;
        }
        Ok(packing.map(|h| h.join().expect("state packing does not panic")))
    })?;
    Ok(Early {
        set,
        fingerprint,
        state,
        rows,
        created,
    })
}

/// `create_dir_all`, returning the directories it made, deepest first.
fn create_dirs(dir: &std::path::Path) -> Result<Vec<PathBuf>> {
    let missing: Vec<PathBuf> = dir
        .ancestors()
        .take_while(|d| !d.as_os_str().is_empty() && !d.exists())
        .map(|d| d.to_path_buf())
        .collect();
    std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
    Ok(missing)
}
