//! A topological order of the channel dependency graph kept up to date
//! as the planner's single-entry trials add dependencies (Pearce & Kelly,
//! "A dynamic topological sort algorithm for directed acyclic graphs",
//! JEA 2006).
//!
//! Why: a trial changes the state of one entry, which adds a few turns to
//! graphs of tens of thousands of channels. Searching each lane's whole
//! graph for a cycle per trial (Tarjan) made a ten-cable plan of the
//! production-like fabric take a minute; searching forward from every
//! added turn still crossed most of a lane. With an order at hand, a turn
//! that goes forward in it cannot close a cycle, and one that goes
//! backward is searched only between its two ends' ranks, where the
//! order is then repaired. Taking dependencies away never invalidates an
//! order, so a trial that is undone needs no repair.

use super::cdg::Counts;
use super::net::Net;

/// The order and the working memory of its searches.
pub(super) struct Order {
    /// Per channel (all lanes): its rank; distinct, and smaller at the
    /// tail of every dependency than at its head.
    rank: Vec<u32>,
    /// Per channel: the stamp of the last search that reached it.
    seen: Vec<u32>,
    stamp: u32,
    stack: Vec<u32>,
    forward: Vec<u32>,
    backward: Vec<u32>,
    /// The ranks [`Order::reorder`] hands out again.
    pool: Vec<u32>,
}

impl Order {
    /// The order of the current graph, or `None` when it has a cycle.
    pub fn of(counts: &Counts, net: &Net) -> Option<Order> {
        let rank = counts.topological(net)?;
        Some(Order {
            seen: vec![0; rank.len()],
            rank,
            stamp: 0,
            stack: Vec::new(),
            forward: Vec::new(),
            backward: Vec::new(),
            pool: Vec::new(),
        })
    }

    /// Takes in the dependencies of the turns `fresh` (added to the graph
    /// this order was valid for): `false` when one of them closes a cycle.
    /// The order stays valid for the graph without the turns not yet
    /// taken in, so it stays valid when they are all taken back out.
    pub fn take_in(&mut self, counts: &Counts, net: &Net, fresh: &[u32]) -> bool {
        fresh.iter().all(|&t| {
            if !counts.taken(t) {
                return true;
            }
            match Counts::turn_channels(net, t) {
                Some((from, to)) => self.add(counts, net, from, to),
                None => true,
            }
        })
    }

    /// Adds the dependency `from` → `to`; `false` when it closes a cycle.
    fn add(&mut self, counts: &Counts, net: &Net, from: u32, to: u32) -> bool {
        let (lo, hi) = (self.rank[to as usize], self.rank[from as usize]);
        if hi < lo {
            return true;
        }
        if from == to {
            return false;
        }
        // forward from `to` among ranks below `hi`: reaching `from` closes
        // a cycle
        let fwd = self.next_stamp();
        self.forward.clear();
        self.stack.clear();
        self.stack.push(to);
        self.seen[to as usize] = fwd;
        while let Some(c) = self.stack.pop() {
            self.forward.push(c);
            for d in counts.succ(net, c) {
                let r = self.rank[d as usize];
                if d == from {
                    return false;
                }
                if r < hi && self.seen[d as usize] != fwd {
                    self.seen[d as usize] = fwd;
                    self.stack.push(d);
                }
            }
        }
        // backward from `from` among ranks above `lo`
        let back = self.next_stamp();
        self.backward.clear();
        self.stack.push(from);
        self.seen[from as usize] = back;
        while let Some(c) = self.stack.pop() {
            self.backward.push(c);
            for d in counts.pred(net, c) {
                if self.rank[d as usize] > lo && self.seen[d as usize] != back {
                    self.seen[d as usize] = back;
                    self.stack.push(d);
                }
            }
        }
        self.reorder();
        true
    }

    /// Gives the channels reached backward the lowest of the ranks both
    /// searches hold, in their old order, then those reached forward.
    fn reorder(&mut self) {
        let rank = &mut self.rank;
        self.backward.sort_unstable_by_key(|&c| rank[c as usize]);
        self.forward.sort_unstable_by_key(|&c| rank[c as usize]);
        let pool = &mut self.pool;
        pool.clear();
        pool.extend(
            self.backward
                .iter()
                .chain(&self.forward)
                .map(|&c| rank[c as usize]),
        );
        pool.sort_unstable();
        for (&c, &r) in self.backward.iter().chain(&self.forward).zip(pool.iter()) {
            rank[c as usize] = r;
        }
    }

    fn next_stamp(&mut self) -> u32 {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.seen.iter_mut().for_each(|x| *x = 0);
            self.stamp = 1;
        }
        self.stamp
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::torus::{TorusSpec, torus};
    use rand::{Rng, SeedableRng};

    /// Turns added one at a time to a 4×4 torus's channel graph (two
    /// lanes), in random order: the order's verdict on each is Tarjan's on
    /// the whole graph (a turn that closes a cycle is taken back out, as
    /// the planner undoes a trial), and the ranks stay a topological order.
    #[test]
    fn verdicts_are_tarjans() {
        let fabric = torus(&TorusSpec {
            dims: vec![4, 4],
            wrap: true,
            hosts: 1,
        })
        .unwrap();
        let net = Net::new(&fabric);
        for seed in 0..8 {
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            let mut counts = Counts::new(&net, 2);
            let mut order = Order::of(&counts, &net).expect("no turn, no cycle");
            let (mut kept, mut refused) = (0, 0);
            for _ in 0..1500 {
                let t = rng.random_range(0..2 * net.num_turns()) as u32;
                if Counts::turn_channels(&net, t).is_none() || counts.taken(t) {
                    continue;
                }
                counts.add(&[t]);
                let acyclic = counts.topological(&net).is_some();
                assert_eq!(order.take_in(&counts, &net, &[t]), acyclic, "seed {seed}");
                if acyclic {
                    kept += 1;
                } else {
                    refused += 1;
                    counts.remove(&[t]);
                }
                for c in 0..order.rank.len() as u32 {
                    for d in counts.succ(&net, c) {
                        assert!(order.rank[c as usize] < order.rank[d as usize]);
                    }
                }
            }
            assert!(
                kept > 100 && refused > 50,
                "seed {seed}: {kept} kept, {refused} refused"
            );
        }
    }
}
