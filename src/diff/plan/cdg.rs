//! The channel dependency graph of an upload state and its cycles (Dally &
//! Seitz: a deterministic routing is deadlock-free iff this graph is
//! acyclic). Each turn is counted once per destination that takes it, so
//! one destination's turns can be taken back out when its state changes.
//! One graph per lane (`lanes.rs`): lane `l`'s turns and channels are
//! numbered after those of lanes `0..l` (+ `l` × the count of one lane).
//! A lane that stands for several VLs is one graph, so "acyclic" is
//! sufficient for each of them.

use super::net::{Hop, NO_CHANNEL, Net};

/// How many destinations take each turn (`Net::turn` indices, per lane).
pub(super) struct Counts {
    n: Vec<u32>,
    lanes: usize,
}

impl Counts {
    pub fn new(net: &Net, lanes: usize) -> Counts {
        Counts {
            n: vec![0; net.num_turns() * lanes],
            lanes,
        }
    }

    pub fn add(&mut self, turns: &[u32]) {
        turns.iter().for_each(|&t| self.n[t as usize] += 1);
    }

    /// [`Counts::add`], noting in `fresh` each turn no destination took
    /// before: the dependencies this change may have added.
    pub fn add_noting(&mut self, turns: &[u32], fresh: &mut Vec<u32>) {
        for &t in turns {
            let n = &mut self.n[t as usize];
            if *n == 0 {
                fresh.push(t);
            }
            *n += 1;
        }
    }

    pub fn remove(&mut self, turns: &[u32]) {
        turns.iter().for_each(|&t| self.n[t as usize] -= 1);
    }

    /// The channels (of its lane) a turn index joins: the one arriving on
    /// its in port, the one leaving by its out port.
    pub fn turn_channels(net: &Net, t: u32) -> Option<(u32, u32)> {
        let turns = net.num_turns();
        let (lane, local) = (t as usize / turns, t as usize % turns);
        let (s, pin, pout) = net.turn_ports(local);
        let Hop::Switch { sw: u, port: pu } = net.hop(s, pin) else {
            return None;
        };
        let (from, to) = (net.chan(u, pu), net.chan(s, pout));
        if from == NO_CHANNEL || to == NO_CHANNEL {
            return None;
        }
        let base = (lane * net.chan_of.len()) as u32;
        Some((base + from, base + to))
    }

    /// The lane of channel `c` and its channel in `net`.
    pub fn split(net: &Net, c: u32) -> (usize, u32) {
        let k = net.chan_of.len();
        (c as usize / k, (c as usize % k) as u32)
    }

    /// Channels a packet on channel `c` may continue on (same lane).
    pub fn succ<'a>(&'a self, net: &'a Net, c: u32) -> impl Iterator<Item = u32> + 'a {
        let (lane, _) = Self::split(net, c);
        let (w, pin) = Self::head(net, c);
        (0..net.width(w) as u8).filter_map(move |po| self.next(net, lane, (w, pin), po))
    }

    /// Channels whose packets may continue on channel `c` (same lane).
    pub fn pred<'a>(&'a self, net: &'a Net, c: u32) -> impl Iterator<Item = u32> + 'a {
        let (lane, local) = Self::split(net, c);
        let (w, po) = net.chan_of[local as usize];
        let base = (lane * net.chan_of.len()) as u32;
        (0..net.width(w) as u8).filter_map(move |pin| {
            let Hop::Switch { sw: u, port: pu } = net.hop(w, pin) else {
                return None;
            };
            let c = net.chan(u, pu);
            let t = lane * net.num_turns() + net.turn(w, pin, po) as usize;
            (c != NO_CHANNEL && self.n[t] > 0).then_some(base + c)
        })
    }

    /// Whether turn index `t` is taken in the current state.
    pub fn taken(&self, t: u32) -> bool {
        self.n[t as usize] > 0
    }

    /// A topological order of every lane's channels (`rank[from] <
    /// rank[to]` for each dependency, ranks distinct), or `None` when some
    /// lane has a cycle.
    pub fn topological(&self, net: &Net) -> Option<Vec<u32>> {
        use rayon::prelude::*;
        let per: Vec<(Vec<u32>, Vec<bool>)> = (0..self.lanes)
            .into_par_iter()
            .map(|l| self.lane_sccs(net, l))
            .collect();
        let mut rank = Vec::with_capacity(net.chan_of.len() * self.lanes);
        for (comp, cyclic) in per {
            if cyclic.iter().any(|&c| c) {
                return None;
            }
            // Tarjan completes a component after every one it leads to:
            // acyclic, each channel is one component, sinks numbered first
            let off = rank.len() as u32;
            rank.extend(comp.iter().map(|&k| off + (comp.len() as u32 - 1 - k)));
        }
        Some(rank)
    }

    /// The switch channel `c` leads to and the port it arrives on.
    fn head(net: &Net, c: u32) -> (u32, u8) {
        let (u, pu) = net.chan_of[Self::split(net, c).1 as usize];
        match net.hop(u, pu) {
            Hop::Switch { sw, port } => (sw, port),
            _ => (0, 0),
        }
    }

    /// The channel of `lane` out of port `po` of `w` when some packet
    /// arriving on `pin` takes it.
    fn next(&self, net: &Net, lane: usize, (w, pin): (u32, u8), po: u8) -> Option<u32> {
        let c = net.chan(w, po);
        let t = lane * net.num_turns() + net.turn(w, pin, po) as usize;
        (c != NO_CHANNEL && self.n[t] > 0).then(|| (lane * net.chan_of.len()) as u32 + c)
    }

    /// Strongly connected components (iterative Tarjan, successors read
    /// port by port from the counts); `None` when the graph is acyclic.
    /// Lanes share no dependency, so each is searched on its own, in
    /// parallel, and a lane no destination takes is skipped.
    pub fn cycles(&self, net: &Net) -> Option<Sccs> {
        use rayon::prelude::*;
        let per: Vec<(Vec<u32>, Vec<bool>)> = (0..self.lanes)
            .into_par_iter()
            .map(|l| self.lane_sccs(net, l))
            .collect();
        let (mut comp, mut cyclic) = (Vec::new(), Vec::new());
        for (c, cy) in per {
            let off = cyclic.len() as u32;
            comp.extend(c.into_iter().map(|x| x + off));
            cyclic.extend(cy);
        }
        cyclic.iter().any(|&c| c).then_some(Sccs {
            comp,
            cyclic,
            lanes: self.lanes,
        })
    }

    /// The components of `lane`'s channels (indices local to the lane).
    fn lane_sccs(&self, net: &Net, lane: usize) -> (Vec<u32>, Vec<bool>) {
        let n = net.chan_of.len();
        let turns = net.num_turns();
        if self.n[lane * turns..(lane + 1) * turns]
            .iter()
            .all(|&c| c == 0)
        {
            return ((0..n as u32).collect(), vec![false; n]);
        }
        let base = (lane * n) as u32;
        let mut t = Tarjan {
            index: vec![UNSEEN; n],
            low: vec![0; n],
            comp: vec![UNSEEN; n],
            on: vec![false; n],
            st: Vec::new(),
            call: Vec::new(),
            next: 0,
        };
        let mut cyclic = Vec::new();
        for root in 0..n as u32 {
            if t.index[root as usize] != UNSEEN {
                continue;
            }
            t.enter(net, root);
            while let Some(&mut (v, w, pin, ref mut po)) = t.call.last_mut() {
                if (*po as usize) < net.width(w) {
                    let p = *po as u8;
                    *po += 1;
                    let Some(x) = self.next(net, lane, (w, pin), p).map(|x| x - base) else {
                        continue;
                    };
                    if t.index[x as usize] == UNSEEN {
                        t.enter(net, x);
                    } else if t.on[x as usize] {
                        t.low[v as usize] = t.low[v as usize].min(t.index[x as usize]);
                    }
                    continue;
                }
                t.call.pop();
                if let Some(&(p, ..)) = t.call.last() {
                    t.low[p as usize] = t.low[p as usize].min(t.low[v as usize]);
                }
                if t.low[v as usize] == t.index[v as usize] {
                    let id = cyclic.len() as u32;
                    let mut size = 0;
                    while let Some(x) = t.st.pop() {
                        t.on[x as usize] = false;
                        t.comp[x as usize] = id;
                        size += 1;
                        if x == v {
                            break;
                        }
                    }
                    cyclic.push(size > 1);
                }
            }
        }
        (t.comp, cyclic)
    }

    /// One cycle of channels inside the cyclic component of the lowest
    /// channel that has one (breadth-first, so a shortest one through it).
    pub fn one_cycle(&self, net: &Net, sccs: &Sccs) -> Vec<u32> {
        let Some(start) = (0..sccs.comp.len() as u32).find(|&c| sccs.in_cycle(c)) else {
            return Vec::new();
        };
        let id = sccs.comp[start as usize];
        let mut prev = std::collections::HashMap::new();
        let mut queue = std::collections::VecDeque::from([start]);
        while let Some(v) = queue.pop_front() {
            for w in self.succ(net, v) {
                if sccs.comp[w as usize] != id {
                    continue;
                }
                if w == start {
                    let mut path = vec![v];
                    while let Some(&p) = prev.get(path.last().unwrap()) {
                        path.push(p);
                    }
                    path.reverse();
                    return path;
                }
                if let std::collections::hash_map::Entry::Vacant(e) = prev.entry(w) {
                    e.insert(v);
                    queue.push_back(w);
                }
            }
        }
        vec![start]
    }
}

const UNSEEN: u32 = u32::MAX;

/// Tarjan's working state; frames are (channel, the switch it leads to,
/// its arrival port, the next out port to try).
struct Tarjan {
    index: Vec<u32>,
    low: Vec<u32>,
    comp: Vec<u32>,
    on: Vec<bool>,
    st: Vec<u32>,
    call: Vec<(u32, u32, u8, u16)>,
    next: u32,
}

impl Tarjan {
    fn enter(&mut self, net: &Net, v: u32) {
        self.index[v as usize] = self.next;
        self.low[v as usize] = self.next;
        self.next += 1;
        self.st.push(v);
        self.on[v as usize] = true;
        let (w, pin) = Counts::head(net, v);
        self.call.push((v, w, pin, 0));
    }
}

/// Strongly connected components of the channel graph.
pub(super) struct Sccs {
    comp: Vec<u32>,
    cyclic: Vec<bool>,
    lanes: usize,
}

impl Sccs {
    /// Whether channel `c` (of some lane) lies on a cycle.
    pub fn in_cycle(&self, c: u32) -> bool {
        c != NO_CHANNEL && self.cyclic[self.comp[c as usize] as usize]
    }

    /// Whether the link channel `c` (of `net`) lies on a cycle of any lane.
    pub fn in_cycle_on_any_lane(&self, net: &Net, c: u32) -> bool {
        c != NO_CHANNEL
            && (0..self.lanes).any(|l| self.in_cycle((l * net.chan_of.len()) as u32 + c))
    }
}
