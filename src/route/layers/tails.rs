//! Shared tails in the passes over the pending paths ([`super::pending`]).
//! The paths toward one LID form an in-tree ([`super::tree`]): the path
//! from a switch is its first turn followed by the path from the next
//! switch. The seed and layer 1's first-fit pass walk every pending path
//! (2.9 M on the 27,648-host RLFT with aggregation nodes, four to six hops
//! each); both only need each switch's part of the tree once per LID.
//!
//! - First fit ([`Tails`]): once a path is on layer 1, the rest of the path
//!   from each switch it crosses is on it too, and stays there (layer 1's
//!   graph only grows during its pass: a refused path takes back only the
//!   turns it added itself). A later path toward the same LID is walked up
//!   to the turn into the first such switch; the turns it skips are present,
//!   so `try_insert` would have passed over them, and the outcome and the
//!   refused turn are those of the whole walk.
//! - Seed ([`seed_run`]): toward one LID a turn is fixed by the switch its
//!   arriving channel leaves, so its path weight is the weight of the
//!   pending sources behind that switch. Each switch is walked once (in the
//!   order a path-by-path walk first meets it, which is the order its turn
//!   first appears), and the sources' weights flow down the tree, farthest
//!   switches first.

use super::PathRef;
use super::paths::{Col, HOP_LIMIT, PathWalk, Turn};

/// Layer 1's knowledge, toward the LID being placed, of the switches whose
/// whole rest of path is on the layer.
pub(super) struct Tails {
    /// Per switch: the run (of pending paths toward one LID) that marked it.
    mark: Vec<u32>,
    run: u32,
    lid: Option<crate::model::Lid>,
    /// The switches the last walk crossed before a marked one.
    crossed: Vec<u32>,
    /// Whether the last walk reached its end or a marked switch (not the
    /// hop limit).
    whole: bool,
}

impl Tails {
    pub fn new(switches: usize) -> Self {
        Tails {
            mark: vec![0; switches],
            run: 0,
            lid: None,
            crossed: Vec::new(),
            whole: false,
        }
    }

    /// The turns of the path from `src` toward `lid` along `col` into
    /// `out`, up to the turn into the first switch whose rest is on the
    /// layer (the whole path when there is none): [`PathWalk::path_turns`]
    /// without the tail the layer holds.
    pub fn head_turns(
        &mut self,
        walk: &PathWalk,
        col: Col,
        lid: crate::model::Lid,
        src: u32,
        out: &mut Vec<Turn>,
    ) {
        if self.lid != Some(lid) {
            self.lid = Some(lid);
            self.run = self.run.wrapping_add(1);
            if self.run == 0 {
                self.mark.fill(0);
                self.run = 1;
            }
        }
        self.crossed.clear();
        self.whole = false;
        let (mut cur, mut prev) = (src, None);
        for _ in 0..HOP_LIMIT {
            let Some(chan) = col.hop(cur) else {
                self.whole = true;
                return;
            };
            if let Some(from) = prev {
                out.push(walk.turn(from, chan));
            }
            if self.mark[cur as usize] == self.run {
                self.whole = true;
                return;
            }
            self.crossed.push(cur);
            prev = Some(chan);
            cur = walk.far(chan);
        }
    }

    /// The last path walked went on the layer: the rest of the path from
    /// every switch it crossed is there now. A path cut at the hop limit
    /// marks nothing (the rest from a switch on it may reach further).
    pub fn taken(&mut self) {
        if self.whole {
            for &s in &self.crossed {
                self.mark[s as usize] = self.run;
            }
        }
    }
}

/// Per switch scratch of [`seed_run`].
pub(super) struct SeedTree {
    seen: Vec<u32>,
    stamp: u32,
    /// Hops from the switch to the end of its path (`u32::MAX` while the
    /// walk that met it is still under way).
    dist: Vec<u32>,
    /// Weight of the pending sources whose paths cross the switch.
    acc: Vec<u64>,
    /// Switches in the order the path-by-path walk first meets them.
    met: Vec<u32>,
    segment: Vec<u32>,
    by_dist: Vec<Vec<u32>>,
}

impl SeedTree {
    pub fn new(switches: usize) -> Self {
        SeedTree {
            seen: vec![0; switches],
            stamp: 0,
            dist: vec![0; switches],
            acc: vec![0; switches],
            met: Vec::new(),
            segment: Vec::new(),
            by_dist: vec![Vec::new(); HOP_LIMIT + 1],
        }
    }

    /// Adds the path weight of `run` (pending paths toward one LID, column
    /// `col`) to the turns' weights, `distinct` getting the turns seen for
    /// the first time, in the order a path-by-path walk meets them. `false`
    /// (and nothing changed) when some path loops or is longer than the
    /// hop limit: the walk's cut there is left to the path-by-path sum.
    pub fn run(
        &mut self,
        walk: &PathWalk,
        col: Col,
        run: &[PathRef],
        weight: &mut [u64],
        distinct: &mut Vec<Turn>,
    ) -> bool {
        if !self.meet(walk, col, run) {
            return false;
        }
        for b in &mut self.by_dist {
            b.clear();
        }
        for &s in &self.met {
            self.by_dist[self.dist[s as usize] as usize].push(s);
        }
        for d in (1..self.by_dist.len()).rev() {
            for &s in &self.by_dist[d] {
                if let Some(c) = col.hop(s) {
                    let w = self.acc[s as usize];
                    self.acc[walk.far(c) as usize] += w;
                }
            }
        }
        for &s in &self.met {
            let Some(c) = col.hop(s) else { continue };
            if let Some(next) = col.hop(walk.far(c)) {
                let t = walk.turn(c, next);
                if weight[t.id] == 0 {
                    distinct.push(t);
                }
                weight[t.id] += self.acc[s as usize];
            }
        }
        true
    }

    /// Walks each switch of `run`'s paths once: `met`, `dist`, and the
    /// sources' own weights in `acc`. `false` on a loop or an over-long path.
    fn meet(&mut self, walk: &PathWalk, col: Col, run: &[PathRef]) -> bool {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.seen.fill(0);
            self.stamp = 1;
        }
        self.met.clear();
        for &(src, _, w) in run {
            self.segment.clear();
            let mut cur = src;
            let end = loop {
                if self.seen[cur as usize] == self.stamp {
                    match self.dist[cur as usize] {
                        u32::MAX => return false, // a loop
                        d => break d + 1,
                    }
                }
                self.seen[cur as usize] = self.stamp;
                self.dist[cur as usize] = u32::MAX;
                self.acc[cur as usize] = 0;
                self.segment.push(cur);
                match col.hop(cur) {
                    Some(c) => cur = walk.far(c),
                    None => break 0,
                }
            };
            // `end`: hops from the segment's last switch to the path's end
            let last = self.segment.len().saturating_sub(1);
            for (i, &s) in self.segment.iter().enumerate() {
                self.dist[s as usize] = end + (last - i) as u32;
            }
            if self.dist[src as usize] as usize > HOP_LIMIT {
                return false;
            }
            self.met.extend_from_slice(&self.segment);
            self.acc[src as usize] += w;
        }
        true
    }
}
