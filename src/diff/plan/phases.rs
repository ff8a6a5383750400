//! Ordering an upload into phases that are safe at every step.
//!
//! Seed `opensm-unicast-routing-enhancements-2005.txt` §6 re-routes only
//! what a change touches and leaves the rest; this is the other half of
//! that job: getting the changed entries onto the switches without a
//! forwarding loop or a credit loop on the way. A phase is a set of
//! entries written in parallel, so during a phase each of its entries may
//! read old or new ([`BOTH`]), earlier phases' entries read new and later
//! ones old. A phase is accepted only if that union state has no
//! forwarding cycle for any destination and an acyclic channel dependency
//! graph, which covers every mixture the phase passes through and packets
//! that enter a switch on an old route and leave on a new one.
//!
//! Candidates for a phase follow the new trees in reverse topological
//! order: an entry is written only once every switch its new route leads
//! through holds its new entry (is *settled*), so a packet that takes a new
//! entry follows new entries to its destination and cannot loop. Entries
//! whose new channel lies on a dependency cycle are held back for a later
//! phase; if that leaves nothing, candidates are tried one by one (at most
//! [`TRIALS`]), and when none fits the plan is blocked at that state.

use rayon::prelude::*;

use super::cdg::Counts;
use super::net::{Hop, Target};
use super::order::Order;
use super::walk::{BOTH, DestWalk, NEW, OLD, Scratch, Tables, View};

/// Single-entry trials in one phase at most (a bound on the time a phase
/// takes; each trial walks one destination and searches between two
/// ranks of the order).
pub(super) const TRIALS: usize = 1 << 16;

/// Destinations walked at once (bounds the turn lists held in memory).
const CHUNK: usize = 1024;

/// A (target index, switch) entry.
pub(super) type Entry = (u32, u32);

/// What stopped an upload state from being safe.
#[derive(Clone, Debug)]
pub(super) enum Unsafe {
    /// A forwarding cycle for target `t` through these switches.
    Loop { t: u32, switches: Vec<u32> },
    /// A channel dependency cycle (channels in order).
    Credit(Vec<u32>),
}

/// The upload state and its channel dependency counts.
pub(super) struct Planner<'a> {
    pub tables: Tables<'a>,
    pub targets: &'a [Target],
    pub counts: Counts,
}

impl<'a> Planner<'a> {
    /// Counts the turns of every target read by `view`; the first
    /// forwarding cycle met is returned.
    pub fn count_all(&mut self, view: View) -> Option<Unsafe> {
        let all: Vec<u32> = (0..self.targets.len() as u32).collect();
        let mut first = None;
        for chunk in all.chunks(CHUNK) {
            for (&t, w) in chunk.iter().zip(self.walks(chunk, view)) {
                self.counts.add(&w.turns);
                if let (None, Some(sw)) = (&first, w.cycle) {
                    first = Some(Unsafe::Loop { t, switches: sw });
                }
            }
        }
        first
    }

    fn walks(&self, ts: &[u32], view: View) -> Vec<DestWalk> {
        let nsw = self.tables.net.nsw;
        ts.par_iter()
            .map_init(
                || Scratch::new(nsw),
                |sc, &t| self.tables.walk(&self.targets[t as usize], view, sc),
            )
            .collect()
    }

    /// Sets the state of `entries`, updating the counts of their targets;
    /// returns the first forwarding cycle of the new state.
    pub fn set(&mut self, entries: &[Entry], mode: u8) -> Option<Unsafe> {
        self.set_noting(entries, mode, &mut Vec::new())
    }

    /// [`Planner::set`], noting in `fresh` the turns the new state takes
    /// that the old one did not (`Counts::add_noting`).
    fn set_noting(&mut self, entries: &[Entry], mode: u8, fresh: &mut Vec<u32>) -> Option<Unsafe> {
        let mut ts: Vec<u32> = entries.iter().map(|e| e.0).collect();
        ts.dedup();
        ts.sort_unstable();
        ts.dedup();
        let mut first = None;
        for chunk in ts.chunks(CHUNK) {
            for w in self.walks(chunk, View::Modes) {
                self.counts.remove(&w.turns);
            }
        }
        for &(t, s) in entries {
            let lid = self.targets[t as usize].lid;
            self.tables.set_mode(s, lid, mode);
        }
        for chunk in ts.chunks(CHUNK) {
            for (&t, w) in chunk.iter().zip(self.walks(chunk, View::Modes)) {
                self.counts.add_noting(&w.turns, fresh);
                if let (None, Some(sw)) = (&first, w.cycle) {
                    first = Some(Unsafe::Loop { t, switches: sw });
                }
            }
        }
        first
    }

    /// Whether the current state is safe, or what is wrong with it.
    pub fn check(&self, looped: Option<Unsafe>) -> Option<Unsafe> {
        looped.or_else(|| {
            let sccs = self.counts.cycles(self.tables.net)?;
            Some(Unsafe::Credit(
                self.counts.one_cycle(self.tables.net, &sccs),
            ))
        })
    }

    /// Entries not yet written, per target.
    pub fn pending(&self) -> Vec<Entry> {
        let nsw = self.tables.net.nsw as u32;
        (0..self.targets.len() as u32)
            .into_par_iter()
            .flat_map_iter(|t| {
                let lid = self.targets[t as usize].lid;
                (0..nsw)
                    .filter(move |&s| self.tables.is_pending(s, lid))
                    .map(move |s| (t, s))
            })
            .collect()
    }

    /// Pending entries whose new route leads only through settled switches.
    pub fn eligible(&self, pending: &[Entry]) -> Vec<Entry> {
        let nsw = self.tables.net.nsw;
        let by_t = pending.chunk_by(|a, b| a.0 == b.0).collect::<Vec<_>>();
        by_t.par_iter()
            .map_init(
                || vec![0u8; nsw],
                |memo, group| {
                    let lid = self.targets[group[0].0 as usize].lid;
                    let out: Vec<Entry> = group
                        .iter()
                        .copied()
                        .filter(|&(_, s)| self.leads_settled(s, lid, memo))
                        .collect();
                    memo.iter_mut().for_each(|m| *m = 0);
                    out
                },
            )
            .flatten()
            .collect()
    }

    /// Whether the new entry of `s` leads to the end through switches that
    /// all hold their new entry (memo: 0 unknown, 1 walking, 2 yes, 3 no).
    fn leads_settled(&self, s: u32, lid: crate::model::Lid, memo: &mut [u8]) -> bool {
        let (tb, net) = (&self.tables, self.tables.net);
        let mut path = Vec::new();
        let mut cur = net.hop(s, tb.rows.new_port(s, lid));
        let verdict = loop {
            let Hop::Switch { sw: w, .. } = cur else {
                break 2;
            };
            match memo[w as usize] {
                2 | 3 => break memo[w as usize],
                1 => break 3,
                _ => {}
            }
            if tb.is_pending(w, lid) {
                memo[w as usize] = 3;
                break 3;
            }
            memo[w as usize] = 1;
            path.push(w);
            cur = net.hop(w, tb.rows.new_port(w, lid));
        };
        path.iter().for_each(|&w| memo[w as usize] = verdict);
        verdict == 2
    }

    /// Makes one phase out of `cands` (all currently `OLD`): the entries
    /// written, or, when none can be, what each first trial ran into.
    pub fn phase(&mut self, cands: &[Entry]) -> Result<Vec<Entry>, Unsafe> {
        if self.set(cands, BOTH).is_some() {
            // Cannot happen for settled candidates (see above); be safe anyway.
            self.set(cands, OLD);
            return self.trials(cands);
        }
        self.narrow(cands.to_vec(), cands)
    }

    /// Holds back entries whose new channel lies on a dependency cycle until
    /// the state is acyclic; falls back to single trials when nothing is left.
    fn narrow(&mut self, mut live: Vec<Entry>, cands: &[Entry]) -> Result<Vec<Entry>, Unsafe> {
        let net = self.tables.net;
        loop {
            let Some(sccs) = self.counts.cycles(net) else {
                if !live.is_empty() {
                    return Ok(live);
                }
                break;
            };
            let (back, keep): (Vec<Entry>, Vec<Entry>) = live.iter().partition(|&&(t, s)| {
                let lid = self.targets[t as usize].lid;
                sccs.in_cycle_on_any_lane(net, net.chan(s, self.tables.rows.new_port(s, lid)))
            });
            if back.is_empty() || keep.is_empty() {
                self.set(&live, OLD);
                live.clear();
                break;
            }
            self.set(&back, OLD);
            live = keep;
        }
        self.trials(cands)
    }

    /// Tries candidates one at a time, keeping each that leaves the state
    /// safe. The state they start from is safe (the last accepted one), so
    /// a trial is judged by the dependencies it adds, against a topological
    /// order of the graph kept up to date (`order.rs`), rather than by a
    /// search of every lane's whole graph; and its target is walked once,
    /// its turns before the trial being those the previous trial of the
    /// same target left. The first failure is still described by the whole
    /// search. Production-like fabric, ten cut cables, 4 lanes: 58 s with
    /// a Tarjan search per trial and at most 256 trials a phase (36
    /// phases), 2.3 s with every candidate tried (5 phases).
    fn trials(&mut self, cands: &[Entry]) -> Result<Vec<Entry>, Unsafe> {
        let (mut kept, mut first) = (Vec::new(), None);
        let mut order = Order::of(&self.counts, self.tables.net);
        let mut sc = Scratch::new(self.tables.net.nsw);
        // the turns of target `.0` in the current state
        let mut now: Option<(u32, Vec<u32>)> = None;
        let mut fresh = Vec::new();
        for &(t, s) in cands.iter().take(TRIALS) {
            let target = self.targets[t as usize];
            let before = match now.take() {
                Some((u, turns)) if u == t => turns,
                _ => self.tables.walk(&target, View::Modes, &mut sc).turns,
            };
            self.counts.remove(&before);
            self.tables.set_mode(s, target.lid, BOTH);
            let after = self.tables.walk(&target, View::Modes, &mut sc);
            fresh.clear();
            self.counts.add_noting(&after.turns, &mut fresh);
            let looped = after.cycle.map(|sw| Unsafe::Loop { t, switches: sw });
            let verdict = match (&mut order, looped) {
                (Some(o), None) => match o.take_in(&self.counts, self.tables.net, &fresh) {
                    true => Ok(()),
                    false => Err(None),
                },
                (Some(_), Some(l)) => Err(Some(l)),
                (None, looped) => self.check(looped).map_or(Ok(()), |u| Err(Some(u))),
            };
            match verdict {
                Ok(()) => {
                    kept.push((t, s));
                    now = Some((t, after.turns));
                }
                Err(why) => {
                    if first.is_none() {
                        first = why.or_else(|| self.check(None));
                    }
                    self.counts.remove(&after.turns);
                    self.tables.set_mode(s, target.lid, OLD);
                    self.counts.add(&before);
                    now = Some((t, before));
                }
            }
        }
        if kept.is_empty() {
            return Err(first.unwrap_or(Unsafe::Credit(Vec::new())));
        }
        Ok(kept)
    }

    /// Marks a phase's entries written.
    pub fn commit(&mut self, entries: &[Entry]) {
        self.set(entries, NEW);
    }
}
