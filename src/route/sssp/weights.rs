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
//!   cross the link — in the plane of the LID's offset (LID offset k of
//!   every port is priced against offset-k routes only, `lmc.rs`); in the
//!   rip-up rounds, the link's pair cost instead (`pairs.rs`), from the
//!   per-LID moments kept beside the load.
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
    /// Routes that crossed each link so far (S1 of `pairs.rs`).
    load: Vec<u64>,
    /// Σ over destination LIDs of (routes to that LID on the link)² (S2).
    sq: Vec<u64>,
    /// Σ of their cubes (S3), for the rounds' objective.
    cube: Vec<u128>,
    /// Links whose penalty is not 0, to reset them cheaply.
    touched: Vec<u32>,
    /// `Some(N − 1)` (N end ports): the search cost of a link is its pair
    /// cost (`pairs.rs`) instead of its load.
    pairs: Option<u64>,
    /// Links per plane; every array holds one plane per LID offset
    /// (`select`), plane after plane.
    links: usize,
    /// Start of the selected plane.
    base: usize,
}

impl Weights {
    /// All links unloaded, one plane.
    pub fn new(links: usize) -> Self {
        Self::with_planes(links, 1)
    }

    /// All links unloaded, `planes` planes: LID offset k of every port is
    /// routed and priced in plane k only, so each offset's routes are
    /// balanced among themselves (a message goes over one of its
    /// destination's LIDs, and traffic that ignores LMC uses the base
    /// LIDs: their routing is the LMC-0 one).
    pub fn with_planes(links: usize, planes: usize) -> Self {
        let n = links * planes.max(1);
        Weights {
            packed: vec![0; n],
            load: vec![0; n],
            sq: vec![0; n],
            cube: vec![0; n],
            touched: Vec::new(),
            pairs: None,
            links,
            base: 0,
        }
    }

    /// Works on plane `k` (LID offset k) from now on.
    pub fn select(&mut self, k: usize) {
        debug_assert!((k + 1) * self.links <= self.packed.len());
        self.base = k * self.links;
    }

    /// The packed (penalty, load) weight of link `e`.
    #[inline]
    pub fn cost(&self, e: usize) -> u64 {
        self.packed[self.base + e]
    }

    /// Routes crossing link `e` so far, in the selected plane.
    #[inline]
    pub fn load(&self, e: usize) -> u64 {
        self.load[self.base + e]
    }

    /// Routes crossing link `e` so far, all planes.
    pub fn total(&self, e: usize) -> u64 {
        self.load[e..].iter().step_by(self.links.max(1)).sum()
    }

    /// The routes of one destination LID, `sources` of them, cross link `e`
    /// (call once per LID and link: the moments count per LID).
    #[inline]
    pub fn add_load(&mut self, e: usize, sources: u64) {
        let e = self.base + e;
        self.load[e] = (self.load[e] + sources).min(LOAD_MAX);
        self.sq[e] = self.sq[e].saturating_add(sources * sources);
        self.cube[e] = self.cube[e].saturating_add(u128::from(sources).pow(3));
        self.refresh(e);
    }

    /// The `sources` routes of one destination LID no longer cross link
    /// `e` (a tree ripped up; the same per-LID total that was added).
    #[inline]
    pub fn remove_load(&mut self, e: usize, sources: u64) {
        let e = self.base + e;
        self.load[e] = self.load[e].saturating_sub(sources);
        self.sq[e] = self.sq[e].saturating_sub(sources * sources);
        self.cube[e] = self.cube[e].saturating_sub(u128::from(sources).pow(3));
        self.refresh(e);
    }

    /// Search costs become pair costs (`Some(N − 1)`) or loads (`None`).
    pub fn set_pairs(&mut self, pairs: Option<u64>) {
        self.pairs = pairs;
        for e in 0..self.packed.len() {
            self.refresh(e);
        }
    }

    /// The (S1, S2, S3) moments of every link in every plane (`pairs.rs`).
    pub fn moments(&self) -> impl Iterator<Item = (u64, u64, u128)> + '_ {
        (0..self.load.len()).map(|i| (self.load[i], self.sq[i], self.cube[i]))
    }

    /// Rewrites the cost bits of entry `e` (plane included) from its moments.
    #[inline]
    fn refresh(&mut self, e: usize) {
        let c = match self.pairs {
            None => self.load[e],
            Some(m) => super::pairs::pair_cost(self.load[e], self.sq[e], m).min(LOAD_MAX),
        };
        self.packed[e] = (self.packed[e] & !LOAD_MAX) | c;
    }

    /// Number of directed links.
    pub fn links(&self) -> usize {
        self.links
    }

    /// The most routes any link carries in any plane.
    pub fn max_load(&self) -> u64 {
        self.load.iter().copied().max().unwrap_or(0)
    }

    /// Plane `k`'s most loaded link, summed load, and number of links.
    pub fn plane_load(&self, k: usize) -> (u64, u64, usize) {
        let plane = &self.load[k * self.links..][..self.links];
        let max = plane.iter().copied().max().unwrap_or(0);
        (max, plane.iter().sum(), self.links)
    }

    /// One more earlier offset of the current port crossed link `e`
    /// (at most 255 counted).
    #[inline]
    pub fn add_penalty(&mut self, e: usize) {
        let e = self.base + e;
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
