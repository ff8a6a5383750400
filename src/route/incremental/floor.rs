//! The floor of an incremental change: the entries of the previous tables
//! that *every* valid result on the new fabric must change, found from the
//! tables and the new cabling alone (no engine, no merge), and the LFT
//! blocks that hold them (2005 OpenSM memo §6, seed
//! `opensm-unicast-routing-enhancements-2005.txt`: the change is bounded
//! below by the routes the failure invalidates).
//!
//! A result is *valid* here when every switch's route reaches every
//! destination (switch-sourced traffic; what a full re-route and the merge
//! both give) and every route from a switch with end ports to an end-port
//! LID keeps the engine's promise (the CA→CA routes the verifier walks):
//! up*/down* with the promise's ranks, or one switch closer per hop for
//! min-hop. An entry `(s, lid)` must change when `s` can keep that rule at
//! all (otherwise no valid result exists and nothing is claimed) and its
//! port
//! - has no route, no cable, or leads to an end port other than the LID's;
//! - leads to a switch `t` from which the LID cannot be reached at all;
//! - (at a switch with end ports, for an end-port LID) goes up to a `t`
//!   with no up*down* path to the LID, or down to a `t` with no down-only
//!   path, or (min-hop) to a `t` that is not one switch closer.
//!
//! Each condition fails every continuation from `t`, so the bound holds
//! whatever the other entries become; it ignores interactions between
//! entries (a loop of individually possible entries), so it is a floor,
//! not the minimum.

use rayon::prelude::*;

use super::walk::{Next, Ports, Target};
use crate::model::hops::{NO_HOPS, SwitchHops};
use crate::model::{Fabric, LidMap, NO_ROUTE};

/// Per switch toward one destination switch: bit [`REACH`] some path,
/// [`DOWN`] a down-only path, [`UPDOWN`] an up*down* path.
type Toward = Vec<u8>;
const REACH: u8 = 1;
const DOWN: u8 = 2;
const UPDOWN: u8 = 4;

/// The promise the floor holds routes from switches with end ports to.
#[derive(Clone, Copy)]
pub(super) enum Promise<'a> {
    /// Reach only.
    Reach,
    /// up*/down* with the ranks folded into [`Ports`].
    UpDown,
    /// Shortest paths.
    Shortest(&'a SwitchHops),
}

/// Must-change marks, LID-major (`[i * switches + s]`), for the columns
/// `cols` of the previous tables, given LID-major in `old_t` (column `i`
/// is LID `cols[i]`); switches new to the tables are left unmarked (all
/// their blocks count anyway).
pub(super) fn must_change(
    fabric: &Fabric,
    lids: &LidMap,
    ports: &Ports,
    promise: Promise,
    (old_t, cols): (&[u8], &[u16]),
    new_switch: &[bool],
) -> Vec<bool> {
    let n = fabric.num_switches();
    let preds = predecessors(ports, n);
    let up_down = matches!(promise, Promise::UpDown);
    let targets: Vec<Target> = cols.iter().map(|&l| Target::of(fabric, lids, l)).collect();
    // backward searches only toward the switches these columns lead to
    let mut wanted = vec![false; n];
    for t in &targets {
        if let Target::Switch(d) | Target::End { sw: Some(d), .. } = *t {
            wanted[d as usize] = true;
        }
    }
    let toward: Vec<Toward> = (0..n)
        .into_par_iter()
        .map(|d| match wanted[d] {
            true => toward(&preds, d, up_down),
            false => Vec::new(),
        })
        .collect();
    let hosts: Vec<u32> = (0..n)
        .map(|s| {
            ports
                .of(s)
                .iter()
                .filter(|x| matches!(x, Next::End(..)))
                .count() as u32
        })
        .collect();
    let mut must = vec![false; old_t.len()];
    must.par_chunks_mut(n.max(1))
        .zip(targets.par_iter())
        .enumerate()
        .for_each(|(i, (col, &target))| {
            let old = &old_t[i * n..][..n];
            for (s, m) in col.iter_mut().enumerate() {
                if new_switch[s] {
                    continue;
                }
                *m = match target {
                    Target::Nowhere | Target::End { sw: None, .. } => false,
                    Target::Switch(d) if d as usize == s => old[s] != 0,
                    Target::Switch(d) => !reaches(ports, &toward[d as usize], target, s, old[s]),
                    Target::End { sw: Some(d), .. } => {
                        let d = d as usize;
                        let sources = hosts[s] - u32::from(d == s);
                        let check = if sources > 0 { promise } else { Promise::Reach };
                        !keeps(ports, (&toward[d], d), target, check, s, old[s])
                    }
                };
            }
        });
    must
}

/// Whether entry `p` of switch `s` can be part of a route that reaches
/// `target` (on or at switch `tw`'s destination); `true` when `s` cannot
/// reach it at all.
fn reaches(ports: &Ports, tw: &Toward, target: Target, s: usize, p: u8) -> bool {
    if tw[s] & REACH == 0 {
        return true;
    }
    if p == NO_ROUTE {
        return false;
    }
    match ports.get(s, p) {
        Next::Down => false,
        Next::End(n, q) => is_target(target, n, q),
        Next::Switch { t, .. } => tw[t as usize] & REACH != 0,
    }
}

/// Whether entry `p` of switch `s` can start a route to the end port
/// `target` on switch `d` that keeps `promise`; `true` when no entry of
/// `s` can.
fn keeps(
    ports: &Ports,
    (tw, d): (&Toward, usize),
    target: Target,
    promise: Promise,
    s: usize,
    p: u8,
) -> bool {
    match promise {
        Promise::Reach => reaches(ports, tw, target, s, p),
        Promise::UpDown if tw[s] & UPDOWN == 0 => true,
        Promise::Shortest(h) if h.get(s, d) == NO_HOPS => true,
        _ if p == NO_ROUTE => false,
        _ => match (ports.get(s, p), promise) {
            (Next::Down, _) => false,
            (Next::End(n, q), _) => is_target(target, n, q),
            (Next::Switch { t, up }, Promise::UpDown) => {
                tw[t as usize] & if up { UPDOWN } else { DOWN } != 0
            }
            (Next::Switch { t, .. }, Promise::Shortest(h)) => {
                u16::from(h.get(t as usize, d)) + 1 == u16::from(h.get(s, d))
            }
            (Next::Switch { .. }, Promise::Reach) => unreachable!("handled above"),
        },
    }
}

fn is_target(target: Target, n: crate::model::NodeIdx, q: crate::model::PortNum) -> bool {
    matches!(target, Target::End { node, port, .. } if node == n && port == q)
}

/// Per switch `v`: the switches `u` with a cable `u → v`, and whether that
/// hop goes up.
fn predecessors(ports: &Ports, n: usize) -> Vec<Vec<(u32, bool)>> {
    let mut preds = vec![Vec::new(); n];
    for u in 0..n {
        for next in ports.of(u) {
            if let Next::Switch { t, up } = *next {
                preds[t as usize].push((u as u32, up));
            }
        }
    }
    preds
}

/// Backward searches from switch `d`: any path, down-only paths, and
/// up*down* paths (up hops into a switch with a down-only path).
fn toward(preds: &[Vec<(u32, bool)>], d: usize, up_down: bool) -> Toward {
    let mut tw = vec![0u8; preds.len()];
    spread(preds, &mut tw, d, REACH, |_| true);
    if up_down {
        spread(preds, &mut tw, d, DOWN, |up| !up);
        let seeds: Vec<usize> = (0..tw.len()).filter(|&s| tw[s] & DOWN != 0).collect();
        for s in seeds {
            spread(preds, &mut tw, s, UPDOWN, |up| up);
        }
    }
    tw
}

/// Marks `bit` on `from` and every switch with a path into it over hops
/// that `hop(up)` admits.
fn spread(
    preds: &[Vec<(u32, bool)>],
    tw: &mut [u8],
    from: usize,
    bit: u8,
    hop: impl Fn(bool) -> bool,
) {
    if tw[from] & bit != 0 {
        return;
    }
    tw[from] |= bit;
    let mut stack = vec![from];
    while let Some(v) = stack.pop() {
        for &(u, up) in &preds[v] {
            let u = u as usize;
            if hop(up) && tw[u] & bit == 0 {
                tw[u] |= bit;
                stack.push(u);
            }
        }
    }
}
