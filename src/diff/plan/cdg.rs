//! The channel dependency graph of an upload state and its cycles (Dally &
//! Seitz: a deterministic routing is deadlock-free iff this graph is
//! acyclic). Each turn is counted once per destination that takes it, so
//! one destination's turns can be taken back out when its state changes.
//! One VL: a cycle on any VL is a cycle here, so "acyclic" is sufficient.

use super::net::{Hop, NO_CHANNEL, Net};

/// How many destinations take each turn (`Net::turn` indices).
pub(super) struct Counts(Vec<u32>);

impl Counts {
    pub fn new(net: &Net) -> Counts {
        Counts(vec![0; net.num_turns()])
    }

    pub fn add(&mut self, turns: &[u32]) {
        turns.iter().for_each(|&t| self.0[t as usize] += 1);
    }

    pub fn remove(&mut self, turns: &[u32]) {
        turns.iter().for_each(|&t| self.0[t as usize] -= 1);
    }

    /// Channels a packet on channel `c` may continue on.
    fn succ<'a>(&'a self, net: &'a Net, c: u32) -> impl Iterator<Item = u32> + 'a {
        let (u, pu) = net.chan_of[c as usize];
        let (w, pin) = match net.hop(u, pu) {
            Hop::Switch { sw, port } => (sw, port),
            _ => (0, 0),
        };
        (0..net.width(w) as u8)
            .filter(move |&po| self.0[net.turn(w, pin, po) as usize] > 0)
            .map(move |po| net.chan(w, po))
            .filter(|&c| c != NO_CHANNEL)
    }

    /// Strongly connected components (iterative Tarjan); `None` when the
    /// graph is acyclic.
    pub fn cycles(&self, net: &Net) -> Option<Sccs> {
        let n = net.chan_of.len();
        const UNSEEN: u32 = u32::MAX;
        let (mut index, mut low, mut comp) = (vec![UNSEEN; n], vec![0u32; n], vec![UNSEEN; n]);
        let (mut on, mut st, mut cyclic) = (vec![false; n], Vec::new(), Vec::new());
        let mut next = 0u32;
        for root in 0..n as u32 {
            if index[root as usize] != UNSEEN {
                continue;
            }
            let mut call: Vec<(u32, Vec<u32>, usize)> = Vec::new();
            let visit = |v: u32, idx: &mut [u32], low: &mut [u32], next: &mut u32| {
                idx[v as usize] = *next;
                low[v as usize] = *next;
                *next += 1;
            };
            visit(root, &mut index, &mut low, &mut next);
            st.push(root);
            on[root as usize] = true;
            call.push((root, self.succ(net, root).collect(), 0));
            while let Some((v, succ, i)) = call.last_mut() {
                let v = *v;
                if let Some(&w) = succ.get(*i) {
                    *i += 1;
                    if index[w as usize] == UNSEEN {
                        visit(w, &mut index, &mut low, &mut next);
                        st.push(w);
                        on[w as usize] = true;
                        call.push((w, self.succ(net, w).collect(), 0));
                    } else if on[w as usize] {
                        low[v as usize] = low[v as usize].min(index[w as usize]);
                    }
                    continue;
                }
                call.pop();
                if let Some((p, _, _)) = call.last() {
                    low[*p as usize] = low[*p as usize].min(low[v as usize]);
                }
                if low[v as usize] == index[v as usize] {
                    let id = cyclic.len() as u32;
                    let mut size = 0;
                    while let Some(x) = st.pop() {
                        on[x as usize] = false;
                        comp[x as usize] = id;
                        size += 1;
                        if x == v {
                            break;
                        }
                    }
                    cyclic.push(size > 1);
                }
            }
        }
        cyclic.iter().any(|&c| c).then_some(Sccs { comp, cyclic })
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

/// Strongly connected components of the channel graph.
pub(super) struct Sccs {
    comp: Vec<u32>,
    cyclic: Vec<bool>,
}

impl Sccs {
    /// Whether channel `c` lies on a cycle.
    pub fn in_cycle(&self, c: u32) -> bool {
        c != NO_CHANNEL && self.cyclic[self.comp[c as usize] as usize]
    }
}
