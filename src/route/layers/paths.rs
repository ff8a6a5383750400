//! The paths of a routing as sequences of channel dependencies. A channel
//! is a directed switch-to-switch link (a switch and its out port); a turn
//! is the dependency a path creates at a switch between the channel it
//! arrives on and the one it leaves by. Dense ids for both, so a layer
//! keeps its graph in flat arrays.

use super::order::Layer;
use crate::model::{Fabric, Lfts, Lid, LidMap, NO_ROUTE};

/// No switch behind this port.
const NONE: u32 = u32::MAX;

/// Longest path followed: IB's hop limit. A longer one loops, and the
/// verifier reports it; it is layered up to here.
const HOP_LIMIT: usize = 64;

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
        let guids = fabric
            .switches()
            .iter()
            .map(|&s| fabric.node(s).guid.0)
            .collect();
        PathWalk {
            lfts,
            base,
            far_sw,
            far_port,
            tbase,
            hosts,
            target,
            guids,
        }
    }

    /// An empty layer over these channels and turns.
    pub fn new_layer(&self) -> Layer {
        Layer::new(self.far_sw.len(), *self.tbase.last().unwrap_or(&0))
    }

    /// End-port LIDs that some switch delivers, in LID order.
    pub fn destinations(&self) -> impl Iterator<Item = Lid> + '_ {
        let top = self.lfts.top() as usize;
        (1..self.target.len().min(top + 1))
            .filter(|&l| self.target[l].is_some())
            .map(|l| l as Lid)
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

    /// The turns of the path from switch `src` toward `lid`, up to where it
    /// is delivered, dropped or exceeds the hop limit.
    pub fn path_turns(&self, src: u32, lid: Lid, out: &mut Vec<Turn>) {
        let Some((dst, _)) = self.target[lid as usize] else {
            return;
        };
        let (mut cur, mut prev): (u32, Option<(u32, u8)>) = (src, None);
        for _ in 0..HOP_LIMIT {
            if cur == dst {
                return;
            }
            let s = cur as usize;
            let p = self.lfts.get(s, lid);
            let chan = self.base[s] + u32::from(p);
            if p == NO_ROUTE || chan >= self.base[s + 1] || self.far_sw[chan as usize] == NONE {
                return;
            }
            if let Some((from, in_port)) = prev {
                let width = (self.base[s + 1] - self.base[s]) as usize;
                out.push(Turn {
                    id: self.tbase[s] + usize::from(in_port) * width + usize::from(p),
                    from,
                    to: chan,
                });
            }
            prev = Some((chan, self.far_port[chan as usize]));
            cur = self.far_sw[chan as usize];
        }
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
