//! The least-hop port sets of one switch, grouped: every destination switch
//! `x` maps to one of a few distinct port sets (in a fat tree: "all up
//! ports", or the one down port towards `x`), so the port choice of
//! algorithms.md §2.2 works on a handful of sets instead of a port list per
//! destination.
//!
//! A set is *own* when no other set whose destinations move counters (a
//! switch with CAs behind it; switch LIDs count nothing) shares one of its
//! ports: only its own destinations then move its ports' counters, each by
//! one, and all counters start at 0 on every switch
//! (`ucast_mgr_process_tbl`). The rule "least counter, lowest port on a
//! tie" then hands its ports out strictly in turn, so its next port is a
//! rotating index, with no scan over the counters. Other sets keep
//! OpenSM's scan (`assign.rs`).

use std::collections::HashMap;

use super::assign::LeastHops;
use super::{NO_PATH, SwitchGraph};

/// Set id of destinations with no least-hop port (unreachable, or the
/// switch itself).
pub const NO_SET: u16 = u16::MAX;

/// Most distinct neighbours one mask can describe; switches with more take
/// the per-destination lists (`Grouping::Lists`).
const MAX_NEIGHBOURS: usize = 64;

/// Per-thread buffers for one switch's sets, reused from switch to switch.
#[derive(Default)]
pub(super) struct PortSets {
    /// Set of each destination switch, or [`NO_SET`].
    pub set_of: Vec<u16>,
    /// Ports of set `i`: `ports[first[i]..first[i + 1]]`, ascending.
    pub first: Vec<u32>,
    pub ports: Vec<u8>,
    /// Whether set `i` shares no port with another set (round-robin).
    pub own: Vec<bool>,
    /// Next index into an own set's ports.
    pub next: Vec<u32>,
    /// Least-hop neighbours of the switch towards each destination, one bit
    /// per distinct neighbour switch.
    masks: Vec<u64>,
    /// Neighbour bit of each port-end of the switch.
    bit_of_end: Vec<u8>,
    /// Eight neighbour bits per destination ([`least_masks_by_rows`]).
    plane: Vec<u8>,
    ids: HashMap<u64, u16>,
}

impl PortSets {
    /// The ports of set `sid`.
    #[inline]
    pub fn set(&self, sid: u16) -> &[u8] {
        let i = sid as usize;
        &self.ports[self.first[i] as usize..self.first[i + 1] as usize]
    }

    /// Whether a counter scan can matter on this switch: some set that is
    /// not own has two ports or more (a one-port scan reads no counter).
    pub fn scans_counters(&self) -> bool {
        (0..self.own.len()).any(|i| !self.own[i] && self.first[i + 1] - self.first[i] > 1)
    }

    /// Groups the least-hop ports of switch `s` towards every switch.
    /// Returns false (sets left unusable) when `s` has more than
    /// [`MAX_NEIGHBOURS`] distinct neighbour switches.
    /// `counted[x]` tells whether routes to switch `x` move counters (CAs
    /// are cabled to it).
    pub fn load(
        &mut self,
        g: &SwitchGraph,
        hops: &impl LeastHops,
        s: usize,
        counted: &[bool],
    ) -> bool {
        let ends = g.ends(s);
        self.bit_of_end.clear();
        let mut neighbours: Vec<u32> = Vec::new();
        for e in ends.clone() {
            let v = g.nbr[e];
            let bit = match neighbours.iter().position(|&w| w == v) {
                Some(b) => b,
                None => {
                    neighbours.push(v);
                    neighbours.len() - 1
                }
            };
            self.bit_of_end.push(bit as u8);
        }
        if neighbours.len() > MAX_NEIGHBOURS {
            return false;
        }
        let n = g.num_switches();
        self.masks.clear();
        self.masks.resize(n, 0);
        match hops.distances() {
            Some(dist) => {
                least_masks_by_rows(dist, s, &neighbours, &mut self.masks, &mut self.plane)
            }
            None => self.least_masks_by_ends(g, hops, s),
        }
        self.group(g, s, counted);
        true
    }

    /// The generic way: ask `on_least_path` for every (destination, port-end).
    fn least_masks_by_ends(&mut self, g: &SwitchGraph, hops: &impl LeastHops, s: usize) {
        let ends = g.ends(s);
        for (x, mask) in self.masks.iter_mut().enumerate() {
            let least = hops.least(s, x);
            if least == NO_PATH || x == s {
                continue;
            }
            for (i, e) in ends.clone().enumerate() {
                if hops.on_least_path(e, x, least) {
                    *mask |= 1 << self.bit_of_end[i];
                }
            }
        }
    }

    /// Turns the masks into set ids, port lists and the own flags.
    fn group(&mut self, g: &SwitchGraph, s: usize, counted: &[bool]) {
        self.ids.clear();
        self.set_of.clear();
        self.set_of.resize(self.masks.len(), NO_SET);
        self.first.clear();
        self.ports.clear();
        let mut masks_of_sets: Vec<u64> = Vec::new();
        let mut set_counted: Vec<bool> = Vec::new();
        let (mut last_mask, mut last_id) = (0u64, NO_SET);
        let mut by_bit = [NO_SET; MAX_NEIGHBOURS];
        let slots = self.set_of.iter_mut().zip(&self.masks).zip(counted);
        for ((set_of, &mask), &moves) in slots {
            let id = if mask == 0 {
                NO_SET
            } else if mask == last_mask {
                last_id
            } else {
                // One-port masks (down towards one switch) by their bit,
                // the rest hashed: most masks change from one destination
                // to the next on a leaf (issue 17).
                let slot = if mask & (mask - 1) == 0 {
                    &mut by_bit[mask.trailing_zeros() as usize]
                } else {
                    self.ids.entry(mask).or_insert(NO_SET)
                };
                if *slot == NO_SET {
                    *slot = masks_of_sets.len() as u16;
                    masks_of_sets.push(mask);
                    set_counted.push(false);
                }
                (last_mask, last_id) = (mask, *slot);
                last_id
            };
            if id != NO_SET && moves {
                set_counted[id as usize] = true;
            }
            *set_of = id;
        }
        let ends = g.ends(s);
        // Neighbour bits used by at least one / two counter-moving sets.
        let (mut once, mut twice) = (0u64, 0u64);
        for (&mask, &moves) in masks_of_sets.iter().zip(&set_counted) {
            self.first.push(self.ports.len() as u32);
            for (i, e) in ends.clone().enumerate() {
                if mask >> self.bit_of_end[i] & 1 == 1 {
                    self.ports.push(g.port[e]);
                }
            }
            if moves {
                twice |= once & mask;
                once |= mask;
            }
        }
        self.first.push(self.ports.len() as u32);
        self.own.clear();
        // No counter mover other than the set itself on any of its bits.
        self.own.extend(
            masks_of_sets
                .iter()
                .zip(&set_counted)
                .map(|(&m, &moves)| m & if moves { twice } else { once } == 0),
        );
        self.next.clear();
        self.next.resize(masks_of_sets.len(), 0);
    }
}

/// Min-hop masks from whole distance rows: neighbour `v` is on a least-hop
/// path from `s` to `x` when `dist(v, x) + 1 == dist(s, x)`. Rows are
/// symmetric (`SwitchHops`), so each comparison runs along two contiguous
/// rows. The bits of eight neighbours are first gathered in a byte per
/// destination (`plane`: byte-wide lanes vectorise eight times wider than
/// the 64-bit masks), then shifted into place once per eight neighbours.
fn least_masks_by_rows(
    dist: &super::hops::Distances,
    s: usize,
    neighbours: &[u32],
    masks: &mut [u64],
    plane: &mut Vec<u8>,
) {
    let own = dist.row(s);
    plane.clear();
    plane.resize(own.len(), 0);
    for (k, eight) in neighbours.chunks(8).enumerate() {
        plane.fill(0);
        for (b, &v) in eight.iter().enumerate() {
            let row = dist.row(v as usize);
            for ((p, &d), &least) in plane.iter_mut().zip(row).zip(own) {
                *p |= u8::from(d.wrapping_add(1) == least) << b;
            }
        }
        for (m, &p) in masks.iter_mut().zip(plane.iter()) {
            *m |= u64::from(p) << (8 * k);
        }
    }
    for (m, &least) in masks.iter_mut().zip(own) {
        if least == NO_PATH {
            *m = 0;
        }
    }
    masks[s] = 0;
}

#[cfg(test)]
mod tests;
