//! Link weights of the balanced shortest-path engine: the GM-2 mapper's
//! "link costs incremented for each route that goes across them"
//! (seed `myrinet-gm2-mapper.txt`, "Routing" and "Route Computation"),
//! with IB LMC's per-offset penalty on top.
//!
//! A route's cost is compared lexicographically as (switch hops, LMC
//! penalty, load):
//! * hops first, so every route is a shortest path in hops (the engine
//!   balances among shortest paths, like OpenSM's sssp, whose P² base
//!   weight serves the same purpose; long detours would cost VLs and
//!   latency, and GM-2 treats long routes as fatal);
//! * then the penalty: how many earlier LID offsets of the same
//!   destination port crossed the link, so the 2^LMC trees of a port
//!   differ wherever the fabric has shortest-path alternatives
//!   (the seed's "multiple routes … for dispersive routing");
//! * then the load: how many (source port, destination LID) routes already
//!   cross the link.
//!
//! Hops are the BFS level of the tree walk (`tree.rs`); penalty and load
//! share one `u64` per directed link, penalty in the top 16 bits. A path's
//! load sum stays below 2^48 (at most 49,151 LIDs × 49,151 sources per link
//! and far fewer hops than 2^48 / 2.4e9), so sums never carry into the
//! penalty bits.

/// Bit position of the penalty in a packed cost.
const PENALTY_SHIFT: u32 = 48;
/// Largest load a link records (saturating; unreachable in IB's LID space).
const LOAD_MAX: u64 = (1 << PENALTY_SHIFT) - 1;

/// Weights of every directed switch-to-switch link (port-end of the
/// engine's switch graph, seen from the sending switch).
#[derive(Clone, Debug)]
pub struct Weights {
    /// Packed (penalty, load) of each link: the penalty counts earlier
    /// LID offsets of the current destination port that crossed the link,
    /// the load the routes that crossed it so far. One array, so the
    /// search reads one word per link.
    packed: Vec<u64>,
    /// Links whose penalty is not 0, to reset them cheaply.
    touched: Vec<u32>,
}

impl Weights {
    /// All links unloaded.
    pub fn new(links: usize) -> Self {
        Weights {
            packed: vec![0; links],
            touched: Vec::new(),
        }
    }

    /// The packed (penalty, load) weight of link `e`.
    #[inline]
    pub fn cost(&self, e: usize) -> u64 {
        self.packed[e]
    }

    /// Routes crossing link `e` so far.
    #[inline]
    pub fn load(&self, e: usize) -> u64 {
        self.packed[e] & LOAD_MAX
    }

    /// `sources` more routes cross link `e`.
    #[inline]
    pub fn add_load(&mut self, e: usize, sources: u64) {
        let load = (self.load(e) + sources).min(LOAD_MAX);
        self.packed[e] = (self.packed[e] & !LOAD_MAX) | load;
    }

    /// `sources` routes no longer cross link `e` (a tree ripped up).
    #[inline]
    pub fn remove_load(&mut self, e: usize, sources: u64) {
        let load = self.load(e).saturating_sub(sources);
        self.packed[e] = (self.packed[e] & !LOAD_MAX) | load;
    }

    /// The most routes any link carries.
    pub fn max_load(&self) -> u64 {
        (0..self.packed.len())
            .map(|e| self.load(e))
            .max()
            .unwrap_or(0)
    }

    /// Summed load of all links, and the number of links.
    pub fn total_load(&self) -> (u64, usize) {
        let total = (0..self.packed.len()).map(|e| self.load(e)).sum();
        (total, self.packed.len())
    }

    /// One more earlier offset of the current port crossed link `e`
    /// (at most 255 counted).
    #[inline]
    pub fn add_penalty(&mut self, e: usize) {
        let pen = self.packed[e] >> PENALTY_SHIFT;
        if pen == 0 {
            self.touched.push(e as u32);
        }
        if pen < 255 {
            self.packed[e] += 1 << PENALTY_SHIFT;
        }
    }

    /// A new destination port: no penalty anywhere.
    pub fn clear_penalties(&mut self) {
        for e in self.touched.drain(..) {
            self.packed[e as usize] &= LOAD_MAX;
        }
    }
}

/// The penalty part of a packed route cost (for tests and notes).
pub fn penalty_of(cost: u64) -> u64 {
    cost >> PENALTY_SHIFT
}

/// The load part of a packed route cost.
pub fn load_of(cost: u64) -> u64 {
    cost & LOAD_MAX
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn penalty_outweighs_any_load_and_resets() {
        let mut w = Weights::new(2);
        w.add_load(0, 1_000_000);
        w.add_penalty(1);
        assert!(w.cost(1) > w.cost(0));
        assert_eq!(penalty_of(w.cost(1)), 1);
        assert_eq!(load_of(w.cost(0)), 1_000_000);
        w.clear_penalties();
        assert_eq!(w.cost(1), 0);
        assert_eq!(w.load(0), 1_000_000);
    }
}
