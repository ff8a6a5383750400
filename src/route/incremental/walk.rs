//! Following one destination's column of a table (one output port per
//! switch) from every switch at once, with a memo per (switch, phase), so a
//! column costs O(switches): each path is walked until it meets a switch
//! already decided. The phase is whether the path has gone down yet (an
//! up/down promise forbids going up again); min-hop's promise is checked
//! hop by hop (each hop one switch closer), so every broken path has a
//! switch where it breaks.

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

    /// Where every port of switch `s` leads (index = port number).
    pub(super) fn of(&self, s: usize) -> &[Next] {
        &self.next[self.start[s]..self.start[s + 1]]
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
    Elsewhere,
    UpAfterDown,
    /// A hop that does not bring the path one switch closer.
    NotShortest,
}

/// The promise a path is held to.
#[derive(Clone, Copy)]
pub(super) enum Rule<'a> {
    /// Reach the destination, no loop.
    Reach,
    /// And never up after down (the ranks in [`Ports`]).
    UpDown,
    /// And every hop one switch closer (min-hop's shortest paths).
    Shortest(&'a SwitchHops),
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
    chain: Vec<usize>,
}

impl Walker {
    pub(super) fn new(switches: usize) -> Walker {
        Walker {
            mark: vec![Mark::Unknown; 2 * switches],
            chain: Vec::new(),
        }
    }

    /// Walks `col` from every switch (phase: not yet gone down) and writes
    /// how each path ends under `rule`.
    pub(super) fn walk(
        &mut self,
        ports: &Ports,
        (target, rule): (Target, Rule),
        col: &[u8],
        end: &mut [End],
    ) {
        self.mark.fill(Mark::Unknown);
        for (s, e) in end.iter_mut().enumerate().take(col.len()) {
            self.resolve(ports, (target, rule), col, 2 * s);
            *e = match self.mark[2 * s] {
                Mark::Done(e) => e,
                _ => unreachable!("resolve decides every key it starts from"),
            };
        }
    }

    /// How the path ends from every key (switch × phase: `2s` not yet gone
    /// down, `2s + 1` gone down) into `end` (2 × switches long).
    pub(super) fn walk_keys(
        &mut self,
        ports: &Ports,
        rule: (Target, Rule),
        col: &[u8],
        end: &mut [End],
    ) {
        self.mark.fill(Mark::Unknown);
        for (key, e) in end.iter_mut().enumerate().take(2 * col.len()) {
            self.resolve(ports, rule, col, key);
            *e = match self.mark[key] {
                Mark::Done(e) => e,
                _ => unreachable!("resolve decides every key it starts from"),
            };
        }
    }

    fn resolve(&mut self, ports: &Ports, rule: (Target, Rule), col: &[u8], start: usize) {
        self.chain.clear();
        let mut key = start;
        let end = loop {
            match self.mark[key] {
                Mark::Done(e) => break e,
                Mark::InChain => break End::Loop,
                Mark::Unknown => {}
            }
            self.mark[key] = Mark::InChain;
            self.chain.push(key);
            match step(ports, rule, col, key) {
                Ok(k) => key = k,
                Err(e) => break e,
            }
        };
        for &k in &self.chain {
            self.mark[k] = Mark::Done(end);
        }
    }
}

/// Follows `col` from switch `s` under `rule`, pushing the keys (switch ×
/// phase, as in [`Walker::walk_keys`]) of the path, the last one where it
/// ends, into `path`.
pub(super) fn trace(
    ports: &Ports,
    rule: (Target, Rule),
    col: &[u8],
    s: usize,
    path: &mut Vec<usize>,
) -> End {
    path.clear();
    let mut key = 2 * s;
    loop {
        path.push(key);
        if path.len() > 2 * col.len() + 2 {
            return End::Loop;
        }
        match step(ports, rule, col, key) {
            Ok(k) => key = k,
            Err(e) => return e,
        }
    }
}

/// One hop of the walk from `key` (switch × phase).
fn step(
    ports: &Ports,
    (target, rule): (Target, Rule),
    col: &[u8],
    key: usize,
) -> Result<usize, End> {
    let (s, gone_down) = (key / 2, key % 2 == 1);
    let p = col[s];
    if let Target::Switch(t) = target
        && t as usize == s
    {
        return if p == 0 {
            Err(End::Reached)
        } else {
            Err(End::Elsewhere)
        };
    }
    if p == NO_ROUTE {
        return Err(End::NoRoute);
    }
    match ports.get(s, p) {
        Next::Down => Err(End::PortDown),
        Next::End(n, q) => match target {
            Target::End { node, port, .. } if node == n && port == q => Err(End::Reached),
            _ => Err(End::Elsewhere),
        },
        Next::Switch { t, up } => match rule {
            Rule::UpDown if up && gone_down => Err(End::UpAfterDown),
            Rule::UpDown => Ok(2 * t as usize + usize::from(gone_down || !up)),
            Rule::Shortest(h) => match target.switch() {
                Some(d) if u16::from(h.get(t as usize, d)) + 1 == u16::from(h.get(s, d)) => {
                    Ok(2 * t as usize)
                }
                _ => Err(End::NotShortest),
            },
            Rule::Reach => Ok(2 * t as usize),
        },
    }
}

impl Target {
    /// The switch the destination is on or cabled to.
    fn switch(self) -> Option<usize> {
        match self {
            Target::Switch(t) | Target::End { sw: Some(t), .. } => Some(t as usize),
            _ => None,
        }
    }
}
