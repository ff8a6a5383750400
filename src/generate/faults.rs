//! Seeded random fault lists (`routec gen pgft --faults N --fail-switches N`),
//! written in the syntax of `formats/faults.md`.
//!
//! ChaCha8 seeded from the user's seed keeps a list the same on every
//! platform and rand version; candidates are sorted before sampling, and the
//! sample is sorted again, so the list depends only on (fabric, counts, seed).

use std::io::Write;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::model::rank::leaf_ranks;
use crate::model::{Fabric, Fault, PortRef};

/// How many faults to draw.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FaultPlan {
    /// Switch-to-switch cables to cut (parallel cables are separate).
    pub links: usize,
    /// Switches above the leaves (rank >= 1) to remove.
    pub switches: usize,
    pub seed: u64,
}

/// Draws the faults of `plan` on `fabric`: first the switches (among those
/// of rank >= 1, like gen_pgft.py's default `--fail-levels 2..h`), then the
/// cables among those not touching a failed switch. Switches come first in
/// the result, in GUID order; cables follow in (node, port) order.
pub fn random_faults(fabric: &Fabric, plan: &FaultPlan) -> Result<Vec<Fault>, String> {
    let mut rng = ChaCha8Rng::seed_from_u64(plan.seed);
    let ranks = leaf_ranks(fabric);
    let mut cand: Vec<_> = fabric
        .switches()
        .iter()
        .zip(&ranks)
        .filter(|&(_, &r)| r >= 1 && r != crate::model::rank::UNRANKED)
        .map(|(&n, _)| n)
        .collect();
    cand.sort_by_key(|&n| fabric.node(n).guid);
    if plan.switches > cand.len() {
        return Err(format!(
            "only {} switches above the leaves can fail, {} asked",
            cand.len(),
            plan.switches
        ));
    }
    let mut picked = rand::seq::index::sample(&mut rng, cand.len(), plan.switches).into_vec();
    picked.sort_unstable();
    let mut dead = vec![false; fabric.num_nodes()];
    // room for the cables only once their count is known to be possible:
    // `--faults 4294967296` asked for 160 GB here and aborted (fuzz campaign)
    let mut faults = Vec::with_capacity(plan.switches);
    for i in picked {
        dead[cand[i].ix()] = true;
        faults.push(Fault::Switch(fabric.node(cand[i]).guid));
    }
    let cables: Vec<_> = fabric
        .links()
        .filter(|&(a, _, b, _)| {
            a != b && fabric.is_switch(a) && fabric.is_switch(b) && !dead[a.ix()] && !dead[b.ix()]
        })
        .collect();
    if plan.links > cables.len() {
        return Err(format!(
            "only {} switch-to-switch cables can fail, {} asked",
            cables.len(),
            plan.links
        ));
    }
    let mut picked = rand::seq::index::sample(&mut rng, cables.len(), plan.links).into_vec();
    picked.sort_unstable();
    faults.reserve(plan.links);
    for i in picked {
        let (a, pa, b, pb) = cables[i];
        faults.push(Fault::Link {
            end: PortRef {
                guid: fabric.node(a).guid,
                port: pa,
            },
            other: Some(PortRef {
                guid: fabric.node(b).guid,
                port: pb,
            }),
        });
    }
    Ok(faults)
}

/// Writes `faults` one per line (`link G/P G/P`, `port G/P`, `switch G`,
/// `node G`) after a `#` header line.
pub fn write_faults(faults: &[Fault], header: &str, out: &mut dyn Write) -> std::io::Result<()> {
    for line in header.lines() {
        writeln!(out, "# {line}")?;
    }
    for f in faults {
        match f {
            Fault::Link {
                end,
                other: Some(o),
            } => writeln!(out, "link {end} {o}")?,
            Fault::Link { end, other: None } => writeln!(out, "link {end}")?,
            Fault::Port(p) => writeln!(out, "port {p}")?,
            Fault::Switch(g) => writeln!(out, "switch {g}")?,
            Fault::Node(g) => writeln!(out, "node {g}")?,
        }
    }
    Ok(())
}
