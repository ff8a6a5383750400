//! The paths of a routing as sequences of channel dependencies. A channel
//! is a directed switch-to-switch link (a switch and its out port); a turn
//! is the dependency a path creates at a switch between the channel it
//! arrives on and the one it leaves by. Dense ids for both, so a layer
//! keeps its graph in flat arrays.

mod columns;

use fixedbitset::FixedBitSet;

use super::order::Layer;
use crate::model::{Fabric, Lfts, Lid, LidMap, NO_ROUTE};
pub(super) use columns::{Block, Col};

/// No switch behind this port.
const NONE: u32 = u32::MAX;

/// Longest path followed: IB's hop limit. A longer one loops, and the
/// verifier reports it; it is layered up to here.
pub(super) const HOP_LIMIT: usize = 64;

/// One dependency: channel `from` → channel `to`, turn id `id`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Turn {
    pub id: usize,
    pub from: u32,
    pub to: u32,
}

/// Flat view of the switches, their cables and the tables.
pub(super) struct PathWalk<'a> {
    pub lfts: &'a Lfts,
    /// `base[s] + p`: the channel of port `p` of switch `s`.
    base: Vec<u32>,
    /// Per channel: the switch and port at its far end (`NONE`: none).
    far_sw: Vec<u32>,
    far_port: Vec<u8>,
    /// `tbase[s] + in * (ports + 1) + out`: the turn ids of switch `s`.
    tbase: Vec<usize>,
    /// End ports cabled to each switch.
    hosts: Vec<u32>,
    /// Per LID: the switch that delivers it to an end port, and the port.
    target: Vec<Option<(u32, u8)>>,
    guids: Vec<u64>,
    /// The order layers start from: up*/down* order over ranks counted
    /// from the leaves — channels going up, lowest first, then across,
    /// then down, highest first. Routes that go up then down (every route
    /// on a fat tree) then agree with it and cost no search.
    first_order: Vec<u32>,
    /// Per channel: whether it goes up in the total order of switches by
    /// (leaf rank, GUID) — an acyclic orientation of every cable, level
    /// cables included, so down*·up* paths are up*·down* ones of the
    /// reversed order (`shapes`).
    up: FixedBitSet,
    /// Columns filled once for every walk ([`PathWalk::preload`]):
    /// `pre_at[lid]` indexes `pre` by `switches` entries, `u32::MAX` = none.
    pre_at: Vec<u32>,
    pre: Vec<u32>,
}

impl<'a> PathWalk<'a> {
    pub fn new(fabric: &Fabric, lids: &LidMap, lfts: &'a Lfts) -> Self {
        let n = fabric.num_switches();
        let (mut base, mut tbase) = (Vec::with_capacity(n + 1), Vec::with_capacity(n + 1));
        let (mut far_sw, mut far_port, mut hosts) = (Vec::new(), Vec::new(), vec![0; n]);
        let mut turns = 0usize;
        for (s, &node) in fabric.switches().iter().enumerate() {
            base.push(far_sw.len() as u32);
            tbase.push(turns);
            let ports = fabric.ports(node);
            turns += ports.len() * ports.len();
            for port in ports {
                let far = port.peer.map(|q| (fabric.switch_index(q.node), q.port));
                match far {
                    Some((Some(t), q)) => {
                        far_sw.push(t.0);
                        far_port.push(q);
                    }
                    Some((None, _)) => {
                        hosts[s] += 1;
                        far_sw.push(NONE);
                        far_port.push(0);
                    }
                    None => {
                        far_sw.push(NONE);
                        far_port.push(0);
                    }
                }
            }
        }
        base.push(far_sw.len() as u32);
        tbase.push(turns);
        let mut target = vec![None; lids.max_lid() as usize + 1];
        for (lid, o) in lids.iter() {
            if fabric.is_switch(o.node) {
                continue;
            }
            let peer = fabric.peer(o.node, o.port);
            if let Some((q, Some(t))) = peer.map(|q| (q, fabric.switch_index(q.node))) {
                target[lid as usize] = Some((t.0, q.port));
            }
        }
        let guids: Vec<u64> = fabric
            .switches()
            .iter()
            .map(|&s| fabric.node(s).guid.0)
            .collect();
        let rank = crate::model::rank::leaf_ranks(fabric);
        let first_order = up_down_order(&rank, &base, &far_sw);
        let up = up_channels(&rank, &guids, &base, &far_sw);
        PathWalk {
            lfts,
            base,
            far_sw,
            far_port,
            tbase,
            hosts,
            target,
            guids,
            first_order,
            up,
            pre_at: Vec::new(),
            pre: Vec::new(),
        }
    }

    /// An empty layer whose channels start in `order`.
    pub fn layer_in(&self, order: &[u32]) -> Layer {
        Layer::new(order, self.turns())
    }

    /// The up*/down* order: `first_order()[pos]` is a channel.
    pub fn first_order(&self) -> &[u32] {
        &self.first_order
    }

    /// Whether channel `chan` goes up in the (leaf rank, GUID) order.
    pub fn goes_up(&self, chan: u32) -> bool {
        self.up.contains(chan as usize)
    }

    /// Number of turn ids.
    pub fn turns(&self) -> usize {
        *self.tbase.last().unwrap_or(&0)
    }

    /// End-port LIDs that some switch delivers, in LID order.
    pub fn destinations(&self) -> impl Iterator<Item = Lid> + '_ {
        let top = self.lfts.top() as usize;
        (1..self.target.len().min(top + 1))
            .filter(|&l| self.target[l].is_some())
            .map(|l| l as Lid)
    }

    /// Whether some switch delivers `lid` to an end port (within the
    /// tables): one of [`Self::destinations`].
    pub fn is_destination(&self, lid: Lid) -> bool {
        let l = lid as usize;
        l >= 1 && l <= self.lfts.top() as usize && self.target.get(l).is_some_and(Option::is_some)
    }

    /// The end ports whose paths lead to a destination: the weights of
    /// [`Self::sources`] summed, the same for every destination — every
    /// end port cabled to a switch but the destination's own, which is
    /// one of those of the switch that delivers it.
    pub fn source_weight(&self) -> u64 {
        let ports: u64 = self.hosts.iter().map(|&h| u64::from(h)).sum();
        ports.saturating_sub(1)
    }

    /// Source switches toward `lid`, by index, with their end ports (an
    /// end port is not its own source).
    pub fn sources(&self, lid: Lid) -> impl Iterator<Item = (u32, u64)> + '_ {
        let own = self.target[lid as usize].map_or(NONE, |t| t.0);
        self.hosts
            .iter()
            .enumerate()
            .map(move |(s, &h)| (s as u32, u64::from(h - u32::from(s as u32 == own))))
            .filter(|&(_, w)| w > 0)
    }

    /// The turns of the path from switch `src` along column `col`, up to
    /// where it is delivered, dropped or exceeds the hop limit.
    pub fn path_turns(&self, col: Col, src: u32, out: &mut Vec<Turn>) {
        let (mut cur, mut prev) = (src, None);
        for _ in 0..HOP_LIMIT {
            let Some(chan) = col.hop(cur) else {
                return;
            };
            if let Some(from) = prev {
                out.push(self.turn(from, chan));
            }
            prev = Some(chan);
            cur = self.far_sw[chan as usize];
        }
    }

    /// The channel out of port `p` of switch `s` if it leads to a switch.
    fn channel(&self, s: usize, p: u8) -> Option<u32> {
        let chan = self.base[s] + u32::from(p);
        (p != NO_ROUTE && chan < self.base[s + 1] && self.far_sw[chan as usize] != NONE)
            .then_some(chan)
    }

    /// The switch channel `chan` leads to.
    pub fn far(&self, chan: u32) -> u32 {
        self.far_sw[chan as usize]
    }

    /// The turn from channel `from` into channel `to`, which leaves the
    /// switch `from` arrives at.
    pub fn turn(&self, from: u32, to: u32) -> Turn {
        let s = self.far_sw[from as usize] as usize;
        let width = (self.base[s + 1] - self.base[s]) as usize;
        let (in_port, out_port) = (self.far_port[from as usize], to - self.base[s]);
        Turn {
            id: self.tbase[s] + usize::from(in_port) * width + out_port as usize,
            from,
            to,
        }
    }

    /// The dependencies (from channel, to channel) of the turns whose ids
    /// are in `turns`, in id order: a set of turn ids holds each once,
    /// where lists gathered apart repeat them.
    pub fn turn_edges(&self, turns: &FixedBitSet) -> Vec<(u32, u32)> {
        let mut out = Vec::with_capacity(turns.count_ones(..));
        let mut s = 0;
        for id in turns.ones() {
            while self.tbase[s + 1] <= id {
                s += 1;
            }
            let width = (self.base[s + 1] - self.base[s]) as usize;
            let (in_port, out_port) = ((id - self.tbase[s]) / width, (id - self.tbase[s]) % width);
            let back = self.base[s] as usize + in_port;
            let m = self.far_sw[back] as usize;
            out.push((
                self.base[m] + u32::from(self.far_port[back]),
                self.base[s] + out_port as u32,
            ));
        }
        out
    }

    /// Number of channels (switch ports).
    pub fn channels(&self) -> usize {
        self.far_sw.len()
    }

    /// Number of switches.
    pub fn switches(&self) -> usize {
        self.base.len() - 1
    }

    /// `GUID/port -> GUID/port -> ...` for a run of channels.
    pub fn describe_channels(&self, chans: &[u32]) -> String {
        let name = |c: u32| {
            let s = self.base.partition_point(|&b| b <= c) - 1;
            format!("{:#018x}/{}", self.guids[s], c - self.base[s])
        };
        chans
            .iter()
            .map(|&c| name(c))
            .collect::<Vec<_>>()
            .join(" -> ")
    }
}

/// Channels sorted by (phase, rank): up channels by the rank they leave,
/// channels between equal ranks, then down channels by the rank they leave,
/// highest first; channel index breaks ties.
fn up_down_order(rank: &[u32], base: &[u32], far_sw: &[u32]) -> Vec<u32> {
    let r = |s: usize| u64::from(rank[s].min(1 << 20));
    let mut keyed: Vec<(u64, u32)> = Vec::with_capacity(far_sw.len());
    for s in 0..base.len() - 1 {
        for c in base[s]..base[s + 1] {
            let t = far_sw[c as usize];
            let key = if t == NONE {
                3 << 24
            } else if r(t as usize) > r(s) {
                r(s)
            } else if r(t as usize) == r(s) {
                (1 << 24) + r(s)
            } else {
                (2 << 24) + ((1 << 21) - r(s))
            };
            keyed.push((key, c));
        }
    }
    keyed.sort_unstable();
    keyed.into_iter().map(|(_, c)| c).collect()
}

/// The channels that go up in the order of switches by (rank, GUID).
fn up_channels(rank: &[u32], guids: &[u64], base: &[u32], far_sw: &[u32]) -> FixedBitSet {
    let key = |s: usize| (rank[s].min(1 << 20), guids[s]);
    let mut up = FixedBitSet::with_capacity(far_sw.len());
    for s in 0..base.len() - 1 {
        for c in base[s]..base[s + 1] {
            let t = far_sw[c as usize];
            if t != NONE && key(t as usize) > key(s) {
                up.insert(c as usize);
            }
        }
    }
    up
}
