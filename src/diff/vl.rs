//! VL plan changes between two runs (`formats/diff-json.md`, "vl"): the
//! SLtoVLMappingTable SMPs a subnet manager sends and the path SLs its SA
//! would answer differently. A side without a plan (LFT-only output) is
//! what a subnet manager without QoS runs: SL 0 on every path, SL2VL the
//! identity.
//!
//! Granularity: SLtoVLMappingTable is addressed per switch by (input port,
//! output port) in its attribute modifier (IBA 1.3 §14.2.5.8), 16 SLs per
//! SMP; one SMP per pair of input port 0..N and output port 1..N (input ≠
//! output) whose 16 entries differ, as OpenSM sends them when it does not
//! use the optimised (wildcard) form. Path SLs are counted per (source
//! switch, destination): every CA on that switch gets the new SL.

use serde::Serialize;

use super::destinations::Pairs;
use crate::model::TableSet;
use crate::model::vl::NUM_SL;

/// What a re-route changes in the VL plan.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct VlDiff {
    /// Data VLs each side's plan uses (1 without a plan).
    pub vls_old: u8,
    pub vls_new: u8,
    /// SLtoVLMappingTable SMPs to switches, and on how many switches.
    pub sl2vl_smps: u64,
    pub sl2vl_switches: usize,
    /// Whether the end ports' map changed (one SMP per CA port).
    pub end_port_map_changed: bool,
    /// (source switch, destination) pairs whose path SL changed, and on how
    /// many source switches.
    pub path_sls_changed: u64,
    pub path_sl_switches: usize,
}

impl VlDiff {
    pub fn is_empty(&self) -> bool {
        self.sl2vl_smps == 0 && !self.end_port_map_changed && self.path_sls_changed == 0
    }
}

const IDENTITY: [u8; NUM_SL] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15];

/// The VL diff over the matched switches, when either side has a plan.
pub(super) fn diff_vl(
    old: &TableSet,
    new: &TableSet,
    matched: &[(usize, usize)],
    pairs: &Pairs,
) -> Option<VlDiff> {
    if old.vl.is_none() && new.vl.is_none() {
        return None;
    }
    let vls = |t: &TableSet| t.vl.as_ref().map_or(1, |v| v.vls);
    let end = |t: &TableSet| t.vl.as_ref().and_then(|v| v.end_port).unwrap_or(IDENTITY);
    let mut d = VlDiff {
        vls_old: vls(old),
        vls_new: vls(new),
        sl2vl_smps: 0,
        sl2vl_switches: 0,
        end_port_map_changed: end(old) != end(new),
        path_sls_changed: 0,
        path_sl_switches: 0,
    };
    for &(oi, ni) in matched {
        let smps = sl2vl_smps(old, oi, new, ni);
        d.sl2vl_smps += smps;
        d.sl2vl_switches += usize::from(smps > 0);
        let sls = path_sls_changed(old, oi, new, ni, pairs);
        d.path_sls_changed += sls;
        d.path_sl_switches += usize::from(sls > 0);
    }
    Some(d)
}

/// The 16 SL → VL entries of switch `i` for (input, output).
fn map(t: &TableSet, i: usize, inp: usize, out: usize) -> [u8; NUM_SL] {
    let Some(v) = &t.vl else {
        return IDENTITY;
    };
    match &v.sl2vl[i] {
        Some((dim, r)) if inp < *dim && out < *dim => {
            let at = r.start + (inp * dim + out) * NUM_SL;
            t.data[at..at + NUM_SL].try_into().unwrap_or(IDENTITY)
        }
        _ => v.default.unwrap_or(IDENTITY),
    }
}

fn sl2vl_smps(old: &TableSet, oi: usize, new: &TableSet, ni: usize) -> u64 {
    let ports = |t: &TableSet, i: usize| {
        let own =
            t.vl.as_ref()
                .and_then(|v| v.sl2vl[i].as_ref())
                .map(|s| s.0 - 1);
        own.or(t.switches[i].num_ports.map(usize::from))
            .unwrap_or(0)
    };
    let n = ports(new, ni).max(ports(old, oi));
    let mut smps = 0;
    for inp in 0..=n {
        for out in (1..=n).filter(|&o| o != inp) {
            smps += u64::from(map(old, oi, inp, out) != map(new, ni, inp, out));
        }
    }
    smps
}

fn path_sls_changed(old: &TableSet, oi: usize, new: &TableSet, ni: usize, pairs: &Pairs) -> u64 {
    let (orow, nrow) = (path_sl_row(old, oi), path_sl_row(new, ni));
    if orow.is_empty() && nrow.is_empty() {
        return 0;
    }
    let sl = |r: &[u8], l: u16| r.get(l as usize).copied().unwrap_or(0) & 15;
    pairs
        .pairs
        .iter()
        .filter(|&&(o, n)| sl(orow, o) != sl(nrow, n))
        .count() as u64
}

fn path_sl_row(t: &TableSet, i: usize) -> &[u8] {
    t.vl.as_ref().map_or(&[], |v| &t.data[v.path_sl[i].clone()])
}
