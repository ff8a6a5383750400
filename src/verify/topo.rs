//! Dense switch-port arrays for the table walks: where each switch port
//! leads, how many end ports hang off each switch, and where each LID is
//! delivered. Built once per check so that the per-destination walks touch
//! only flat vectors.

use crate::model::{Fabric, Lid, LidMap, NodeIdx, PortNum};

/// What a switch port is cabled to.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Link {
    None,
    /// Switch index and its port.
    Switch(u32, PortNum),
    /// A CA or router port.
    End(NodeIdx, PortNum),
}

/// Where a destination LID leaves the switch fabric.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct Target {
    /// The switch that delivers it.
    pub sw: u32,
    /// The port it delivers on (0 for the switch's own LID).
    pub port: PortNum,
    /// The LID belongs to an end port (CA/router), not a switch.
    pub is_end: bool,
}

/// The flat view.
pub(crate) struct Topo {
    /// `base[s]..base[s + 1]` are the ports 0..=n of switch `s`.
    pub base: Vec<u32>,
    pub link: Vec<Link>,
    /// End ports cabled to each switch.
    pub hosts: Vec<u32>,
    /// Per LID (0..=max): the delivery point, `None` for unassigned LIDs
    /// and for end ports not cabled to a switch (`Some` with `sw = u32::MAX`).
    pub target: Vec<Option<Target>>,
    /// `tbase[s]`: first bit of switch `s` in a turn bitset of
    /// `(ports + 1)²` bits per switch (in port × out port).
    pub tbase: Vec<usize>,
}

impl Topo {
    pub fn new(fabric: &Fabric, lids: &LidMap) -> Self {
        let s = fabric.num_switches();
        let mut base = Vec::with_capacity(s + 1);
        let mut link = Vec::new();
        let mut hosts = vec![0u32; s];
        for (i, &n) in fabric.switches().iter().enumerate() {
            base.push(link.len() as u32);
            for port in fabric.ports(n) {
                let l = match port.peer {
                    None => Link::None,
                    Some(p) => match fabric.switch_index(p.node) {
                        Some(t) => Link::Switch(t.0, p.port),
                        None => {
                            hosts[i] += 1;
                            Link::End(p.node, p.port)
                        }
                    },
                };
                link.push(l);
            }
        }
        base.push(link.len() as u32);
        let mut target = vec![None; lids.max_lid() as usize + 1];
        for (lid, o) in lids.iter() {
            target[lid as usize] = Some(match fabric.switch_index(o.node) {
                Some(sw) => Target {
                    sw: sw.0,
                    port: 0,
                    is_end: false,
                },
                None => match fabric
                    .peer(o.node, o.port)
                    .map(|p| (p, fabric.switch_index(p.node)))
                {
                    Some((p, Some(sw))) => Target {
                        sw: sw.0,
                        port: p.port,
                        is_end: true,
                    },
                    _ => Target {
                        sw: u32::MAX,
                        port: 0,
                        is_end: true,
                    },
                },
            });
        }
        let mut tbase = Vec::with_capacity(s + 1);
        let mut acc = 0usize;
        for i in 0..s {
            tbase.push(acc);
            let n = (base[i + 1] - base[i]) as usize;
            acc += n * n;
        }
        tbase.push(acc);
        Topo {
            base,
            link,
            hosts,
            target,
            tbase,
        }
    }

    pub fn num_switches(&self) -> usize {
        self.hosts.len()
    }

    /// Ports of switch `s`, port 0 included.
    pub fn num_ports(&self, s: usize) -> usize {
        (self.base[s + 1] - self.base[s]) as usize
    }

    /// What port `p` of switch `s` leads to (`None` beyond the last port).
    pub fn link(&self, s: usize, p: PortNum) -> Option<Link> {
        if (p as usize) < self.num_ports(s) {
            Some(self.link[self.base[s] as usize + p as usize])
        } else {
            None
        }
    }

    /// The turn bit of `in → out` at switch `s`.
    pub fn turn_bit(&self, s: usize, inp: PortNum, out: PortNum) -> usize {
        self.tbase[s] + inp as usize * self.num_ports(s) + out as usize
    }

    /// The highest LID with an owner.
    pub fn max_lid(&self) -> Lid {
        (self.target.len() - 1) as Lid
    }
}
