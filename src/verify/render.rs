//! Turns the pass's records (switch indices, LIDs) into [`Finding`]s that
//! name switches by GUID and description (the verdict's text is
//! `verdict.rs`'s).

use std::collections::BTreeMap;

use super::cdg::Channel;
use super::finding::{Code, Finding, Hop};
use super::topo::Topo;
use super::walk::{DeadKind, LaneProblem, Loop, TooLong, Unreach};
use crate::model::{Fabric, Guid, Lid, LidMap, PortNum, SwIdx};

pub(crate) struct Renderer<'a> {
    pub fabric: &'a Fabric,
    pub lids: &'a LidMap,
    pub topo: &'a Topo,
    pub cap: usize,
}

impl Renderer<'_> {
    fn guid(&self, s: u32) -> Guid {
        self.fabric.node(self.fabric.switch_node(SwIdx(s))).guid
    }

    fn name(&self, s: u32) -> String {
        self.fabric
            .node(self.fabric.switch_node(SwIdx(s)))
            .desc
            .clone()
    }

    fn sw(&self, s: u32) -> String {
        format!("{} {:?}", self.guid(s), self.name(s))
    }

    fn hop(&self, s: u32, in_port: Option<PortNum>, out_port: PortNum, vl: Option<u8>) -> Hop {
        Hop {
            switch: self.guid(s),
            name: self.name(s),
            in_port,
            out_port,
            vl,
        }
    }

    /// `LID 5 (0x... "H0003" port 1)`.
    fn lid(&self, lid: Lid) -> String {
        match self.lids.owner(lid) {
            Some(o) => {
                let n = self.fabric.node(o.node);
                format!("LID {lid} ({} {:?} port {})", n.guid, n.desc, o.port)
            }
            None => format!("LID {lid}"),
        }
    }

    pub fn unreachable(
        &self,
        code: Code,
        items: &std::collections::BTreeSet<Unreach>,
    ) -> Vec<Finding> {
        items
            .iter()
            .map(|u| {
                let why = match u.kind {
                    DeadKind::NoRoute => {
                        format!("switch {} has no entry (0xFF)", self.sw(u.dead_sw))
                    }
                    DeadKind::BadPort => {
                        format!(
                            "switch {} routes to port {}, which it does not have",
                            self.sw(u.dead_sw),
                            u.dead_port
                        )
                    }
                    DeadKind::Port0 => format!(
                        "switch {} delivers it to its own port 0",
                        self.sw(u.dead_sw)
                    ),
                    DeadKind::NotCabled => {
                        format!(
                            "switch {} routes to port {}, which has no cable",
                            self.sw(u.dead_sw),
                            u.dead_port
                        )
                    }
                    DeadKind::WrongEnd(n, p) => format!(
                        "switch {} routes to port {}, which leads to {} {:?} port {p}",
                        self.sw(u.dead_sw),
                        u.dead_port,
                        self.fabric.node(n).guid,
                        self.fabric.node(n).desc
                    ),
                    DeadKind::NoSwitch => "its port is not cabled to a switch".to_string(),
                };
                let mut f = Finding::new(
                    code,
                    format!(
                        "{} is unreachable from {} source switch(es), e.g. {}: {why}",
                        self.lid(u.lid),
                        u.sources,
                        self.sw(u.example_src)
                    ),
                );
                f.lids = vec![u.lid];
                f.switches = vec![self.guid(u.example_src)];
                if u.kind != DeadKind::NoSwitch {
                    f.switches.push(self.guid(u.dead_sw));
                    f.hops = vec![self.hop(u.dead_sw, None, u.dead_port, None)];
                }
                f
            })
            .collect()
    }

    pub fn loops(&self, items: &std::collections::BTreeSet<Loop>) -> Vec<Finding> {
        items
            .iter()
            .map(|l| {
                let mut f = Finding::new(
                    Code::V002,
                    format!(
                        "routes toward {} loop through {} switch(es) ({} source switch(es) affected)",
                        self.lid(l.lid),
                        l.cycle.len(),
                        l.sources
                    ),
                );
                f.lids = vec![l.lid];
                f.switches = l.cycle.iter().map(|&(s, _, _)| self.guid(s)).collect();
                f.hops = l.cycle.iter().map(|&(s, i, o)| self.hop(s, Some(i), o, None)).collect();
                f
            })
            .collect()
    }

    pub fn too_long(
        &self,
        items: &std::collections::BTreeSet<TooLong>,
        limit: u32,
    ) -> Vec<Finding> {
        items
            .iter()
            .map(|t| {
                let mut f = Finding::new(
                    Code::V003,
                    format!(
                        "the route from {} to {} takes {} switch hops (limit {limit})",
                        self.sw(t.src),
                        self.lid(t.lid),
                        t.hops
                    ),
                );
                f.lids = vec![t.lid];
                f.switches = vec![self.guid(t.src)];
                f
            })
            .collect()
    }

    pub fn updown(
        &self,
        v: &BTreeMap<(u32, PortNum, PortNum), Lid>,
        ranks: Option<&[u32]>,
    ) -> Vec<Finding> {
        let rank = |s: u32| {
            ranks
                .and_then(|r| r.get(s as usize).copied())
                .unwrap_or(u32::MAX)
        };
        v.iter()
            .take(self.cap)
            .map(|(&(s, i, o), &lid)| {
                let peer = |p: PortNum| match self.topo.link(s as usize, p) {
                    Some(super::topo::Link::Switch(n, _)) => n,
                    _ => s,
                };
                let (a, c) = (peer(i), peer(o));
                let mut f = Finding::new(
                    Code::V010,
                    format!(
                        "down-then-up turn at {} (rank {}): in port {i} from rank {}, out port {o} to rank {}, used toward {}",
                        self.sw(s),
                        rank(s),
                        rank(a),
                        rank(c),
                        self.lid(lid)
                    ),
                );
                f.lids = vec![lid];
                f.switches = vec![self.guid(s)];
                f.hops = vec![self.hop(s, Some(i), o, None)];
                f
            })
            .collect()
    }

    /// V021 and V022 (`op_vls`: per switch): one finding per (switch, SL,
    /// out port), naming the hop and the first LID whose paths take it.
    pub fn lanes(
        &self,
        code: Code,
        items: &std::collections::BTreeSet<LaneProblem>,
        op_vls: &[u8],
    ) -> Vec<Finding> {
        let mut seen = std::collections::BTreeSet::new();
        let mut out = Vec::new();
        for p in items
            .iter()
            .filter(|p| seen.insert((p.sw, p.sl, p.out_port)))
        {
            let from = match p.in_port {
                0 => "from its end ports".to_string(),
                q => format!("arriving on port {q}"),
            };
            let what = if code == Code::V021 {
                "VL 15: its SL2VL table drops these packets".to_string()
            } else {
                let ops = op_vls.get(p.sw as usize).copied().unwrap_or(0);
                format!(
                    "VL {}, beyond the {ops} operational data VLs of the port",
                    p.vl
                )
            };
            let mut f = Finding::new(
                code,
                format!(
                    "switch {} sends SL {} {from} out of port {} on {what} (toward {})",
                    self.sw(p.sw),
                    p.sl,
                    p.out_port,
                    self.lid(p.lid)
                ),
            );
            f.lids.push(p.lid);
            f.switches.push(self.guid(p.sw));
            let in_port = (p.in_port != 0).then_some(p.in_port);
            f.hops.push(self.hop(p.sw, in_port, p.out_port, Some(p.vl)));
            out.push(f);
        }
        out
    }

    pub fn credit_loops(&self, cycles: &[Vec<Channel>]) -> Vec<Finding> {
        cycles
            .iter()
            .take(self.cap)
            .map(|cyc| {
                let vls: std::collections::BTreeSet<u8> = cyc.iter().map(|c| c.vl).collect();
                let mut f = Finding::new(
                    Code::V020,
                    format!("credit loop through {} channels on VL {:?}", cyc.len(), vls),
                );
                let n = cyc.len();
                f.hops = (0..n)
                    .map(|k| {
                        let prev = cyc[(k + n - 1) % n];
                        let c = cyc[k];
                        let in_port = match self.topo.link(prev.sw as usize, prev.port) {
                            Some(super::topo::Link::Switch(_, q)) => Some(q),
                            _ => None,
                        };
                        self.hop(c.sw, in_port, c.port, Some(c.vl))
                    })
                    .collect();
                f.switches = cyc.iter().map(|c| self.guid(c.sw)).collect();
                f
            })
            .collect()
    }
}
