//! `routec diff OLD NEW --plan`: proves an upload safe at every step or
//! orders it into phases that are (`formats/diff-plan.md`).
//!
//! During an upload each switch holds its old or its new entry for each
//! LFT block (one SMP writes one block), so the fabric passes through
//! mixtures of the two tables that neither table's check covers. Seed
//! `opensm-unicast-routing-enhancements-2005.txt` §6 (incremental routing)
//! changes only the entries a fault touches; this module makes sure the
//! change can be uploaded without a forwarding loop or a credit loop on
//! the way: all at once when the union of every mixture is safe, else in
//! phases (`phases`), else it names the cycle that stops it.
//!
//! Model: the fabric is the topology given with `--plan` (the one the
//! upload runs on); tables are matched to its switches by GUID, entries
//! compared LID by LID; a switch a side lacks routes nothing on that side.
//! Destinations and their source switches are those of `routec check`
//! (`all_paths` as `check --all-paths`). Channel dependencies are kept
//! per lane (`lanes`): the VLs a path's old or new SL maps to. An upload
//! that blocks while sources may be on either SL is planned again with
//! every source on its new SL ("SLs first", `formats/diff-plan.md`).

mod cdg;
mod lanes;
mod net;
mod order;
mod phases;
mod render;
mod run;
mod setup;
mod types;
mod walk;

use std::collections::BTreeMap;

pub use render::render;
pub use types::{Cycle, Phase, PhaseSwitch, PlanOptions, Turn, UploadPlan, Verdict};

use crate::model::{Fabric, LFT_BLOCK, Lid, LidMap, TableSet};
use cdg::Counts;
use lanes::Lanes;
use net::{Hop, Net, Rows, Target};
use phases::{Entry, Planner, Unsafe};
use run::{Run, upload};
use setup::Setup;
use walk::{OLD, View};

/// Plans the upload of `new` over `old` on `fabric`.
pub fn plan_upload(
    fabric: &Fabric,
    lids: &LidMap,
    old: &TableSet,
    new: &TableSet,
    opts: PlanOptions,
) -> UploadPlan {
    let (s, mut plan) = Setup::new(fabric, lids, (old, new), opts);
    let mut p = s.planner();
    let free = free_entries(&s.net, &s.rows, &s.targets);
    if stops_at_start(&s, &mut p, (old, new), &free, &mut plan) {
        return plan;
    }
    let pending = p.pending();
    plan.entries = (pending.len() + free.len()) as u64;
    if plan.entries == 0 {
        return plan;
    }
    let mut run = upload(&mut p, &pending);
    if run.verdict == Verdict::Blocked
        && s.lanes.count() > 1
        && let Some(second) = upload_sls_first(&s, &mut p, &pending)
        && second.left < run.left
    {
        (run, plan.sls_first) = (second, true);
    }
    conclude(&s, &p, run, free, &mut plan);
    plan
}

/// No order of writes helps when the tables are unsafe before the first
/// one: `true` when the plan ends here (new or old tables unsafe, or the
/// start blocked), `plan` saying why.
fn stops_at_start(
    s: &Setup,
    p: &mut Planner,
    (old, new): (&TableSet, &TableSet),
    free: &[(u32, Lid)],
    plan: &mut UploadPlan,
) -> bool {
    if let Some(c) = s.side(new, false) {
        plan.verdict = Verdict::NewUnsafe;
        plan.cycle = Some(c);
        return true;
    }
    // The upload starts from the old entries, but with several lanes a
    // source may already carry its new SL: the counts of that state (the
    // old tables' own on one lane; the planner's counts are still empty).
    // Its turns include the old tables', so when it is safe so are they.
    let view = if s.lanes.count() > 1 {
        View::Modes
    } else {
        View::Old
    };
    let looped = p.count_all(view);
    if let Some(start) = p.check(looped) {
        if let Some(c) = s.side(old, true) {
            plan.verdict = Verdict::OldUnsafe;
            plan.cycle = Some(c);
            return true;
        }
        // no order of LFT writes helps while the old tables carry new SLs
        plan.entries = (p.pending().len() + free.len()) as u64;
        plan.verdict = Verdict::Blocked;
        plan.cycle = Some(s.cycle(p, start));
        plan.entries_left = plan.entries;
        return true;
    }
    false
}

/// The start (old tables, either SL) is safe, so the sources may take
/// their new SLs first; the LFT writes then meet new SLs only. `None`
/// when that state itself is unsafe.
fn upload_sls_first(s: &Setup, p: &mut Planner, pending: &[Entry]) -> Option<Run> {
    p.tables.sls_first = true;
    p.tables.modes.iter_mut().for_each(|m| *m = OLD);
    p.counts = Counts::new(&s.net, s.lanes.count());
    let looped = p.count_all(View::Modes);
    if p.check(looped).is_none() {
        return Some(upload(p, pending));
    }
    None
}

/// The run names the planner's indices; the plan names what a subnet
/// manager writes: GUIDs, and phases of switches and LFT blocks.
fn conclude(s: &Setup, p: &Planner, run: Run, free: Vec<(u32, Lid)>, plan: &mut UploadPlan) {
    plan.verdict = run.verdict;
    plan.all_at_once_cycle = run.all_at_once.map(|u| s.cycle(p, u));
    plan.cycle = run.stop.map(|u| s.cycle(p, u));
    plan.entries_left = run.left as u64;
    let done = run.done;
    let targets = &s.targets;
    let writes: Vec<Vec<(u32, Lid)>> = done
        .iter()
        .map(|ph| {
            ph.iter()
                .map(|&(t, s)| (s, targets[t as usize].lid))
                .collect()
        })
        .collect();
    plan.phases = assemble(s.fabric, &s.net, writes, free);
    plan.smps = plan.phases.iter().map(|p| p.smps).sum();
}

/// Changed entries of LIDs that are no destination: no packet follows
/// them, so they go with the first write of their block.
fn free_entries(net: &Net, rows: &Rows, targets: &[Target]) -> Vec<(u32, Lid)> {
    let mut is_target = vec![false; rows.len];
    targets
        .iter()
        .for_each(|t| is_target[t.lid as usize] = true);
    let mut v: Vec<(u32, Lid)> = (1..rows.len as Lid)
        .filter(|&l| !is_target[l as usize])
        .flat_map(|l| (0..net.nsw as u32).map(move |s| (s, l)))
        .filter(|&(s, l)| rows.old_port(s, l) != rows.new_port(s, l))
        .collect();
    v.sort_unstable();
    v
}

/// Phases as switches and blocks; free entries join the first phase that
/// writes their block (the first phase if none does).
fn assemble(
    fabric: &Fabric,
    net: &Net,
    mut writes: Vec<Vec<(u32, Lid)>>,
    free: Vec<(u32, Lid)>,
) -> Vec<Phase> {
    let block = |l: Lid| (l as usize / LFT_BLOCK) as u32;
    if writes.is_empty() && !free.is_empty() {
        writes.push(Vec::new());
    }
    let mut first: BTreeMap<(u32, u32), usize> = BTreeMap::new();
    for (i, ph) in writes.iter().enumerate() {
        for &(s, l) in ph {
            first.entry((s, block(l))).or_insert(i);
        }
    }
    for (s, l) in free {
        let i = first.get(&(s, block(l))).copied().unwrap_or(0);
        writes[i].push((s, l));
    }
    writes
        .into_iter()
        .map(|mut ph| {
            ph.sort_unstable_by_key(|&(s, l)| (net.guid[s as usize], l));
            let mut switches: Vec<PhaseSwitch> = Vec::new();
            for group in ph.chunk_by(|a, b| a.0 == b.0) {
                let node = fabric.switch_node(crate::model::SwIdx(group[0].0));
                let lids: Vec<Lid> = group.iter().map(|e| e.1).collect();
                let mut blocks: Vec<u32> = lids.iter().map(|&l| block(l)).collect();
                blocks.dedup();
                switches.push(PhaseSwitch {
                    guid: fabric.node(node).guid,
                    lid: fabric.switch_lid(node),
                    desc: fabric.node(node).desc.clone(),
                    blocks,
                    lids,
                });
            }
            Phase {
                smps: switches.iter().map(|s| s.blocks.len() as u64).sum(),
                entries: ph.len() as u64,
                switches,
            }
        })
        .collect()
}

/// An unsafe state in GUIDs and ports.
fn describe(net: &Net, lanes: &Lanes, targets: &[Target], u: Unsafe) -> Cycle {
    match u {
        Unsafe::Loop { t, switches } => Cycle::ForwardingLoop {
            lid: targets[t as usize].lid,
            switches: switches.iter().map(|&s| net.guid[s as usize]).collect(),
        },
        Unsafe::Credit(chans) => {
            let lane = chans.first().map_or(0, |&c| Counts::split(net, c).0);
            let link = |c: u32| net.chan_of[Counts::split(net, c).1 as usize];
            let turns = (0..chans.len())
                .filter_map(|i| {
                    let (u, pu) = link(chans[i]);
                    let (_, po) = link(chans[(i + 1) % chans.len()]);
                    let Hop::Switch { sw, port } = net.hop(u, pu) else {
                        return None;
                    };
                    Some(Turn {
                        guid: net.guid[sw as usize],
                        in_port: port,
                        out_port: po,
                    })
                })
                .collect();
            Cycle::CreditLoop {
                turns,
                vls: (lanes.count() > 1).then(|| lanes.vls[lane].clone()),
            }
        }
    }
}
