//! Following one destination's column of a table (one output port per
//! switch) from every switch at once, with a memo per (switch, phase), so a
//! column costs O(switches): each path is walked until it meets a switch
//! already decided. The phase is whether the path has gone down yet (an
//! up/down promise forbids going up again); min-hop's promise is checked
//! on the path lengths afterwards.

use crate::model::hops::SwitchHops;
use crate::model::{Fabric, LidMap, NO_ROUTE, NodeIdx, PortNum};

/// Where a port leads.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Next {
    /// No cable (or a self-loop, which carries no route).
    Down,
    /// Switch `t`; `up` per the promise's ranks (false without ranks).
    Switch { t: u32, up: bool },
    /// An end port.
    End(NodeIdx, PortNum),
}

/// Every switch port of the new fabric, resolved once.
pub(super) struct Ports {
    start: Vec<usize>,
    next: Vec<Next>,
}

impl Ports {
    /// `ranks`: up/down ranks (0 = root), as `Promise::up_down_ranks`.
    pub(super) fn new(fabric: &Fabric, ranks: Option<&[u32]>) -> Ports {
        let mut start = Vec::with_capacity(fabric.num_switches() + 1);
        let mut next = Vec::new();
        for (s, &n) in fabric.switches().iter().enumerate() {
            start.push(next.len());
            for port in fabric.ports(n) {
                next.push(match port.peer {
                    None => Next::Down,
                    Some(p) if p.node == n => Next::Down,
                    Some(p) => match fabric.switch_index(p.node) {
                        Some(t) => Next::Switch {
                            t: t.0,
                            up: ranks.is_some_and(|r| {
                                is_up(r[s], fabric.node(n).guid.0, r[t.ix()], {
                                    fabric.node(p.node).guid.0
                                })
                            }),
                        },
                        None => Next::End(p.node, p.port),
                    },
                });
            }
        }
        start.push(next.len());
        Ports { start, next }
    }

    /// Where port `p` of switch `s` leads.
    pub(super) fn get(&self, s: usize, p: u8) -> Next {
        let i = self.start[s] + p as usize;
        if i < self.start[s + 1] {
            self.next[i]
        } else {
            Next::Down
        }
    }
}

/// Up/down direction of a link, as OpenSM's up/down ranks mean it: toward a
/// lower rank is up, between roots is up, between equal ranks up from the
/// higher GUID (written here from the rule in `formats/findings.md` V010,
/// not taken from the verifier, which must stay independent).
fn is_up(cur: u32, cur_id: u64, rem: u32, rem_id: u64) -> bool {
    if cur == 0 && rem == 0 {
        return true;
    }
    cur > rem || (cur == rem && cur_id > rem_id)
}

/// Where a LID lives in the new fabric.
#[derive(Clone, Copy, Debug)]
pub(super) enum Target {
    /// A switch's own LID: delivered at switch `s` (entry 0).
    Switch(u32),
    /// An end port, cabled to switch `sw`.
    End {
        node: NodeIdx,
        port: PortNum,
        sw: Option<u32>,
    },
    /// Nobody owns it.
    Nowhere,
}

impl Target {
    pub(super) fn of(fabric: &Fabric, lids: &LidMap, lid: u16) -> Target {
        let Some(o) = lids.owner(lid) else {
            return Target::Nowhere;
        };
        if let Some(s) = fabric.switch_index(o.node) {
            return Target::Switch(s.0);
        }
        let sw = fabric
            .peer(o.node, o.port)
            .and_then(|p| fabric.switch_index(p.node))
            .map(|s| s.0);
        Target::End {
            node: o.node,
            port: o.port,
            sw,
        }
    }
}

/// How a walk ended.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum End {
    Reached,
    NoRoute,
    PortDown,
    Loop,
    WrongEnd,
    UpAfterDown,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Mark {
    Unknown,
    InChain,
    Done(End),
}

/// Scratch for one column walk, reused across columns.
pub(super) struct Walker {
    mark: Vec<Mark>,
    len: Vec<u16>,
    chain: Vec<usize>,
}

impl Walker {
    pub(super) fn new(switches: usize) -> Walker {
        Walker {
            mark: vec![Mark::Unknown; 2 * switches],
            len: vec![0; 2 * switches],
            chain: Vec::new(),
        }
    }

    /// Walks `col` from every switch (phase: not yet gone down) and writes
    /// how each path ends and its switch-to-switch hops; `updown`: the path
    /// must not go up after going down.
    pub(super) fn walk(
        &mut self,
        ports: &Ports,
        (target, updown): (Target, bool),
        col: &[u8],
        end: &mut [End],
        hops: &mut [u16],
    ) {
        self.mark.fill(Mark::Unknown);
        for s in 0..col.len() {
            self.resolve(ports, (target, updown), col, 2 * s);
            end[s] = match self.mark[2 * s] {
                Mark::Done(e) => e,
                _ => unreachable!("resolve decides every key it starts from"),
            };
            hops[s] = self.len[2 * s];
        }
    }

    fn resolve(&mut self, ports: &Ports, rule: (Target, bool), col: &[u8], start: usize) {
        self.chain.clear();
        let mut key = start;
        let (end, len) = loop {
            match self.mark[key] {
                Mark::Done(e) => break (e, self.len[key] + 1),
                Mark::InChain => break (End::Loop, 0),
                Mark::Unknown => {}
            }
            self.mark[key] = Mark::InChain;
            self.chain.push(key);
            match step(ports, rule, col, key) {
                Ok(k) => key = k,
                Err(e) => break (e, 0),
            }
        };
        // the last key of the chain ends (or meets a decided key); each
        // earlier one is one more hop away
        for (i, &k) in self.chain.iter().rev().enumerate() {
            self.len[k] = if end == End::Reached {
                len + i as u16
            } else {
                0
            };
            self.mark[k] = Mark::Done(end);
        }
    }
}

/// One hop of the walk from `key` (switch × phase).
fn step(ports: &Ports, (target, updown): (Target, bool), col: &[u8], key: usize) -> Result<usize, End> {
    let (s, gone_down) = (key / 2, key % 2 == 1);
    let p = col[s];
    if let Target::Switch(t) = target
        && t as usize == s
    {
        return if p == 0 {
            Err(End::Reached)
        } else {
            Err(End::WrongEnd)
        };
    }
    if p == NO_ROUTE {
        return Err(End::NoRoute);
    }
    match ports.get(s, p) {
        Next::Down => Err(End::PortDown),
        Next::End(n, q) => match target {
            Target::End { node, port, .. } if node == n && port == q => Err(End::Reached),
            _ => Err(End::WrongEnd),
        },
        Next::Switch { t, up } => {
            let up = up && updown;
            if up && gone_down {
                Err(End::UpAfterDown)
            } else {
                Ok(2 * t as usize + usize::from(gone_down || !up))
            }
        }
    }
}

/// Min-hop's promise: the path is as short as the fabric allows.
pub(super) fn is_shortest(hops: &SwitchHops, target: Target, s: usize, len: u16) -> bool {
    let want = match target {
        Target::Switch(t) => hops.get(s, t as usize),
        Target::End { sw: Some(t), .. } => hops.get(s, t as usize),
        _ => return false,
    };
    u16::from(want) == len
}
