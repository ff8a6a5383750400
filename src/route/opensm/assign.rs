//! OpenSM's LFT assignment (algorithms.md §2.2; `osm_ucast_mgr.c`:
//! `ucast_mgr_process_tbl`, `ucast_mgr_process_port`; `osm_switch.c`:
//! `osm_switch_recommend_path`), for a fresh SM (`ignore_existing_lfts`) with
//! default options. Every switch is independent, so switches run in parallel
//! and the result does not depend on the thread count. With LMC > 0 the
//! port choice adds OpenSM's remote-system preferences (`lmc.rs`).

use rayon::prelude::*;

use super::blocks::Block;
use super::fill::Picks;
use super::hops::Distances;
use super::lmc::{self, PortPeers, Remotes};
use super::order::{NO_SWITCH, Target};
use super::sets::{NO_SET, PortSets};
use super::{NO_PATH, SwitchGraph};
use crate::model::{Fabric, Lfts, Lid, NO_ROUTE, SwIdx, lids_per_port};

/// The hop tables an engine hands to the assignment.
pub trait LeastHops: Sync {
    /// Least hops from switch `s` to switch `x` ([`NO_PATH`] if none).
    fn least(&self, s: usize, x: usize) -> u8;
    /// Whether port-end `e` (a port of switch `s`) has `least` hops to `x`,
    /// i.e. `hops[s][x][port(e)] == least`.
    fn on_least_path(&self, e: usize, x: usize, least: u8) -> bool;
    /// The plain switch distances, when `on_least_path` is exactly
    /// `dist(peer, x) + 1 == least` (min-hop): the port sets are then
    /// found by comparing whole rows (`sets.rs`).
    fn distances(&self) -> Option<&Distances> {
        None
    }
}

/// Per-thread buffers, reused from switch to switch.
struct Scratch {
    /// The switch's least-hop port sets (`sets.rs`); when `grouped` is
    /// false (over 64 neighbour switches) the per-destination lists below.
    sets: PortSets,
    /// Quiet blocks' ports per set (`fill.rs`).
    picks: Picks,
    grouped: bool,
    /// Least-hop ports of this switch towards each switch `x`:
    /// `ports[start[x]..start[x + 1]]`, ascending.
    start: Vec<u32>,
    ports: Vec<u8>,
    /// Routes through each port so far (only CA/router LIDs count).
    cnt: [u32; 256],
    /// LMC > 0 only: the remote nodes each target's LIDs went to, and the
    /// node behind each port of this switch (`lmc.rs`).
    remotes: Remotes,
    peers: PortPeers,
}

/// Fills the LFT of every switch. `order` is the port order list.
pub fn assign(
    fabric: &Fabric,
    g: &SwitchGraph,
    hops: &impl LeastHops,
    order: &[Target],
    max_lid: Lid,
) -> Lfts {
    // Zeroed pages, each row set to NO_ROUTE by the thread that routes it:
    // the 21 MB of t11 fault in on both threads, written once (issue 17).
    let mut lfts = Lfts::zeroed(g.num_switches(), max_lid);
    let plan = Plan::new(fabric, g, hops, order);
    // An indexed parallel iterator, so the scratch (with LMC, a list per
    // destination port) is made once per rayon split, not once per switch.
    let rows: Vec<(usize, &mut [u8])> = lfts.rows_mut().enumerate().collect();
    rows.into_par_iter().for_each_init(
        || plan.scratch(),
        |sc, (s, row)| plan.fill_switch(sc, s, row),
    );
    lfts
}

/// What every switch's row is routed from, worked out once and shared by
/// the threads, so nothing per switch allocates.
struct Plan<'a, H> {
    fabric: &'a Fabric,
    g: &'a SwitchGraph,
    hops: &'a H,
    order: &'a [Target],
    /// The port order cut into blocks for the LMC 0 grouped path
    /// (`blocks.rs`).
    blocks: Vec<Block>,
    /// Switches whose routes move counters: those with CAs behind them.
    counted: Vec<bool>,
    /// Port count of each switch plus one: OpenSM's LMC scan wraps there.
    num_ports: Vec<u32>,
    /// LMC > 0 only: the system image GUID of every node (`lmc.rs`).
    sys: Vec<u64>,
    /// LIDs per port of the port with the most (LMC offsets to route).
    max_offsets: u32,
}

impl<'a, H: LeastHops> Plan<'a, H> {
    /// Everything that depends on the fabric and the port order only,
    /// worked out before the threads start.
    fn new(fabric: &'a Fabric, g: &'a SwitchGraph, hops: &'a H, order: &'a [Target]) -> Self {
        let n = g.num_switches();
        let max_offsets = order
            .iter()
            .map(|t| u32::from(lids_per_port(t.lmc)))
            .max()
            .unwrap_or(1);
        let mut counted = vec![false; n];
        for t in order.iter().filter(|t| !t.is_switch && t.sw != NO_SWITCH) {
            counted[t.sw as usize] = true;
        }
        let mut plan = Plan {
            fabric,
            g,
            hops,
            order,
            blocks: super::blocks::blocks(order),
            counted,
            num_ports: (0..n)
                .map(|s| fabric.node(fabric.switch_node(SwIdx(s as u32))).num_ports as u32 + 1)
                .collect(),
            sys: Vec::new(),
            max_offsets,
        };
        if plan.for_lmc() {
            plan.sys = lmc::system_guids(fabric);
        }
        plan
    }

    /// OpenSM's `routing_for_lmc`: the subnet's LMC, not the port's.
    fn for_lmc(&self) -> bool {
        self.max_offsets > 1
    }

    /// One thread's buffers; with LMC, room for every target's remotes.
    fn scratch(&self) -> Scratch {
        let targets = if self.for_lmc() { self.order.len() } else { 0 };
        Scratch {
            sets: PortSets::default(),
            picks: Picks::default(),
            grouped: false,
            start: Vec::with_capacity(self.g.num_switches() + 1),
            ports: Vec::new(),
            cnt: [0; 256],
            remotes: Remotes::new(targets, self.max_offsets as usize),
            peers: PortPeers::new(),
        }
    }

    /// Fills switch `s`'s row with its counters starting at 0, as OpenSM
    /// does for every switch: LMC 0 with grouped sets goes block by block
    /// (`blocks.rs`), the rest LID by LID ([`Self::fill_lids`]).
    #[inline]
    fn fill_switch(&self, sc: &mut Scratch, s: usize, row: &mut [u8]) {
        row.fill(NO_ROUTE);
        sc.grouped = sc.sets.load(self.g, self.hops, s, &self.counted);
        if !sc.grouped {
            candidates(self.g, self.hops, s, sc);
        }
        sc.cnt = [0; 256];
        if !self.for_lmc() && sc.grouped {
            let (sets, picks, cnt) = (&mut sc.sets, &mut sc.picks, &mut sc.cnt);
            super::blocks::route_switch(sets, picks, cnt, s, self.order, &self.blocks, row);
            return;
        }
        if self.for_lmc() {
            sc.remotes.clear();
            let sw = self.fabric.switch_node(SwIdx(s as u32));
            sc.peers.load(self.fabric, sw, &self.sys);
        }
        self.fill_lids(sc, s, row);
    }

    /// OpenSM's per-LID loop, LMC offset by offset over the whole port
    /// order, so a port's later LIDs see the counters and remote nodes its
    /// earlier ones left behind. Without LMC (over 64 neighbour switches)
    /// it is the one pass over the base LIDs.
    #[inline]
    fn fill_lids(&self, sc: &mut Scratch, s: usize, row: &mut [u8]) {
        for off in 0..self.max_offsets {
            for (ti, t) in self.order.iter().enumerate() {
                if off >= u32::from(lids_per_port(t.lmc)) {
                    continue;
                }
                let lid = t.lid as usize + off as usize;
                if lid >= row.len() {
                    continue;
                }
                let start = if off == 0 { 1 } else { row[lid - 1] as u32 + 1 };
                // Offset 0 finds no earlier LID of its port: no
                // preference applies, the plain rule gives OpenSM's port.
                let port = if self.for_lmc() && off > 0 {
                    route_lmc(sc, s, t, ti, start, self.num_ports[s])
                } else {
                    route_one(sc, s, t)
                };
                row[lid] = port;
                if port != NO_ROUTE && !t.is_switch {
                    sc.cnt[port as usize] += 1;
                    if self.for_lmc() {
                        let p = port as usize;
                        sc.remotes.record(ti, sc.peers.node[p], sc.peers.sys[p]);
                    }
                }
            }
        }
    }
}

/// The least-hop ports of switch `s` towards `t`, ascending; or, when there
/// is nothing to choose, the port itself (`t`'s own port on its switch, or
/// NO_ROUTE).
#[inline]
fn choices<'a>(sc: &'a Scratch, s: usize, t: &Target) -> Result<&'a [u8], u8> {
    if t.sw == NO_SWITCH {
        return Err(NO_ROUTE);
    }
    let x = t.sw as usize;
    if x == s {
        return Err(t.port);
    }
    let cands = if sc.grouped {
        match sc.sets.set_of[x] {
            NO_SET => &[][..],
            sid => sc.sets.set(sid),
        }
    } else {
        &sc.ports[sc.start[x] as usize..sc.start[x + 1] as usize]
    };
    match cands {
        [] => Err(NO_ROUTE),
        cands => Ok(cands),
    }
}

/// The port switch `s` uses towards `t` (LMC 0: base LIDs only): its own
/// port for local targets, otherwise the least-hop port with the strictly
/// smallest counter, scanning ports upwards from 1.
#[inline]
fn route_one(sc: &Scratch, s: usize, t: &Target) -> u8 {
    match choices(sc, s, t) {
        Ok(cands) => least_counter(cands, &sc.cnt),
        Err(port) => port,
    }
}

/// OpenSM's scan: the port with the strictly smallest counter, the first
/// one on a tie.
#[inline]
pub(super) fn least_counter(cands: &[u8], cnt: &[u32; 256]) -> u8 {
    let (mut best, mut best_cnt) = (cands[0], cnt[cands[0] as usize]);
    for &q in &cands[1..] {
        let c = cnt[q as usize];
        if c < best_cnt {
            best = q;
            best_cnt = c;
        }
    }
    best
}

/// [`route_one`] with OpenSM's LMC preferences (`lmc::choose`).
#[inline]
fn route_lmc(sc: &Scratch, s: usize, t: &Target, ti: usize, start: u32, num_ports: u32) -> u8 {
    let cands = match choices(sc, s, t) {
        Ok(c) => c,
        Err(port) => return port,
    };
    lmc::choose(
        cands,
        start % num_ports,
        &sc.cnt,
        &sc.peers,
        &sc.remotes,
        ti,
    )
}

/// Lists, for switch `s` and every switch `x`, the ports of `s` on a
/// least-hop path to `x`.
fn candidates(g: &SwitchGraph, hops: &impl LeastHops, s: usize, sc: &mut Scratch) {
    sc.start.clear();
    sc.ports.clear();
    let ends = g.ends(s);
    for x in 0..g.num_switches() {
        sc.start.push(sc.ports.len() as u32);
        let least = hops.least(s, x);
        if least == NO_PATH || x == s {
            continue;
        }
        for e in ends.clone() {
            if hops.on_least_path(e, x, least) {
                sc.ports.push(g.port[e]);
            }
        }
    }
    sc.start.push(sc.ports.len() as u32);
}
