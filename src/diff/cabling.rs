//! The cabling check for CI: compares an actual topology with the expected
//! one and says, for each difference, whether routes computed for the
//! expected fabric are still valid. The rules are Table 1 of the 2005
//! OpenSM routing memo (seed `opensm-unicast-routing-enhancements-2005.txt`
//! §7): a new or missing switch invalidates everything; a missing
//! switch-to-switch cable invalidates the min-hop tables only if it was the
//! last cable between the two switches, and the LFT entries through that
//! port in any case; CA changes and new cables invalidate nothing; a LID
//! change invalidates the entries of the changed LIDs.

use std::collections::BTreeSet;

use serde::Serialize;

use crate::model::{Fabric, Guid, NodeIdx, NodeKind, PortNum};

/// The kinds of difference.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ChangeKind {
    NewSwitch,
    MissingSwitch,
    NewCa,
    MissingCa,
    NewCable,
    MissingCable,
    MovedCable,
    LidChange,
}

/// One difference and its effect (Table 1's two columns).
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Debug, Serialize)]
pub struct Change {
    pub kind: ChangeKind,
    pub message: String,
    /// Min-hop tables (and so the routing decisions) are no longer valid.
    pub invalidates_minhop: bool,
    /// Some LFT entries are no longer valid.
    pub invalidates_routes: bool,
}

/// All differences, sorted by kind then message.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct CablingReport {
    pub changes: Vec<Change>,
    pub routes_invalidated: bool,
}

type End = (Guid, PortNum);

fn node_name(f: &Fabric, n: NodeIdx) -> String {
    format!("{} {:?}", f.node(n).guid, f.node(n).desc)
}

/// The far end of the cable on `end` in `f`, by GUID: looked up in place,
/// so a comparison costs no map of every cable (the incremental compile
/// runs one per call, issue 16).
fn far(f: &Fabric, (g, p): End) -> Option<End> {
    let q = f.peer(f.node_by_guid(g)?, p)?;
    Some((f.node(q.node).guid, q.port))
}

/// Every cable of `f` once, its ends ordered by (GUID, port).
fn cables(f: &Fabric) -> impl Iterator<Item = (End, End)> + '_ {
    f.links().map(|(a, pa, b, pb)| {
        let (x, y) = ((f.node(a).guid, pa), (f.node(b).guid, pb));
        if x < y { (x, y) } else { (y, x) }
    })
}

fn is_switch(f: &Fabric, g: Guid) -> bool {
    f.node_by_guid(g).is_some_and(|n| f.is_switch(n))
}

/// Number of cables between two switches in `f`.
fn parallel(f: &Fabric, a: Guid, b: Guid) -> usize {
    let Some(n) = f.node_by_guid(a) else { return 0 };
    f.switch_links(n)
        .filter(|(_, p)| f.node(p.node).guid == b)
        .count()
}

/// Compares `actual` with `expected`.
pub fn compare(expected: &Fabric, actual: &Fabric) -> CablingReport {
    let mut found = Found::default();
    found.nodes(expected, actual);
    found.cables(expected, actual);
    found.lids(expected, actual);
    let changes: Vec<Change> = found.0.into_iter().collect();
    CablingReport {
        routes_invalidated: changes.iter().any(|c| c.invalidates_routes),
        changes,
    }
}

/// The changes found so far, in report order.
#[derive(Default)]
struct Found(BTreeSet<Change>);

impl Found {
    fn add(&mut self, kind: ChangeKind, message: String, minhop: bool, routes: bool) {
        self.0.insert(Change {
            kind,
            message,
            invalidates_minhop: minhop,
            invalidates_routes: routes,
        });
    }

    /// Switches and CAs on one side only; a switch invalidates routing.
    fn nodes(&mut self, expected: &Fabric, actual: &Fabric) {
        for (f, g, new) in [(actual, expected, true), (expected, actual, false)] {
            for n in f.node_indices() {
                if g.node_by_guid(f.node(n).guid).is_some() {
                    continue;
                }
                let sw = f.node(n).kind == NodeKind::Switch;
                let kind = match (sw, new) {
                    (true, true) => ChangeKind::NewSwitch,
                    (true, false) => ChangeKind::MissingSwitch,
                    (false, true) => ChangeKind::NewCa,
                    (false, false) => ChangeKind::MissingCa,
                };
                let what = if new { "new" } else { "missing" };
                self.add(kind, format!("{what} {}", node_name(f, n)), sw, sw);
            }
        }
    }

    /// Cables between nodes both sides know: missing, moved or new. Losing
    /// the last cable between two switches invalidates min-hop routing.
    fn cables(&mut self, expected: &Fabric, actual: &Fabric) {
        let known =
            |g: Guid| expected.node_by_guid(g).is_some() && actual.node_by_guid(g).is_some();
        let moved = |a: End, b: End, c: End| {
            format!(
                "{}/{} now leads to {}/{} instead of {}/{}",
                a.0, a.1, c.0, c.1, b.0, b.1
            )
        };
        for (a, b) in cables(expected) {
            if far(actual, a) == Some(b) || !known(a.0) || !known(b.0) {
                continue;
            }
            let sw_sw = is_switch(expected, a.0) && is_switch(expected, b.0);
            let last = sw_sw && parallel(actual, a.0, b.0) == 0;
            let (kind, msg) = match (far(actual, a), far(actual, b)) {
                (Some(c), _) => (ChangeKind::MovedCable, moved(a, b, c)),
                (None, Some(c)) => (ChangeKind::MovedCable, moved(b, a, c)),
                (None, None) => (
                    ChangeKind::MissingCable,
                    format!("missing cable {}/{} - {}/{}", a.0, a.1, b.0, b.1),
                ),
            };
            self.add(kind, msg, last, sw_sw);
        }
        for (a, b) in cables(actual) {
            let old = |e: End| far(expected, e).is_some();
            if !known(a.0) || !known(b.0) || old(a) || old(b) {
                continue;
            }
            let msg = format!("new cable {}/{} - {}/{}", a.0, a.1, b.0, b.1);
            self.add(ChangeKind::NewCable, msg, false, false);
        }
    }

    /// Ports whose LID changed: every route to them must change.
    fn lids(&mut self, expected: &Fabric, actual: &Fabric) {
        use crate::model::lids::is_assigned;
        for n in expected.node_indices() {
            let guid = expected.node(n).guid;
            let Some(m) = actual.node_by_guid(guid) else {
                continue;
            };
            let now = actual.ports(m);
            for (i, p) in expected.ports(n).iter().enumerate() {
                let l = p.lid;
                let Some(m) = now.get(i).map(|q| q.lid) else {
                    continue;
                };
                if is_assigned(l) && is_assigned(m) && m != l {
                    let msg = format!("{guid}/{i}: LID {l} is now {m}");
                    self.add(ChangeKind::LidChange, msg, false, true);
                }
            }
        }
    }
}

impl CablingReport {
    /// One line per change, then a verdict line.
    pub fn render(&self) -> String {
        let mut s = String::new();
        for c in &self.changes {
            let effect = match (c.invalidates_minhop, c.invalidates_routes) {
                (true, _) => "invalidates routing",
                (false, true) => "invalidates the LFT entries through it",
                (false, false) => "routes stay valid",
            };
            s += &format!("{:?}: {} ({effect})\n", c.kind, c.message);
        }
        s += &match (self.changes.len(), self.routes_invalidated) {
            (0, _) => "cabling matches the expected topology\n".to_string(),
            (n, true) => format!("{n} difference(s); existing routes are invalidated\n"),
            (n, false) => format!("{n} difference(s); existing routes stay valid\n"),
        };
        s
    }
}
