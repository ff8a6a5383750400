//! `compile --previous DIR` (2005 OpenSM memo §6–7): loads the previous
//! run's state and tables, classifies the cabling change (Table 1,
//! `diff::cabling`), and hands the tables to `route::incremental`, which
//! keeps the valid entries and re-routes the rest. A state that cannot be
//! trusted is ignored with note R020 and the fabric is routed from scratch.

use std::path::{Path, PathBuf};

use clap::{Args, ValueEnum};

use super::CompileArgs;
use super::job::Job;
use super::previous::Loaded;
use crate::cli::common::Global;
use crate::error::Result;
use crate::model::incremental::IncrementalSummary;
use crate::model::state::{State, StateOptions};
use crate::model::{Fabric, Lfts, LidMap, Note, Routing};
use crate::route::incremental::{self, Previous, Relaid, Repaired, Restore};

/// Options of incremental compilation.
#[derive(Args, Debug, Default)]
pub struct IncrementalArgs {
    /// Re-route incrementally from the output directory of a previous
    /// compile (its `routec-state.json.zst` and route image): keep every
    /// entry still valid, re-route the others (`formats/state.md`).
    #[arg(long, value_name = "DIR")]
    pub previous: Option<PathBuf>,
    /// Route from scratch even with --previous.
    #[arg(long)]
    pub full: bool,
    /// Where a cable came back or is new: take the engine's routes through
    /// it (`engine`), or keep the previous entries (`keep`).
    #[arg(long, value_enum, default_value = "engine", requires = "previous")]
    pub restore: RestoreArg,
    /// Fail (exit 1, nothing written) unless the change to the previous
    /// tables fits in N LFT blocks; says how many the smallest change found
    /// needs.
    #[arg(long, value_name = "N", requires = "previous")]
    pub max_changed_blocks: Option<u64>,
}

/// `--restore`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum RestoreArg {
    #[default]
    Engine,
    Keep,
}

/// What `--previous` came to.
pub(super) enum Step {
    /// Routed from scratch (no --previous, --full, or the state ignored).
    Full,
    /// The routing's tables are the incremental result.
    Done(IncrementalSummary),
    /// `--max-changed-blocks` cannot be met: exit 1, nothing written.
    TooBig,
}

/// The options a state must match to be reused.
pub(super) fn state_options(args: &CompileArgs, job: &Job) -> StateOptions {
    StateOptions {
        roots: job.roots.meta_name().into(),
        node_order: job.route.node_order.as_ref().map(|o| {
            let bytes: Vec<u8> = o.iter().flat_map(|g| g.0.to_le_bytes()).collect();
            crate::io::hex(&crate::io::sha256(&bytes))
        }),
        vls: job.vls,
        lmc: args.lmc,
        dmodc_variant: (args.engine == "dmodc" && args.dmodc_variant == super::DmodcVariant::Paper)
            .then(|| "paper".into()),
    }
}

/// The state this run leaves for the next one, but for its tables digest,
/// which the writer hashes while it packs the rest (`emit::state::pack_state`).
pub(super) fn state_of(
    args: &CompileArgs,
    job: &Job,
    fabric: &Fabric,
    routing: &Routing,
    verified_clean: bool,
) -> State {
    let mut st = State::of_fabric(fabric);
    st.verified_clean = verified_clean;
    st.up_down_ranks = routing.up_down_ranks().map(<[u32]>::to_vec);
    st.engine = args.engine.clone();
    st.options = state_options(args, job);
    st.roots = routing
        .roots
        .iter()
        .map(|&s| fabric.node(fabric.switch_node(s)).guid)
        .collect();
    st
}

/// The end of note R021 for a routing with escape VLs laid again.
fn relaid_text(r: &incremental::Relaid) -> String {
    let load: Vec<String> = r.load.iter().map(u64::to_string).collect();
    format!(
        "; escape paths laid on VLs again: {} VL(s) (source end ports per VL: {})",
        r.vls,
        load.join(", ")
    )
}

/// Applies `--previous` to the engine's fresh `routing` of `fabric`.
pub(super) fn apply(
    args: &CompileArgs,
    job: &Job,
    fabric: &Fabric,
    lids: &LidMap,
    routing: &mut Routing,
    g: &Global,
) -> Result<Step> {
    let Some(dir) = previous_dir(args, routing) else {
        return Ok(Step::Full);
    };
    let loaded = match super::previous::load(dir, args, job, (fabric, lids), routing) {
        Ok(l) => l,
        Err(why) => {
            routing.notes.push(Note {
                code: "R020",
                message: format!("--previous: state ignored, routed from scratch: {why}"),
            });
            return Ok(Step::Full);
        }
    };
    let Some(mut done) = merge(&args.incremental, (fabric, lids), &loaded, routing, g) else {
        return Ok(Step::TooBig);
    };
    let lanes = match relay_escapes(job, (fabric, lids), &done.lfts, &loaded, routing) {
        Ok(r) => r,
        Err(why) => {
            routing.notes.push(Note {
                code: "R023",
                message: format!("--previous: {why}; routed from scratch"),
            });
            return Ok(Step::Full);
        }
    };
    done.summary.cabling = loaded.cabling;
    routing
        .notes
        .push(kept_note(dir, &done.summary, lanes.as_ref()));
    routing.lfts = done.lfts;
    if let Some(r) = lanes {
        routing.vl_plan = r.plan;
    }
    Ok(Step::Done(done.summary))
}

/// The previous run's directory, unless the fabric is routed from scratch
/// all the same: --full, or a routing whose own LIDs or VL plan the merge
/// cannot keep (note R022).
fn previous_dir<'a>(args: &'a CompileArgs, routing: &mut Routing) -> Option<&'a PathBuf> {
    let inc = &args.incremental;
    let dir = inc.previous.as_ref()?;
    if inc.full {
        return None;
    }
    if routing.lids.is_some() || (routing.vl_plan.is_some() && routing.escapes.is_none()) {
        routing.notes.push(Note {
            code: "R022",
            message: format!(
                "--previous: engine {}'s routing carries its own LIDs or VL plan; \
                 incremental re-routing keeps LFT-only routings and Dmodc's escape VLs, so \
                 this one was routed from scratch",
                args.engine
            ),
        });
        return None;
    }
    Some(dir)
}

/// The previous tables merged with the engine's. --max-changed-blocks asks
/// for the smallest change, so a merge too big with the engine's routes is
/// tried again keeping the previous entries where a cable came back or is
/// new (`--restore keep`); `None` (error printed) when even that is too big.
fn merge(
    inc: &IncrementalArgs,
    (fabric, lids): (&Fabric, &LidMap),
    loaded: &Loaded,
    routing: &Routing,
    g: &Global,
) -> Option<Repaired> {
    let prev = Previous {
        lfts: &loaded.old,
        new_switch: &loaded.new_switch,
        new_cable: &loaded.new_cable,
        untouched_valid: loaded.untouched_valid,
    };
    let restore = match inc.restore {
        RestoreArg::Engine => Restore::Engine,
        RestoreArg::Keep => Restore::Keep,
    };
    let mut done = incremental::repair(fabric, lids, &prev, routing, restore);
    if let Some(max) = inc.max_changed_blocks
        && done.summary.changed_blocks > max
        && restore == Restore::Engine
    {
        done = incremental::repair(fabric, lids, &prev, routing, Restore::Keep);
    }
    if let Some(max) = inc.max_changed_blocks
        && done.summary.changed_blocks > max
    {
        if !g.quiet {
            eprintln!(
                "error: --max-changed-blocks {max}: the smallest valid change found needs {} \
                 LFT blocks ({} entries); nothing written",
                done.summary.changed_blocks, done.summary.changed
            );
        }
        return None;
    }
    Some(done)
}

/// Dmodc's escape VLs were laid over the engine's tables, not the merged
/// ones: their paths are laid again, each on its previous SL where that
/// still fits. `Err` says why they do not fit.
fn relay_escapes(
    job: &Job,
    (fabric, lids): (&Fabric, &LidMap),
    lfts: &Lfts,
    loaded: &Loaded,
    routing: &Routing,
) -> std::result::Result<Option<Relaid>, String> {
    match &routing.escapes {
        Some(e) => {
            incremental::relay(fabric, lids, lfts, (e, loaded.path_sl.as_ref()), job.vls).map(Some)
        }
        None => Ok(None),
    }
}

/// Note R021: what the merge kept and changed, against the floor any
/// valid result must change, so that a big change can be told from a
/// needless one.
fn kept_note(dir: &Path, s: &IncrementalSummary, lanes: Option<&Relaid>) -> Note {
    Note {
        code: "R021",
        message: format!(
            "--previous {}: kept {} entries, changed {} in {} LFT blocks (--restore {}; \
             {} entries differ from a full re-route); floor: {} entries in {} blocks \
             must change in any valid result",
            dir.display(),
            s.kept,
            s.changed,
            s.changed_blocks,
            s.restore,
            s.differs_from_engine,
            s.floor_entries,
            s.floor_blocks
        ) + &lanes.map_or(String::new(), relaid_text),
    }
}
