//! Rip-up and re-route: after every end port has its trees, each port in
//! turn gives back the loads of its trees and is routed again under the
//! loads of all the other ports, so the early trees (grown on an almost
//! unloaded fabric) see the routes that came after them. The GM-2 mapper
//! repeats its route search the same way — "the search is done more than
//! once for every set of routes", each time with the link costs of the
//! other routes in place (seed `myrinet-gm2-mapper.txt`, "Route
//! Computation").
//!
//! In the rounds a tree prices a link by its pair cost, not its load, and
//! a round is kept only if it lowers F, the expected number of destination
//! triples crowding a link in a random permutation (`pairs.rs`: each
//! re-routed port is an exact descent step on F); otherwise the tables and
//! loads before it are restored. Not the all-to-all maximum: on a PGFT with
//! cut cables its busiest links are leaf downlinks carrying a few whole
//! destinations (load ≤ 2 in any permutation), and judging rounds by them
//! undid rounds that balanced the spine links a permutation crowds. Rounds
//! stop at the first that lowers F by less than [`MIN_GAIN`]. Rounds are
//! sequential and visit ports in routing order, so the result is the same
//! for any thread count.

use super::dests::{Dest, Dests};
use super::lmc::{self, Columns};
use super::pairs;
use super::tree::{Graph, NONE, Tree};
use super::weights::Weights;
use crate::model::Lfts;

/// Most rounds run (README "Balanced shortest paths and LMC": the tori
/// keep lowering F by a few % for four rounds; the PGFT stops after two).
pub const MAX_ROUNDS: usize = 4;

/// Rounds stop once one lowers F by less than this fraction (1 %).
pub const MIN_GAIN: f64 = 0.01;

/// Rounds are skipped when the most loaded link is within 1/`NEAR_BOUND`
/// of the mean link load. Every route is a shortest path, so the summed
/// load of all links is the same for any tables, and the mean is a lower
/// bound of the maximum: rounds could lower it by that little at most (an
/// intact 11,664-host RLFT is at 1.3 % and would pay a round for nothing).
pub const NEAR_BOUND: u64 = 32;

/// Outcome of the rounds, for note S003.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Rounds {
    /// Skipped: the maximum was already near its lower bound.
    pub skipped: bool,
    /// Rounds kept.
    pub kept: usize,
    /// Most loaded link before the first round and after the last kept.
    pub max_before: u64,
    pub max_after: u64,
    /// Expected crowded triples F (`pairs.rs`) before and after.
    pub triples_before: f64,
    pub triples_after: f64,
}

/// Runs up to [`MAX_ROUNDS`] rounds over the end ports of `dests`, trees
/// priced by pair cost (`pairs.rs`), keeping each only if it lowers the
/// expected crowded triples F.
pub fn rounds(gr: &Graph, dests: &Dests, w: &mut Weights, lfts: &mut Lfts) -> Rounds {
    let max_before = w.max_load();
    let m = sources(gr).saturating_sub(1).max(1);
    let mut out = Rounds {
        skipped: near_bound(w),
        kept: 0,
        max_before,
        max_after: max_before,
        triples_before: pairs::triples(w, m),
        triples_after: 0.0,
    };
    out.triples_after = out.triples_before;
    if out.skipped {
        return out;
    }
    w.set_pairs(Some(m));
    for _ in 0..MAX_ROUNDS {
        let saved = (w.clone(), lfts.clone());
        round(gr, dests, w, lfts);
        let (max, f) = (w.max_load(), pairs::triples(w, m));
        if f >= out.triples_after {
            (*w, *lfts) = saved;
            break;
        }
        out.kept += 1;
        let gain = (out.triples_after - f) / out.triples_after.max(f64::MIN_POSITIVE);
        out.max_after = max;
        out.triples_after = f;
        if gain < MIN_GAIN {
            break;
        }
    }
    w.set_pairs(None);
    out
}

/// End ports routed (sources of a random permutation).
fn sources(gr: &Graph) -> u64 {
    gr.hosts.iter().map(|&h| u64::from(h)).sum()
}

/// The most loaded link of the base LIDs' plane (offset 0) is within
/// 1/[`NEAR_BOUND`] of that plane's mean load. The base plane is the LMC-0
/// routing; the planes of further offsets are spread away from it on
/// purpose (the diversity penalty, `lmc.rs`), so their unevenness is no
/// sign that rounds would help, and judging it made an intact 11,664-host
/// RLFT with `--lmc 2` pay two rounds (43 s against 15 s).
fn near_bound(w: &Weights) -> bool {
    let (max, total, links) = w.plane_load(0);
    let (max, total, links) = (u128::from(max), u128::from(total), links as u128);
    links > 0 && max * links * u128::from(NEAR_BOUND) <= total * u128::from(NEAR_BOUND + 1)
}

/// One round: every end port, in routing order, ripped up and routed again.
pub fn round(gr: &Graph, dests: &Dests, w: &mut Weights, lfts: &mut Lfts) {
    let mut paths = Paths::new(gr);
    let mut tree = Tree::new(gr.num_switches());
    let mut cols = Columns::new(gr.num_switches());
    for d in &dests.ends {
        paths.rip_up(gr, w, (lfts, &cols), d);
        lmc::route_port(gr, w, &mut tree, (lfts, &mut cols), d);
    }
    cols.flush(lfts);
}

/// What ripping up needs: the routes of a LID are followed from the
/// switches that have sources, through the tables, so no tree is kept
/// between rounds (a walk of a few hops per source switch instead of a
/// search over every link).
struct Paths {
    /// Switches with at least one source (end port), ascending.
    sources: Vec<u32>,
    /// Port-end of switch `s`, port `p` at `s * stride + p` (`NONE`: no
    /// switch-to-switch link there).
    by_port: Vec<u32>,
    stride: usize,
    /// Routes of the LID being ripped up, per link, and the links touched.
    gone: Vec<u64>,
    touched: Vec<u32>,
}

impl Paths {
    fn new(gr: &Graph) -> Self {
        let g = gr.g;
        let stride = g.port.iter().map(|&p| usize::from(p)).max().unwrap_or(0) + 1;
        let mut by_port = vec![NONE; gr.num_switches() * stride];
        for s in 0..gr.num_switches() {
            for e in g.ends(s) {
                by_port[s * stride + usize::from(g.port[e])] = e as u32;
            }
        }
        let sources = (0..gr.num_switches() as u32)
            .filter(|&s| gr.hosts[s as usize] > 0)
            .collect();
        Paths {
            sources,
            by_port,
            stride,
            gone: vec![0; g.num_port_ends()],
            touched: Vec::new(),
        }
    }

    /// Removes from `w` the loads of the routes the tables hold toward
    /// every LID of `d` (read through `cols`, which may stage newer
    /// columns than `lfts`): each source switch's hosts leave every link
    /// of its path, as [`Tree::count_sources`] added them.
    fn rip_up(&mut self, gr: &Graph, w: &mut Weights, (lfts, cols): (&Lfts, &Columns), d: &Dest) {
        for k in 0..d.count {
            let lid = d.lid + k;
            w.select(usize::from(k));
            for &s in &self.sources {
                let n = u64::from(gr.hosts[s as usize]);
                let mut x = s as usize;
                // a loop-free table reaches the root within `switches` hops
                for _ in 0..gr.num_switches() {
                    if x == d.sw as usize {
                        break;
                    }
                    let p = usize::from(cols.get(lfts, x, lid));
                    let e = match self.by_port[x * self.stride..][..self.stride].get(p) {
                        Some(&e) if e != NONE => e as usize,
                        _ => break, // no route (unreached switch)
                    };
                    if self.gone[e] == 0 {
                        self.touched.push(e as u32);
                    }
                    self.gone[e] += n;
                    x = gr.g.nbr[e] as usize;
                }
            }
            // the LID's routes leave each link at once: its moments count
            // per LID (`Weights::remove_load`)
            for e in self.touched.drain(..) {
                w.remove_load(e as usize, std::mem::take(&mut self.gone[e as usize]));
            }
        }
        w.select(0);
    }
}
