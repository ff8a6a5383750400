//! What the rip-up rounds minimise: the crowding of a random permutation's
//! routes on a link, in closed form from three sums per link.
//!
//! Under a random permutation every destination LID d receives from one
//! source, so link e carries X_e = Σ_d B_d, where B_d = 1 with
//! probability p_d = n_{e,d} / (N − 1) (n_{e,d}: end ports whose route to d
//! crosses e; N end ports). The all-to-all load S1 = Σ_d n_{e,d} gives only
//! the mean; how the routes are grouped by destination decides the tail: a
//! leaf's downlink carrying two destinations from every source has
//! all-to-all load ≈ 2 (N − 1) but X_e ≤ 2 in every permutation, while a
//! spine link with the same load spread over many destinations can reach 6
//! or 7. So the rounds minimise the expected number of destination triples
//! sharing a link, F = Σ_e E[C(X_e, 3)] = Σ_e e3(p_{e,·}) (the third
//! elementary symmetric sum; independent B_d, which a permutation makes
//! slightly negatively correlated), a Markov bound on the links that reach
//! load 3 or more: it grows with the load like a cube, and is zero on links
//! whose destinations are too few to crowd.
//!
//! F is linear in one destination's n_{e,d}: moving d's routes changes F by
//! Σ_e n_{e,d} · e2(p of the other destinations on e), and
//! e2 = (S1² − S2) / 2 with S1 = Σ p, S2 = Σ p² over them. Ripping d up and
//! growing its tree with that per-route link price is an exact coordinate
//! descent step on F (up to the hop-first rule and ties), just as the
//! load price of the first pass is one on Σ_e E[C(X_e, 2)] (the GM-2
//! mapper's cost increment, seed `myrinet-gm2-mapper.txt`, "Route
//! Computation"). Weights keep S1, S2, S3 exactly, per destination LID.

use super::weights::Weights;

/// Largest pair cost of one link: 256 hops of it stay below the 48 bits
/// of a packed route cost.
const PAIR_COST_MAX: u64 = (1 << 40) - 1;

/// Price of one more route over a link with all-to-all load `s1` and
/// per-destination squares `s2` (routes of other destinations only): e2 of
/// the other destinations in route units, (S1² − S2) / 2 / m² times
/// 8 m (m = N − 1; the factor keeps resolution on small fabrics).
pub fn pair_cost(s1: u64, s2: u64, m: u64) -> u64 {
    let s1 = u128::from(s1);
    let pairs = (s1 * s1).saturating_sub(u128::from(s2)) * 4 / u128::from(m.max(1));
    pairs.min(u128::from(PAIR_COST_MAX)) as u64
}

/// F = Σ_e E[C(X_e, 3)] of the current loads for N − 1 = `m`: the expected
/// number of (link, three destinations) whose routes all cross the link in
/// one random permutation, summed over the planes (LID offsets) of `w`.
pub fn triples(w: &Weights, m: u64) -> f64 {
    let m = m.max(1) as f64;
    w.moments()
        .map(|(s1, s2, s3)| {
            let (a, b, c) = (s1 as f64 / m, s2 as f64 / (m * m), s3 as f64 / (m * m * m));
            (a * a * a - 3.0 * a * b + 2.0 * c) / 6.0
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two destinations with every source (n = m) crowd nothing: X ≤ 2.
    #[test]
    fn concentrated_destinations_cost_no_triples() {
        let m = 100;
        let mut w = Weights::new(2);
        w.add_load(0, m);
        w.add_load(0, m);
        assert!(triples(&w, m).abs() < 1e-9);
        // the same all-to-all load from 200 destinations with one source
        // each: e3 = C(200, 3) / m³ = 1.3134
        for _ in 0..200 {
            w.add_load(1, 1);
        }
        assert!((triples(&w, m) - 1_313_400.0 / 1e6).abs() < 1e-9);
        // price of a third destination on link 0: (200² − 2·100²)·4/100
        assert_eq!(pair_cost(200, 20_000, m), 800);
    }
}
