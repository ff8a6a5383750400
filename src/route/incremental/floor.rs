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

/// Bits of [`Toward::get`]: some path, a down-only path, an up*down* path.
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
    let up_down = matches!(promise, Promise::UpDown);
    let targets: Vec<Target> = cols.iter().map(|&l| Target::of(fabric, lids, l)).collect();
    // backward searches only toward the switches these columns lead to
    let mut wanted = vec![false; n];
    for t in &targets {
        if let Target::Switch(d) | Target::End { sw: Some(d), .. } = *t {
            wanted[d as usize] = true;
        }
    }
    let towards = Towards::new(ports, &wanted, up_down);
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
                    Target::Switch(d) => !reaches(ports, towards.to(d as usize), target, s, old[s]),
                    Target::End { sw: Some(d), .. } => {
                        let d = d as usize;
                        let sources = hosts[s] - u32::from(d == s);
                        let check = if sources > 0 { promise } else { Promise::Reach };
                        !keeps(ports, (towards.to(d), d), target, check, s, old[s])
                    }
                };
            }
        });
    must
}

/// Whether entry `p` of switch `s` can be part of a route that reaches
/// `target` (on or at switch `tw`'s destination); `true` when `s` cannot
/// reach it at all.
fn reaches(ports: &Ports, tw: Toward, target: Target, s: usize, p: u8) -> bool {
    if tw.get(s) & REACH == 0 {
        return true;
    }
    if p == NO_ROUTE {
        return false;
    }
    match ports.get(s, p) {
        Next::Down => false,
        Next::End(n, q) => is_target(target, n, q),
        Next::Switch { t, .. } => tw.get(t as usize) & REACH != 0,
    }
}

/// Whether entry `p` of switch `s` can start a route to the end port
/// `target` on switch `d` that keeps `promise`; `true` when no entry of
/// `s` can.
fn keeps(
    ports: &Ports,
    (tw, d): (Toward, usize),
    target: Target,
    promise: Promise,
    s: usize,
    p: u8,
) -> bool {
    match promise {
        Promise::Reach => reaches(ports, tw, target, s, p),
        Promise::UpDown if tw.get(s) & UPDOWN == 0 => true,
        Promise::Shortest(h) if h.get(s, d) == NO_HOPS => true,
        _ if p == NO_ROUTE => false,
        _ => match (ports.get(s, p), promise) {
            (Next::Down, _) => false,
            (Next::End(n, q), _) => is_target(target, n, q),
            (Next::Switch { t, up }, Promise::UpDown) => {
                tw.get(t as usize) & if up { UPDOWN } else { DOWN } != 0
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

/// Per switch, toward every wanted destination switch at once (one bit
/// each): whether some path, a down-only path, and an up*down* path (up
/// hops into a switch with a down-only path) lead to it. Each set is the
/// least one closed under its hops (a switch has what any switch it may
/// hop to has), found by sweeping the switches until nothing changes: a
/// few passes over the cables, against one search per destination.
struct Towards {
    words: usize,
    /// Per wanted destination switch: its word and bit.
    slot: Vec<Option<(usize, u64)>>,
    /// Per switch, `words` words each.
    reach: Vec<u64>,
    down: Vec<u64>,
    up_down: Vec<u64>,
}

impl Towards {
    fn new(ports: &Ports, wanted: &[bool], up_down: bool) -> Towards {
        let n = wanted.len();
        let words = wanted.iter().filter(|&&w| w).count().div_ceil(64).max(1);
        let mut slot = vec![None; n];
        let mut own = vec![0u64; n * words];
        for (i, d) in (0..n).filter(|&d| wanted[d]).enumerate() {
            slot[d] = Some((i / 64, 1u64 << (i % 64)));
            own[d * words + i / 64] |= 1u64 << (i % 64);
        }
        let reach = close(ports, own.clone(), words, |_| true);
        let (down, up_down) = if up_down {
            let down = close(ports, own, words, |up| !up);
            (down.clone(), close(ports, down, words, |up| up))
        } else {
            (vec![0; n * words], vec![0; n * words])
        };
        Towards {
            words,
            slot,
            reach,
            down,
            up_down,
        }
    }

    /// The view toward wanted destination switch `d`.
    fn to(&self, d: usize) -> Toward<'_> {
        let (word, mask) = self.slot[d].expect("toward a wanted switch");
        Toward {
            all: self,
            word,
            mask,
        }
    }
}

/// [`Towards`] toward one destination switch.
#[derive(Clone, Copy)]
struct Toward<'a> {
    all: &'a Towards,
    word: usize,
    mask: u64,
}

impl Toward<'_> {
    /// Bits [`REACH`], [`DOWN`], [`UPDOWN`] of switch `s`.
    fn get(&self, s: usize) -> u8 {
        let i = s * self.all.words + self.word;
        let has = |v: &[u64], bit: u8| if v[i] & self.mask != 0 { bit } else { 0 };
        has(&self.all.reach, REACH) | has(&self.all.down, DOWN) | has(&self.all.up_down, UPDOWN)
    }
}

/// The least superset of `sets` (per switch, `words` words) in which a
/// switch holds every bit of each switch it can hop to over hops that
/// `hop(up)` admits: sweeps, alternately in both switch orders, until a
/// sweep changes nothing.
fn close(ports: &Ports, mut sets: Vec<u64>, words: usize, hop: impl Fn(bool) -> bool) -> Vec<u64> {
    let n = sets.len() / words;
    let mut acc = vec![0u64; words];
    for pass in 0.. {
        let mut changed = false;
        for k in 0..n {
            let u = if pass % 2 == 0 { k } else { n - 1 - k };
            acc.copy_from_slice(&sets[u * words..][..words]);
            for next in ports.of(u) {
                if let Next::Switch { t, up } = *next
                    && hop(up)
                {
                    let from = &sets[t as usize * words..][..words];
                    acc.iter_mut().zip(from).for_each(|(a, b)| *a |= b);
                }
            }
            let mine = &mut sets[u * words..][..words];
            if *mine != *acc {
                mine.copy_from_slice(&acc);
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    sets
}
