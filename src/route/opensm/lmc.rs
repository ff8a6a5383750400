//! OpenSM's LMC-aware port choice (`osm_switch.c`: `osm_switch_recommend_path`
//! with `routing_for_lmc`, `switch_find_guid_common`; `osm_ucast_mgr.c`:
//! `find_and_add_remote_sys`, `alloc_ports_priv`), for minhop and updn.
//!
//! When the subnet's LMC is above 0, OpenSM remembers, per switch and per
//! destination port, which remote nodes the port's LIDs routed so far leave
//! through (`struct osm_remote_guids_count`: node, times forwarded to). For
//! each further LID it then prefers, among the least-hop ports scanned from
//! the one after the previous LID's port, the least-loaded port leading to a
//! new system image, else to a new node, else the least-loaded port (equal
//! loads going to the remote node forwarded to least). Without this the
//! extra LIDs of a port would mostly take the same next switch as its base
//! LID whenever the port counters tie.

use crate::model::{Fabric, NO_ROUTE, NodeIdx};

/// The remote nodes one destination port's LIDs were sent to from the
/// switch being filled, with how many of its LIDs went there.
pub(super) struct Remotes {
    /// Entries of target `t` are `rows[t * per .. t * per + len[t]]`:
    /// (node, times forwarded to, the node's system image GUID).
    rows: Vec<(u32, u32, u64)>,
    len: Vec<u8>,
    per: usize,
}

impl Remotes {
    /// Room for `targets` ports of up to `per` LIDs each.
    pub fn new(targets: usize, per: usize) -> Self {
        Remotes {
            rows: vec![(0, 0, 0); targets * per],
            len: vec![0; targets],
            per,
        }
    }

    /// Forgets everything: OpenSM allocates the lists anew for every switch
    /// (`ucast_mgr_process_tbl` calls `alloc_ports_priv`).
    pub fn clear(&mut self) {
        self.len.fill(0);
    }

    fn of(&self, t: usize) -> &[(u32, u32, u64)] {
        &self.rows[t * self.per..t * self.per + self.len[t] as usize]
    }

    /// `find_and_add_remote_sys` then `forwarded_to++`: target `t` was
    /// routed to remote node `node` of system image `sys`.
    pub fn record(&mut self, t: usize, node: u32, sys: u64) {
        let start = t * self.per;
        let n = self.len[t] as usize;
        if let Some(e) = self.rows[start..start + n].iter_mut().find(|e| e.0 == node) {
            e.1 += 1;
        } else if n < self.per {
            self.rows[start + n] = (node, 1, sys);
            self.len[t] += 1;
        }
    }
}

/// Per switch: the node behind each port and its system image GUID (the
/// node GUID when the input gives none, as ibsim reports it).
pub(super) struct PortPeers {
    pub node: [u32; 256],
    pub sys: [u64; 256],
}

impl PortPeers {
    pub fn new() -> Self {
        PortPeers {
            node: [u32::MAX; 256],
            sys: [0; 256],
        }
    }

    /// Loads the peers of switch node `sw`; `sys` from [`system_guids`].
    pub fn load(&mut self, fabric: &Fabric, sw: NodeIdx, sys: &[u64]) {
        self.node = [u32::MAX; 256];
        for (p, port) in fabric.ports(sw).iter().enumerate() {
            if let Some(q) = port.peer {
                self.node[p] = q.node.0;
                self.sys[p] = sys[q.node.0 as usize];
            }
        }
    }
}

/// System image GUID of every node, indexed by node.
pub(super) fn system_guids(fabric: &Fabric) -> Vec<u64> {
    fabric
        .node_indices()
        .map(|n| {
            let node = fabric.node(n);
            node.sysimg_guid.unwrap_or(node.guid).0
        })
        .collect()
}

/// `osm_switch_recommend_path` for a remote destination with LMC routing on
/// (no DOR, no port shifting, no scatter: OpenSM's defaults). `cands` are
/// the least-hop ports ascending, the cyclic scan starts at port `pivot`
/// (`start_from % num_ports`), `cnt` are the port counters, `remotes` what
/// target `t` used so far.
pub(super) fn choose(
    cands: &[u8],
    pivot: u32,
    cnt: &[u32; 256],
    peers: &PortPeers,
    remotes: &Remotes,
    t: usize,
) -> u8 {
    let used = remotes.of(t);
    let split = cands.partition_point(|&q| u32::from(q) < pivot);
    let (mut least, mut best) = (u32::MAX, 0u8);
    let (mut least_sys, mut best_sys) = (u32::MAX, 0u8);
    let (mut least_node, mut best_node) = (u32::MAX, 0u8);
    let mut least_fwd = u32::MAX;
    for &q in cands[split..].iter().chain(&cands[..split]) {
        let c = cnt[q as usize];
        let (rem, rem_sys) = (peers.node[q as usize], peers.sys[q as usize]);
        // p_remote_guid: the entry of the same node, looked for only once
        // an entry of the same system image exists.
        let mut same = None;
        if !used.iter().any(|e| e.2 == rem_sys) {
            if c < least_sys {
                (least_sys, best_sys, least_fwd) = (c, q, 0);
            }
        } else {
            same = used.iter().find(|e| e.0 == rem);
            if same.is_none() && c < least_node {
                (least_node, best_node, least_fwd) = (c, q, 0);
            }
        }
        if c < least {
            (least, best) = (c, q);
            if let Some(e) = same
                && e.1 < least_fwd
            {
                least_fwd = e.1;
            }
        } else if let Some(e) = same
            && c == least
            && e.1 < least_fwd
        {
            (least_fwd, best) = (e.1, q);
        }
    }
    if best == 0 {
        NO_ROUTE
    } else if best_sys != 0 {
        best_sys
    } else if best_node != 0 {
        best_node
    } else {
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Ports 5..=8 of one switch are the least-hop ports; `nodes[i]` is the
    /// node behind port 5 + i; `sys[n]` the system image of node `n`.
    fn pick(nodes: [u32; 4], sys: &[u64], used: &[(u32, u32)], cnt: [u32; 4], start: u32) -> u8 {
        let mut peers = PortPeers::new();
        let mut counts = [0; 256];
        peers.node[5..9].copy_from_slice(&nodes);
        for (i, &n) in nodes.iter().enumerate() {
            peers.sys[5 + i] = sys[n as usize];
        }
        counts[5..9].copy_from_slice(&cnt);
        let mut r = Remotes::new(2, 4);
        for &(node, times) in used {
            for _ in 0..times {
                r.record(1, node, sys[node as usize]);
            }
        }
        choose(&[5, 6, 7, 8], start % 9, &counts, &peers, &r, 1)
    }

    /// Worked by hand from `osm_switch_recommend_path`: nodes 1 and 2 are
    /// two switches, each behind two parallel cables (5, 6 → node 1; 7, 8 →
    /// node 2); the port's base LID left through node 1.
    #[test]
    fn a_new_system_beats_the_scan_order_and_the_counters() {
        let sys = [0, 10, 20, 30];
        // All counters equal: rotation alone would take 6 (node 1 again).
        assert_eq!(pick([1, 1, 2, 2], &sys, &[(1, 1)], [0; 4], 6), 7);
        // The least-loaded port to the new system, not the least-loaded port.
        assert_eq!(pick([1, 1, 2, 2], &sys, &[(1, 1)], [0, 0, 5, 4], 6), 8);
        // Both systems used: equal counters go to the node forwarded to least.
        assert_eq!(pick([1, 1, 2, 2], &sys, &[(1, 1), (2, 2)], [0; 4], 6), 6);
        assert_eq!(pick([1, 1, 2, 2], &sys, &[(1, 2), (2, 1)], [0; 4], 6), 7);
        // ... but a smaller counter still wins.
        assert_eq!(
            pick([1, 1, 2, 2], &sys, &[(1, 1), (2, 2)], [1, 1, 0, 1], 6),
            7
        );
    }

    /// Nodes 1 and 2 share a system image (20), node 3 is alone (30): a new
    /// system first, then a new node of a used system, whatever the counts.
    #[test]
    fn a_new_node_comes_after_a_new_system() {
        let sys = [0, 20, 20, 30];
        assert_eq!(pick([1, 2, 3, 1], &sys, &[(1, 1)], [0, 0, 9, 0], 6), 7);
        assert_eq!(
            pick([1, 2, 3, 1], &sys, &[(1, 1), (3, 1)], [0, 3, 0, 0], 6),
            6
        );
        // Every node used: the least counter, scanning from port 6.
        assert_eq!(
            pick(
                [1, 2, 3, 1],
                &sys,
                &[(1, 1), (2, 1), (3, 1)],
                [2, 2, 1, 1],
                6
            ),
            7
        );
    }

    /// `record` counts repeats of a node and keeps one entry per node.
    #[test]
    fn record_counts_per_node() {
        let mut r = Remotes::new(1, 4);
        for n in [4, 5, 4, 4] {
            r.record(0, n, u64::from(n) * 10);
        }
        assert_eq!(r.of(0), [(4, 3, 40), (5, 1, 50)]);
        r.clear();
        assert!(r.of(0).is_empty());
    }
}
