//! `opensm.fdbs` and `opensm-subnet.lst` as OpenSM's `dump_ucast_routes` and
//! `dump_topology_node` write them (formats.md §5.2, §5.5; opensm/osm_dump.c),
//! the pair `ibdmchk -s opensm-subnet.lst -f opensm.fdbs` verifies.
//! Spec: `formats/fdbs.md`.

use std::io::{self, Write};

use super::batched::write_batched;
use super::digits::{push_dec, push_dec_zero, push_hex, push_hex_upper};
use crate::model::hops::{NO_HOPS, SwitchHops};
use crate::model::{Fabric, Lfts, LidMap, NO_ROUTE, NodeIdx, NodeKind, Speed, SwIdx};

const NO_PATH: u16 = u16::MAX;

/// Switches (and, for the subnet file, nodes) in OpenSM's iteration order:
/// its tables are keyed by the network-order GUID (algorithms.md §2.0).
fn opensm_order(fabric: &Fabric, nodes: impl Iterator<Item = NodeIdx>) -> Vec<NodeIdx> {
    let mut v: Vec<NodeIdx> = nodes.collect();
    v.sort_unstable_by_key(|&n| fabric.node(n).guid.opensm_key());
    v
}

/// Where a LID leads: its switch (the one it sits on or hangs off), the
/// hops beyond that switch (0 or 1), and its node and port.
#[derive(Clone, Copy)]
struct Target {
    sw: usize,
    beyond: u16,
    node: NodeIdx,
    port: u8,
}

/// What every switch's rows share.
struct Rows<'a> {
    fabric: &'a Fabric,
    lfts: &'a Lfts,
    dist: SwitchHops,
    target: Vec<Option<Target>>,
    max_lid: u16,
    /// `0x%04X : ` of LID `l` at `heads[9 * l..9 * l + 9]`: the same for
    /// every switch, so formatted once.
    heads: Vec<u8>,
}

/// Writes `opensm.fdbs`: per switch, one row per LID 1..=max LID with the
/// port, the hop count through it and whether it is a shortest path.
/// Switches are formatted in parallel, in batches, and written in order.
pub fn write_fdbs(
    fabric: &Fabric,
    lids: &LidMap,
    lfts: &Lfts,
    out: &mut dyn Write,
) -> io::Result<()> {
    let rows = Rows::new(fabric, lids, lfts);
    write_batched(&cabled_switches(fabric), out, |&s, buf| rows.switch(s, buf))
}

/// The switches with a cable, in OpenSM's order: the ones `opensm.fdbs`
/// and `ibdmchk.sl2vl` name. A switch with no cable is in no line of
/// `opensm-subnet.lst`, and ibdmchk rejects a file naming a switch it does
/// not know.
pub(super) fn cabled_switches(fabric: &Fabric) -> Vec<SwIdx> {
    fabric
        .opensm_switch_order()
        .into_iter()
        .filter(|&s| {
            fabric
                .ports(fabric.switch_node(s))
                .iter()
                .any(|p| p.peer.is_some())
        })
        .collect()
}

impl<'a> Rows<'a> {
    fn new(fabric: &'a Fabric, lids: &LidMap, lfts: &'a Lfts) -> Self {
        let target = (0..=lids.max_lid())
            .map(|l| {
                let o = lids.owner(l)?;
                let t = |sw: SwIdx, beyond| Target {
                    sw: sw.ix(),
                    beyond,
                    node: o.node,
                    port: o.port,
                };
                if let Some(s) = fabric.switch_index(o.node) {
                    return Some(t(s, 0));
                }
                let peer = fabric.peer(o.node, o.port)?;
                Some(t(fabric.switch_index(peer.node)?, 1))
            })
            .collect();
        let mut heads = Vec::with_capacity(9 * (lids.max_lid() as usize + 1));
        for lid in 0..=lids.max_lid() {
            heads.extend_from_slice(b"0x");
            push_hex_upper(&mut heads, u64::from(lid), 4);
            heads.extend_from_slice(b" : ");
        }
        Rows {
            fabric,
            lfts,
            dist: SwitchHops::compute(fabric),
            target,
            max_lid: lids.max_lid(),
            heads,
        }
    }

    /// The hops from switch `n` to `t` when leaving by port `p`, or
    /// `NO_PATH` when that port leads nowhere useful.
    fn hops_via(&self, n: NodeIdx, p: u8, t: Target) -> u16 {
        if p == 0 {
            return if t.node == n { 0 } else { NO_PATH };
        }
        match self.fabric.peer(n, p) {
            Some(peer) if peer.node == t.node && peer.port == t.port => 1,
            Some(peer) => match self.fabric.switch_index(peer.node) {
                Some(v) if self.dist.get(v.ix(), t.sw) != NO_HOPS && peer.node != n => {
                    1 + u16::from(self.dist.get(v.ix(), t.sw)) + t.beyond
                }
                _ => NO_PATH,
            },
            None => NO_PATH,
        }
    }

    /// Per target switch, the least hops from switch `n` through a switch
    /// neighbour and the lowest port giving them: the least over every port
    /// of [`Rows::hops_via`] is this plus the target's hops beyond its
    /// switch, unless the target is `n` itself or hangs off it (0 or 1 hop,
    /// fewer than any way through a neighbour).
    fn least_via_neighbours(&self, n: NodeIdx) -> Vec<(u16, u8)> {
        let mut least = vec![(NO_PATH, 0u8); self.dist.num_switches()];
        for p in 1..=self.fabric.node(n).num_ports {
            let Some(peer) = self.fabric.peer(n, p).filter(|q| q.node != n) else {
                continue;
            };
            let Some(v) = self.fabric.switch_index(peer.node) else {
                continue;
            };
            for (l, &d) in least.iter_mut().zip(self.dist.row(v.ix())) {
                if d != NO_HOPS && 1 + u16::from(d) < l.0 {
                    *l = (1 + u16::from(d), p);
                }
            }
        }
        least
    }

    /// The least [`Rows::hops_via`] from switch `s` to `t` over every port,
    /// with the lowest port giving it; `least` is `s`'s
    /// [`Rows::least_via_neighbours`].
    fn least(&self, s: usize, least: &[(u16, u8)], t: Target) -> (u16, u8) {
        if t.sw != s {
            (least[t.sw].0.saturating_add(t.beyond), least[t.sw].1)
        } else if t.beyond == 0 {
            (0, 0)
        } else {
            (1, self.fabric.peer(t.node, t.port).map_or(0, |q| q.port))
        }
    }

    /// One switch's block of `opensm.fdbs`.
    fn switch(&self, sw: SwIdx, buf: &mut Vec<u8>) {
        let fabric = self.fabric;
        let (s, n) = (sw.ix(), fabric.switch_node(sw));
        let node = fabric.node(n);
        buf.extend_from_slice(b"dump_ucast_routes: Switch 0x");
        push_hex(buf, node.guid.0, 16);
        buf.extend_from_slice(b"\nLID    : Port : Hops : Optimal\n");
        let least = self.least_via_neighbours(n);
        for lid in 1..=self.max_lid {
            let l = lid as usize;
            buf.extend_from_slice(&self.heads[9 * l..9 * l + 9]);
            let port = if lid <= self.lfts.top() {
                self.lfts.get(s, lid)
            } else {
                NO_ROUTE
            };
            if port == NO_ROUTE || port > node.num_ports {
                buf.extend_from_slice(b"UNREACHABLE\n");
                continue;
            }
            push_dec_zero(buf, u64::from(port), 3);
            let t = self.target[lid as usize];
            let hops = t.map_or(NO_PATH, |t| self.hops_via(n, port, t));
            let Some(t) = t.filter(|_| hops != NO_PATH) else {
                buf.extend_from_slice(b"  : HOPS UNKNOWN\n");
                continue;
            };
            buf.extend_from_slice(b"  : ");
            push_dec_zero(buf, u64::from(hops), 2);
            let (best, best_port) = self.least(s, &least, t);
            if best == hops {
                buf.extend_from_slice(b"   : yes\n");
            } else {
                buf.extend_from_slice(b"   : No ");
                push_dec(buf, u64::from(best));
                buf.extend_from_slice(b" hop path possible via port ");
                push_dec(buf, u64::from(best_port));
                buf.extend_from_slice(b"!\n");
            }
        }
    }
}

fn speed_str(s: Speed) -> &'static str {
    match s {
        Speed::Sdr => "2.5",
        Speed::Ddr => "5",
        Speed::Qdr => "10",
        Speed::Fdr10 => "FDR10",
        Speed::Fdr => "14",
        Speed::Edr => "25",
        Speed::Hdr => "50",
        _ => "??",
    }
}

/// One `{ ... }` end of a link; `ven_width` is 6 on the left, 8 on the right.
fn end(fabric: &Fabric, n: NodeIdx, p: u8, ven_width: usize) -> String {
    let node = fabric.node(n);
    let (ty, lid_port) = match node.kind {
        NodeKind::Switch => ("SW", 0),
        NodeKind::Ca => ("CA", p),
        NodeKind::Router => ("Rt", p),
    };
    let port = fabric.port(n, lid_port);
    format!(
        "{{ {ty} Ports:{:02X} SystemGUID:{:016x} NodeGUID:{:016x} PortGUID:{:016x} VenID:{:0w$X} DevID:{:04X} Rev:{:08X} {{{}}} LID:{:04X} PN:{:02X} }}",
        node.num_ports,
        node.sysimg_guid.unwrap_or(node.guid).0,
        node.guid.0,
        fabric.port(n, p).guid.0,
        node.vendor_id.unwrap_or(0),
        node.device_id.unwrap_or(0) & 0xFFFF,
        0,
        node.desc,
        port.lid,
        p,
        w = ven_width,
    )
}

/// Writes `opensm-subnet.lst`: every cable twice, once from each end.
pub fn write_subnet_lst(fabric: &Fabric, out: &mut dyn Write) -> io::Result<()> {
    for n in opensm_order(fabric, fabric.node_indices()) {
        for p in 1..=fabric.node(n).num_ports {
            let Some(peer) = fabric.peer(n, p) else {
                continue;
            };
            let port = fabric.port(n, p);
            writeln!(
                out,
                "{} {} PHY={} LOG=ACT SPD={}",
                end(fabric, n, p, 6),
                end(fabric, peer.node, peer.port, 8),
                port.width,
                speed_str(port.speed)
            )?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::route::opensm::testfab::opensm_fixture;

    /// The least hops and port `opensm.fdbs` prints for every switch and
    /// LID are the least over every port of the per-port hops, ties to the
    /// lowest port (what the file said when it tried each port per LID), on
    /// fabrics with CAs on several levels, a degraded fat tree and an
    /// irregular one.
    #[test]
    fn least_hops_are_the_least_over_every_port() {
        for (case, run) in [
            ("ft3f", "minhop"),
            ("irr", "minhop"),
            ("torus", "minhop-lmc1"),
            ("heur", "minhop"),
        ] {
            let f = opensm_fixture(case, run);
            let lids = LidMap::new(&f).unwrap();
            let lfts = Lfts::new(f.num_switches(), lids.max_lid());
            let rows = Rows::new(&f, &lids, &lfts);
            let mut checked = 0;
            for s in 0..f.num_switches() {
                let n = f.switch_node(SwIdx(s as u32));
                let least = rows.least_via_neighbours(n);
                for lid in 1..=lids.max_lid() {
                    let Some(t) = rows.target[lid as usize] else {
                        continue;
                    };
                    let brute = (0..=f.node(n).num_ports)
                        .map(|p| (rows.hops_via(n, p, t), p))
                        .min()
                        .unwrap();
                    if brute.0 != NO_PATH {
                        assert_eq!(
                            rows.least(s, &least, t),
                            brute,
                            "{case}: switch {s} LID {lid}"
                        );
                        checked += 1;
                    }
                }
            }
            assert!(checked > 100, "{case}: {checked}");
        }
    }
}
