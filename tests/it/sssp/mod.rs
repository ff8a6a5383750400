//! The balanced shortest-path engine (`--engine sssp`, seed
//! `myrinet-gm2-mapper.txt`): a ring's tables and link loads worked out by
//! hand, LMC trees that part (link-disjoint paths counted by an oracle
//! walking the LFTs), reachability on random fabrics of every generator
//! (proptest, oracle: the brute-force walker of `verify/oracle.rs`), thread-count
//! independence, and deadlock freedom with `--vls 8` on tori and a
//! dragonfly within the VLs OpenSM's dfsssp needs there.

mod cli;
mod generated;
mod ring;

use routec::model::lids::{apply_port_lids, assign_with_lmc};
use routec::model::{Fabric, Lfts, LidMap, NO_ROUTE};

/// Directed switch links (switch, out port) from switch `s` to `lid`, or
/// `None` when the walk does not deliver within the switch count.
pub(crate) fn walk(f: &Fabric, t: &Lfts, mut s: usize, lid: u16) -> Option<Vec<(usize, u8)>> {
    let mut links = Vec::new();
    for _ in 0..=f.num_switches() {
        let p = t.get(s, lid);
        if p == NO_ROUTE {
            return None;
        }
        let node = f.switches()[s];
        if p == 0 {
            return f.port(node, 0).owns_lid(lid).then_some(links);
        }
        let peer = f.peer(node, p)?;
        match f.switch_index(peer.node) {
            Some(n) => {
                links.push((s, p));
                s = n.ix();
            }
            None => return f.port(peer.node, peer.port).owns_lid(lid).then_some(links),
        }
    }
    None
}

/// Largest set of pairwise link-disjoint paths among `paths` (brute force
/// over subsets).
pub(crate) fn most_disjoint(paths: &[Vec<(usize, u8)>]) -> usize {
    let n = paths.len();
    (0u32..1 << n)
        .filter(|m| {
            (0..n).all(|i| {
                (i + 1..n).all(|j| {
                    m & (1 << i) == 0
                        || m & (1 << j) == 0
                        || paths[i].iter().all(|l| !paths[j].contains(l))
                })
            })
        })
        .map(|m| m.count_ones() as usize)
        .max()
        .unwrap_or(0)
}

/// The fabric with LIDs assigned anew for `lmc`, as `compile --lmc` does.
pub(crate) fn with_lmc(mut f: Fabric, lmc: u8) -> (Fabric, LidMap) {
    let fresh = assign_with_lmc(&f, lmc).unwrap();
    apply_port_lids(&mut f, &fresh);
    let lids = LidMap::new(&f).unwrap();
    (f, lids)
}
