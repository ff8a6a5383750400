//! The fabric and the two tables as the upload plan sees them: where each
//! switch port leads, which LIDs are destinations and from which switches
//! their packets start, and every entry's old and new port in the
//! fabric's switch order.

use crate::model::{Fabric, Guid, Lid, LidMap, NO_ROUTE, PortNum, TableSet};

/// Where a forwarding decision sends a packet.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Hop {
    /// On to switch `sw`, arriving on its port `port`.
    Switch { sw: u32, port: PortNum },
    /// Leaves the switch fabric (port 0 or an end port): no further channel.
    End,
    /// Dropped (no route, no such port, no cable, a self-loop).
    Drop,
}

/// A channel that is no switch-to-switch link.
pub(super) const NO_CHANNEL: u32 = u32::MAX;

/// Switch ports and channels (directed switch-to-switch links).
pub(super) struct Net {
    pub nsw: usize,
    /// Per switch, its first slot in `hops`/`chan` (ports 0..=num_ports).
    port_start: Vec<u32>,
    hops: Vec<Hop>,
    /// Channel of `(switch, port)`, [`NO_CHANNEL`] if not a switch link.
    chan: Vec<u32>,
    /// Channel → `(switch, port)` it leaves from.
    pub chan_of: Vec<(u32, PortNum)>,
    /// Per switch, its first slot in a turn-count array (`(ports+1)^2`).
    turn_start: Vec<usize>,
    /// End ports cabled to each switch.
    pub hosts: Vec<u32>,
    pub guid: Vec<Guid>,
}

impl Net {
    pub fn new(fabric: &Fabric) -> Net {
        let nsw = fabric.num_switches();
        let (mut port_start, mut hops, mut chan, mut chan_of) = (vec![0], vec![], vec![], vec![]);
        let (mut turn_start, mut hosts, mut guid) = (vec![0], vec![0; nsw], vec![]);
        for (s, &n) in fabric.switches().iter().enumerate() {
            let np = fabric.node(n).num_ports;
            for p in 0..=np {
                let hop = match fabric.peer(n, p) {
                    _ if p == 0 => Hop::End,
                    None => Hop::Drop,
                    Some(peer) if peer.node == n => Hop::Drop,
                    Some(peer) => match fabric.switch_index(peer.node) {
                        Some(w) => Hop::Switch {
                            sw: w.0,
                            port: peer.port,
                        },
                        None => {
                            hosts[s] += 1;
                            Hop::End
                        }
                    },
                };
                if matches!(hop, Hop::Switch { .. }) {
                    chan.push(chan_of.len() as u32);
                    chan_of.push((s as u32, p));
                } else {
                    chan.push(NO_CHANNEL);
                }
                hops.push(hop);
            }
            port_start.push(hops.len() as u32);
            let width = np as usize + 1;
            turn_start.push(turn_start[s] + width * width);
            guid.push(fabric.node(n).guid);
        }
        Net {
            nsw,
            port_start,
            hops,
            chan,
            chan_of,
            turn_start,
            hosts,
            guid,
        }
    }

    /// Ports 0..=num_ports of switch `s`.
    pub fn width(&self, s: u32) -> usize {
        (self.port_start[s as usize + 1] - self.port_start[s as usize]) as usize
    }

    /// Where port `p` of switch `s` leads ([`Hop::Drop`] past its ports).
    pub fn hop(&self, s: u32, p: PortNum) -> Hop {
        if p == NO_ROUTE || p as usize >= self.width(s) {
            return Hop::Drop;
        }
        self.hops[self.port_start[s as usize] as usize + p as usize]
    }

    /// The channel leaving switch `s` by port `p`.
    pub fn chan(&self, s: u32, p: PortNum) -> u32 {
        if p as usize >= self.width(s) {
            return NO_CHANNEL;
        }
        self.chan[self.port_start[s as usize] as usize + p as usize]
    }

    /// Size of a turn-count array.
    pub fn num_turns(&self) -> usize {
        self.turn_start[self.nsw]
    }

    /// The switch and ports of turn index `t` (of one lane): the inverse
    /// of [`Net::turn`].
    pub fn turn_ports(&self, t: usize) -> (u32, PortNum, PortNum) {
        let s = self.turn_start.partition_point(|&x| x <= t) - 1;
        let (w, off) = (self.width(s as u32), t - self.turn_start[s]);
        (s as u32, (off / w) as PortNum, (off % w) as PortNum)
    }

    /// The turn index of (switch `s`, in port, out port).
    pub fn turn(&self, s: u32, pin: PortNum, pout: PortNum) -> u32 {
        (self.turn_start[s as usize] + pin as usize * self.width(s) + pout as usize) as u32
    }
}

/// A destination LID: the switch its packets leave the fabric at, and
/// whether it is an end port (CA or router) or a switch's own LID.
#[derive(Clone, Copy, Debug)]
pub(super) struct Target {
    pub lid: Lid,
    pub sw: u32,
    pub is_end: bool,
}

/// Every assigned LID of the fabric whose owner hangs off a switch.
pub(super) fn targets(fabric: &Fabric, lids: &LidMap) -> Vec<Target> {
    lids.iter()
        .filter_map(|(lid, o)| {
            let (sw, is_end) = match fabric.switch_index(o.node) {
                Some(s) => (s.0, false),
                None => {
                    let peer = fabric.peer(o.node, o.port)?;
                    (fabric.switch_index(peer.node)?.0, true)
                }
            };
            Some(Target { lid, sw, is_end })
        })
        .collect()
}

/// Whether packets for `t` start at switch `s`: as `routec check` counts
/// sources (`src/verify/walk`), an end port's packets start at the
/// switches with another end port cabled to them, a switch LID's (and,
/// with `all_paths`, every LID's) at every switch.
pub(super) fn is_source(net: &Net, t: &Target, s: u32, all_paths: bool) -> bool {
    if !t.is_end || all_paths {
        return true;
    }
    net.hosts[s as usize] > u32::from(t.sw == s)
}

/// The old and new entries of every fabric switch for LIDs `0..len`,
/// LID-major (a walk reads one LID across all switches, so that is one
/// contiguous run); a switch a side lacks has no route on that side.
pub(super) struct Rows {
    pub len: usize,
    nsw: usize,
    pub old: Vec<u8>,
    pub new: Vec<u8>,
    /// Per fabric switch, its row in the old and in the new table set.
    pub old_ix: Vec<Option<usize>>,
    pub new_ix: Vec<Option<usize>>,
    /// Switches of either table set that the fabric lacks (ignored).
    pub gone: Vec<Guid>,
}

impl Rows {
    pub fn build(fabric: &Fabric, lids: &LidMap, old: &TableSet, new: &TableSet) -> Rows {
        let index = |t: &TableSet| -> std::collections::HashMap<Guid, usize> {
            t.switches
                .iter()
                .enumerate()
                .map(|(i, s)| (s.guid, i))
                .collect()
        };
        let (oi, ni) = (index(old), index(new));
        let top = |t: &TableSet| t.switches.iter().map(|s| s.top).max().unwrap_or(0);
        let len = (top(old).max(top(new)).max(lids.max_lid()) as usize) + 1;
        let nsw = fabric.num_switches();
        let (mut o, mut n) = (vec![NO_ROUTE; nsw * len], vec![NO_ROUTE; nsw * len]);
        let of = |ix: &std::collections::HashMap<Guid, usize>| -> Vec<Option<usize>> {
            let sw = fabric.switches().iter();
            sw.map(|&n| ix.get(&fabric.node(n).guid).copied()).collect()
        };
        // Transposed 64 switches at a time: 64 sequential reads, one run of writes.
        let fill = |dst: &mut [u8], set: &TableSet, rows: &[Option<usize>]| {
            for first in (0..nsw).step_by(64) {
                let chunk: Vec<(usize, &[u8])> = (first..nsw.min(first + 64))
                    .filter_map(|s| rows[s].map(|i| (s, set.lft(i))))
                    .collect();
                for l in 0..len {
                    for &(s, row) in &chunk {
                        dst[l * nsw + s] = row.get(l).copied().unwrap_or(NO_ROUTE);
                    }
                }
            }
        };
        let (old_ix, new_ix) = (of(&oi), of(&ni));
        fill(&mut o, old, &old_ix);
        fill(&mut n, new, &new_ix);
        let mut gone: Vec<Guid> = (old.switches.iter().chain(&new.switches))
            .map(|s| s.guid)
            .filter(|&g| fabric.node_by_guid(g).is_none_or(|n| !fabric.is_switch(n)))
            .collect();
        gone.sort_unstable();
        gone.dedup();
        Rows {
            len,
            nsw,
            old: o,
            new: n,
            old_ix,
            new_ix,
            gone,
        }
    }

    /// Index of (switch, LID) in LID-major arrays.
    pub fn at(&self, s: u32, lid: Lid) -> usize {
        lid as usize * self.nsw + s as usize
    }

    pub fn old_port(&self, s: u32, lid: Lid) -> u8 {
        self.old[self.at(s, lid)]
    }

    pub fn new_port(&self, s: u32, lid: Lid) -> u8 {
        self.new[self.at(s, lid)]
    }
}
