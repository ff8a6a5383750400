//! Faults (cables, ports, switches, nodes that are down) and their
//! application to a fabric before routing.

use std::fmt;

use thiserror::Error;

use super::fabric::{Fabric, NodeKind};
use super::ids::{Guid, NodeIdx, PortNum};

/// A port named by GUID and number (`GUID/PORT` in fault lists).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct PortRef {
    pub guid: Guid,
    pub port: PortNum,
}

impl fmt::Display for PortRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.guid, self.port)
    }
}

/// One fault. GUIDs are node GUIDs; an end port GUID is accepted for CAs.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Fault {
    /// The cable on `end` is gone; `other`, when given, must be its far end.
    Link {
        end: PortRef,
        other: Option<PortRef>,
    },
    /// The port is down (its cable, if any, carries nothing).
    Port(PortRef),
    /// The whole switch is down.
    Switch(Guid),
    /// The whole node (switch, CA or router) is down.
    Node(Guid),
}

/// A fault that names something the topology does not have.
#[derive(Clone, Debug, Error, PartialEq)]
#[error("fault #{index}: {message}")]
pub struct FaultError {
    /// Position of the fault in the list (0-based); parsers map it to a line.
    pub index: usize,
    pub message: String,
}

/// What applying faults did.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FaultSummary {
    /// Cables removed (by link and port faults).
    pub cables_removed: usize,
    /// Nodes removed by switch and node faults.
    pub nodes_removed: usize,
    /// End nodes left with no cable, dropped because no SM would see them.
    pub isolated: Vec<Guid>,
}

impl Fabric {
    /// The fabric with `faults` applied. Every fault must name an existing
    /// node, port or cable; a cable named twice is removed once.
    pub fn apply_faults(&self, faults: &[Fault]) -> Result<(Fabric, FaultSummary), FaultError> {
        let mut work = self.clone();
        let mut dead = vec![false; self.num_nodes()];
        let mut summary = FaultSummary::default();
        for (index, fault) in faults.iter().enumerate() {
            let err = |message: String| FaultError { index, message };
            match fault {
                Fault::Link { end, other } => {
                    let (n, p) = self.cabled_port(end, other.as_ref()).map_err(err)?;
                    summary.cables_removed += work.cut(n, p);
                }
                Fault::Port(pr) => {
                    let (n, p) = self.resolve_port(pr).map_err(err)?;
                    summary.cables_removed += work.cut(n, p);
                }
                Fault::Switch(g) => dead[self.switch_by_guid(*g).map_err(err)?.ix()] = true,
                Fault::Node(g) => {
                    let n = self
                        .node_by_guid(*g)
                        .or_else(|| self.port_by_guid(*g).map(|(n, _)| n))
                        .ok_or_else(|| err(format!("no node with GUID {g}")))?;
                    dead[n.ix()] = true;
                }
            }
        }
        summary.nodes_removed = dead.iter().filter(|&&d| d).count();
        let isolated = self.isolated_by(&work, &dead);
        summary.isolated = self
            .node_indices()
            .filter(|n| isolated[n.ix()])
            .map(|n| self.node(n).guid)
            .collect();
        let result = work
            .rebuild_retaining(|n| !dead[n.ix()] && !isolated[n.ix()])
            .build();
        Ok((result, summary))
    }

    /// The port a `link` fault names, checked to carry a cable (to `other`,
    /// when the fault names the far end too).
    fn cabled_port(
        &self,
        end: &PortRef,
        other: Option<&PortRef>,
    ) -> Result<(NodeIdx, PortNum), String> {
        let (n, p) = self.resolve_port(end)?;
        let Some(peer) = self.port(n, p).peer else {
            return Err(format!("{end}: there is no cable on this port"));
        };
        if let Some(o) = other
            && self.resolve_port(o)? != (peer.node, peer.port)
        {
            let far = self.node(peer.node).guid;
            return Err(format!(
                "{end} is cabled to {far}/{}, not to {o}",
                peer.port
            ));
        }
        Ok((n, p))
    }

    /// Removes the cable on port `p` of `n`, if still there: 1 if it was.
    fn cut(&mut self, n: NodeIdx, p: PortNum) -> usize {
        let had = self.port(n, p).peer.is_some();
        if had {
            self.unlink(n, p);
        }
        usize::from(had)
    }

    /// The switch with node GUID `g`.
    fn switch_by_guid(&self, g: Guid) -> Result<NodeIdx, String> {
        let n = self
            .node_by_guid(g)
            .ok_or_else(|| format!("no switch with GUID {g}"))?;
        if self.node(n).kind != NodeKind::Switch {
            return Err(format!("{g} is a {:?}, not a switch", self.node(n).kind));
        }
        Ok(n)
    }

    /// End nodes whose last cable went with a fault (in `work`, or to a
    /// `dead` node): invisible to an SM, so dropped rather than reported
    /// unreachable. End nodes that had no cable in the input stay.
    fn isolated_by(&self, work: &Fabric, dead: &[bool]) -> Vec<bool> {
        self.node_indices()
            .map(|n| {
                !dead[n.ix()]
                    && self.is_endpoint(n)
                    && self.ports(n).iter().any(|p| p.peer.is_some())
                    && work
                        .ports(n)
                        .iter()
                        .all(|p| p.peer.is_none_or(|q| dead[q.node.ix()]))
            })
            .collect()
    }

    fn resolve_port(&self, r: &PortRef) -> Result<(NodeIdx, PortNum), String> {
        let n = match self.node_by_guid(r.guid) {
            Some(n) => n,
            None => match self.port_by_guid(r.guid) {
                Some((n, _)) if !self.is_switch(n) => n,
                _ => return Err(format!("no node with GUID {}", r.guid)),
            },
        };
        let node = self.node(n);
        if r.port == 0 || r.port > node.num_ports {
            return Err(format!(
                "{}: port {} does not exist ({} has ports 1..{})",
                r, r.port, node.guid, node.num_ports
            ));
        }
        Ok((n, r.port))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{FabricBuilder, NodeSpec};

    fn fabric() -> Fabric {
        let mut b = FabricBuilder::new();
        let s1 = b
            .add_node(NodeSpec::new(NodeKind::Switch, Guid(1), 4, "s1"))
            .unwrap();
        let s2 = b
            .add_node(NodeSpec::new(NodeKind::Switch, Guid(2), 4, "s2"))
            .unwrap();
        let h = b
            .add_node(NodeSpec::new(NodeKind::Ca, Guid(10), 1, "h"))
            .unwrap();
        b.port_mut(h, 1).unwrap().guid = Guid(11);
        b.connect(s1, 1, s2, 1).unwrap();
        b.connect(s1, 2, s2, 2).unwrap();
        b.connect(h, 1, s2, 3).unwrap();
        b.build()
    }

    fn pr(g: u64, p: u8) -> PortRef {
        PortRef {
            guid: Guid(g),
            port: p,
        }
    }

    #[test]
    fn link_fault_removes_one_parallel_cable() {
        let f = fabric();
        let (g, s) = f
            .apply_faults(&[Fault::Link {
                end: pr(1, 1),
                other: Some(pr(2, 1)),
            }])
            .unwrap();
        assert_eq!(g.links().count(), 2);
        assert_eq!(s.cables_removed, 1);
    }

    #[test]
    fn wrong_far_end_and_unknown_guid_are_errors() {
        let f = fabric();
        let e = f
            .apply_faults(&[
                Fault::Port(pr(1, 2)),
                Fault::Link {
                    end: pr(1, 1),
                    other: Some(pr(2, 2)),
                },
            ])
            .unwrap_err();
        assert_eq!(e.index, 1);
        assert!(e.message.contains("not to"), "{e}");
        let e = f.apply_faults(&[Fault::Switch(Guid(99))]).unwrap_err();
        assert!(e.message.contains("0x0000000000000063"), "{e}");
        let e = f.apply_faults(&[Fault::Switch(Guid(10))]).unwrap_err();
        assert!(e.message.contains("not a switch"), "{e}");
    }

    #[test]
    fn switch_fault_isolates_and_drops_its_hosts() {
        let f = fabric();
        let (g, s) = f.apply_faults(&[Fault::Switch(Guid(2))]).unwrap();
        assert_eq!(g.num_nodes(), 1);
        assert_eq!(s.isolated, vec![Guid(10)]);
        // a CA port GUID also names its node
        let (g, _) = f.apply_faults(&[Fault::Node(Guid(11))]).unwrap();
        assert_eq!(g.num_nodes(), 2);
    }
}
