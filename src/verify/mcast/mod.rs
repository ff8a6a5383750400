//! Multicast verification from the MFTs alone: for every MLID the entries
//! must form trees (symmetric links, no cycle) so that a packet injected by
//! any member reaches every other member exactly once; trees on one MLID
//! must not meet on a switch unless their groups were merged on purpose
//! (seed:mr4lms Def. 5, 7); no port outside the tree's groups may receive.
//! Problems are [`Finding`]s with codes V030..V036, like the unicast ones.

mod tree;

use std::collections::{BTreeMap, HashMap};

use serde::Serialize;

use crate::model::{Fabric, GroupColour, Guid, McastGroup, Mfts, PortNum, SwIdx};
use crate::verify::{Code, Finding, Hop};

/// The outcome of a multicast check.
#[derive(Clone, PartialEq, Debug, Default, Serialize)]
pub struct McastCheck {
    /// Every finding, by code then MLID.
    pub findings: Vec<Finding>,
    /// Trees (connected MFT components) checked.
    pub trees: usize,
    /// Most groups found on one tree (intentional merges).
    pub max_tfi: usize,
}

/// Checks `mfts` against `groups` and their colours (matched by name).
pub fn verify_mfts(
    fabric: &Fabric,
    mfts: &Mfts,
    groups: &[McastGroup],
    colours: &[GroupColour],
) -> McastCheck {
    let by_name: HashMap<&str, &GroupColour> =
        colours.iter().map(|c| (c.name.as_str(), c)).collect();
    let mut check = McastCheck::default();
    let mut per_mlid: BTreeMap<u16, Vec<usize>> = BTreeMap::new();
    for (g, group) in groups.iter().enumerate() {
        match by_name.get(group.name.as_str()) {
            Some(c) => per_mlid.entry(c.mlid).or_default().push(g),
            None => check.findings.push(Finding::new(
                Code::V030,
                format!("group {} has no MLID in the colour table", group.name),
            )),
        }
    }
    let mut switches: BTreeMap<u16, Vec<SwIdx>> = BTreeMap::new();
    for s in (0..mfts.num_switches() as u32).map(SwIdx) {
        for (mlid, _) in mfts.rows(s) {
            switches.entry(*mlid).or_default().push(s);
        }
    }
    for (mlid, sws) in &switches {
        let gs = per_mlid.get(mlid).map_or(&[][..], Vec::as_slice);
        let on = tree::Mlid {
            fabric,
            mfts,
            mlid: *mlid,
            sws,
            groups,
            colours: &by_name,
        };
        on.check(gs, &mut check);
    }
    for (mlid, gs) in &per_mlid {
        if !switches.contains_key(mlid) {
            for &g in gs {
                if let Some(m) = groups[g].members.first() {
                    let (member, switch) = (m.guid(fabric), guid_of(fabric, m.leaf));
                    check
                        .findings
                        .push(no_entry(&groups[g].name, *mlid, member, switch));
                }
            }
        }
    }
    check
        .findings
        .sort_by(|a, b| (a.code, &a.lids).cmp(&(b.code, &b.lids)));
    check
}

fn guid_of(fabric: &Fabric, s: SwIdx) -> Guid {
    fabric.node(fabric.switch_node(s)).guid
}

/// A finding on `mlid` at `switch`: the MLID in `lids`, the switch in
/// `switches`.
fn at_switch(code: Code, mlid: u16, switch: Guid, message: String) -> Finding {
    let mut f = Finding::new(code, format!("MLID 0x{mlid:04x}: {message}"));
    f.lids.push(mlid);
    f.switches.push(switch);
    f
}

/// A finding on `mlid` at one port of `switch`, which becomes a hop.
fn at_port(
    fabric: &Fabric,
    code: Code,
    mlid: u16,
    switch: Guid,
    port: PortNum,
    message: String,
) -> Finding {
    let mut f = at_switch(code, mlid, switch, message);
    let name = fabric
        .node_by_guid(switch)
        .map(|n| fabric.node(n).desc.clone());
    f.hops.push(Hop {
        switch,
        name: name.unwrap_or_default(),
        in_port: None,
        out_port: port,
        vl: None,
    });
    f
}

/// V031: the member's switch has no entry for the MLID, or not its port.
fn no_entry(group: &str, mlid: u16, member: Guid, switch: Guid) -> Finding {
    let msg = format!("member {member} of {group} has no MFT entry at switch {switch}");
    at_switch(Code::V031, mlid, switch, msg)
}
