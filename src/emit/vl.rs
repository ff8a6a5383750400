//! The files that carry a VL plan to the tools users run:
//!
//! * `opensm-sl2vl.dump`, as OpenSM writes it with `-Q` (`dump_sl2vl_tbl`,
//!   `opensm/osm_dump.c`): ports in `port_guid_tbl` order (ascending
//!   byte-swapped port GUID), each with a header line and its SL2VL rows;
//! * `ibdmchk.sl2vl` and `ibdmchk.psl`, the `-d` and `-c` inputs of
//!   ibdmchk 1.5.7 (`IBFabric::parseSLVLFile`, `parsePSLFile` in
//!   ibutils' `ibdm/ibdm/Fabric.cpp`). ibdmchk ignores lines it cannot
//!   parse without a word, so these follow its regular expressions to the
//!   letter: lower-case hex GUIDs, single spaces, decimal LIDs and SLs.
//!
//! Specs: `formats/opensm-sl2vl-dump.md`, `formats/ibdmchk-vl.md`.

use std::io::{self, Write};

use super::batched::write_batched;
use super::digits::{push_dec, push_dec_left, push_hex};
use super::fdbs::cabled_switches;
use crate::model::vl::NUM_SL;
use crate::model::{Fabric, LidMap, NodeIdx, NodeKind, SwIdx, VlPlan};

/// End ports and switches in OpenSM's `port_guid_tbl` order.
fn port_order(fabric: &Fabric) -> Vec<(NodeIdx, u8)> {
    let mut v: Vec<(u64, NodeIdx, u8)> = Vec::new();
    for n in fabric.node_indices() {
        let node = fabric.node(n);
        if node.kind == NodeKind::Switch {
            v.push((fabric.port(n, 0).guid.opensm_key(), n, 0));
        } else {
            for p in 1..=node.num_ports {
                let port = fabric.port(n, p);
                // OpenSM knows only the ports it discovered: cabled ones.
                if port.guid.0 != 0 && port.peer.is_some() {
                    v.push((port.guid.opensm_key(), n, p));
                }
            }
        }
    }
    v.sort_unstable();
    v.into_iter().map(|(_, n, p)| (n, p)).collect()
}

/// One row of VLs, OpenSM's way: `%-3d %-3d :`, then ` %-2d` per SL.
fn opensm_row(buf: &mut Vec<u8>, inp: u8, outp: u8, vl: impl Fn(u8) -> u8) {
    push_dec_left(buf, u64::from(inp), 3);
    buf.push(b' ');
    push_dec_left(buf, u64::from(outp), 3);
    buf.extend_from_slice(b" :");
    for sl in 0..NUM_SL as u8 {
        buf.push(b' ');
        push_dec_left(buf, u64::from(vl(sl)), 2);
    }
    buf.push(b'\n');
}

/// Writes `opensm-sl2vl.dump`: for a switch one row per (in port, out port)
/// whose out port is cabled (OpenSM skips ports that are down, so port 0
/// never appears as an out port), for an end port its own table.
pub fn write_sl2vl_dump(fabric: &Fabric, plan: &VlPlan, out: &mut dyn Write) -> io::Result<()> {
    const HEAD: &[u8] = b"#in out : 0  1  2  3  4  5  6  7  8  9  10 11 12 13 14 15\n";
    const SEP: &[u8] = b"#--------------------------------------------------------\n";
    write_batched(&port_order(fabric), out, |&(n, p), buf| {
        let node = fabric.node(n);
        let port = fabric.port(n, p);
        let kind: &[u8] = match node.kind {
            NodeKind::Switch => b"Switch",
            NodeKind::Ca => b"Channel Adapter",
            NodeKind::Router => b"Router",
        };
        buf.extend_from_slice(kind);
        buf.extend_from_slice(b" 0x");
        push_hex(buf, port.guid.0, 16);
        buf.extend_from_slice(b", base LID ");
        push_dec(buf, u64::from(port.lid));
        buf.extend_from_slice(b", \"");
        buf.extend_from_slice(node.desc.as_bytes());
        buf.extend_from_slice(b"\"\n");
        buf.extend_from_slice(HEAD);
        buf.extend_from_slice(SEP);
        match fabric.switch_index(n) {
            Some(sw) => {
                for o in 1..=node.num_ports {
                    if fabric.port(n, o).peer.is_none() {
                        continue;
                    }
                    for i in 0..=node.num_ports {
                        opensm_row(buf, i, o, |sl| plan.sl2vl.vl(sw.ix(), i, o, sl));
                    }
                }
            }
            None => opensm_row(buf, 0, 0, |sl| plan.sl2vl.end_port_vl(sl)),
        }
        buf.extend_from_slice(SEP);
        buf.push(b'\n');
    })
}

/// Writes `ibdmchk.sl2vl`: `0x<switch guid> <in> <out> 0x<VL0><VL1> ...`,
/// eight bytes of two VLs each, for every (in, out) port pair of every
/// switch, identity tables included: ibdmchk sizes its channels by the
/// highest VL this file names (with none it assumes one VL and crashes on
/// an SL above 0), and a switch with any line needs all of them.
pub fn write_ibdmchk_sl2vl(fabric: &Fabric, plan: &VlPlan, out: &mut dyn Write) -> io::Result<()> {
    write_batched(&cabled_switches(fabric), out, |&s, buf| {
        let node = fabric.node(fabric.switch_node(s));
        let mut guid = b"0x".to_vec();
        push_hex(&mut guid, node.guid.0, 16);
        for i in 0..=node.num_ports {
            for o in 0..=node.num_ports {
                buf.extend_from_slice(&guid);
                buf.push(b' ');
                push_dec(buf, u64::from(i));
                buf.push(b' ');
                push_dec(buf, u64::from(o));
                for pair in 0..NUM_SL as u8 / 2 {
                    let vl = |sl| u64::from(plan.sl2vl.vl(s.ix(), i, o, sl));
                    buf.extend_from_slice(b" 0x");
                    push_hex(buf, vl(2 * pair), 1);
                    push_hex(buf, vl(2 * pair + 1), 1);
                }
                buf.push(b'\n');
            }
        }
    })
}

/// Writes `ibdmchk.psl`: `0x<source CA node guid> <DLID> <SL>` for every
/// CA node and every LID it may send to (ibdmchk wants a line for every
/// DLID of a node once it has one). The SL is the plan's for the switch
/// the node's first cabled port hangs off.
pub fn write_ibdmchk_psl(
    fabric: &Fabric,
    lids: &LidMap,
    plan: &VlPlan,
    out: &mut dyn Write,
) -> io::Result<()> {
    let dests: Vec<(u16, NodeIdx)> = lids.iter().map(|(l, o)| (l, o.node)).collect();
    let mut sources: Vec<(u64, NodeIdx, SwIdx)> = fabric
        .node_indices()
        .filter(|&n| fabric.node(n).kind != NodeKind::Switch)
        .filter_map(|n| {
            let sw = fabric
                .ports(n)
                .iter()
                .find_map(|p| fabric.switch_index(p.peer?.node))?;
            Some((fabric.node(n).guid.0, n, sw))
        })
        .collect();
    sources.sort_unstable();
    // `<DLID> ` of every destination, formatted once
    let mut heads = Vec::new();
    let mut at = Vec::with_capacity(dests.len() + 1);
    for &(lid, _) in &dests {
        at.push(heads.len());
        push_dec(&mut heads, u64::from(lid));
        heads.push(b' ');
    }
    at.push(heads.len());
    write_batched(&sources, out, |&(guid, n, sw), buf| {
        let mut prefix = b"0x".to_vec();
        push_hex(&mut prefix, guid, 16);
        prefix.push(b' ');
        for (k, &(lid, owner)) in dests.iter().enumerate() {
            if owner != n {
                buf.extend_from_slice(&prefix);
                buf.extend_from_slice(&heads[at[k]..at[k + 1]]);
                push_dec(buf, u64::from(plan.sl(sw.ix(), lid)));
                buf.push(b'\n');
            }
        }
    })
}
