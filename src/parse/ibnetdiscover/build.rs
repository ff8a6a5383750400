//! The second pass: records to a [`Fabric`], resolving peer names and
//! checking that the two copies of each link agree (formats.md §0.7).

use super::names::resolve_peers;
use super::records::{NodeRec, PortRec, Records};
use crate::error::{ParseError, Result, line_col};
use crate::model::{BuildError, Fabric, FabricBuilder, Linked, Node, NodeIdx, NodeKind};

const NO_LINE: u32 = u32::MAX;

/// Builds the fabric; also returns warnings (links listed from one end only,
/// nodes known only from references).
pub fn build(mut r: Records<'_>) -> Result<(Fabric, Vec<String>)> {
    let mut warnings = Vec::new();
    let made_up = resolve_peers(&mut r)?;
    if made_up > 0 {
        let first = r.nodes.iter().find(|n| n.placeholder).map_or("", |n| n.id);
        warnings.push(format!(
            "{}: {made_up} node(s) have no record and were built from the port lines naming them (first: \"{first}\")",
            r.file
        ));
    }
    let mut b = add_nodes(&r)?;
    let mut slot_start = Vec::with_capacity(r.nodes.len() + 1);
    let mut total = 0usize;
    for n in &r.nodes {
        slot_start.push(total);
        total += n.num_ports as usize + 1;
    }
    let mut line_of = vec![NO_LINE; total];
    let mut listed = vec![false; total];
    for (i, pr) in r.ports.iter().enumerate() {
        let a = pr.owner as usize;
        let bi = pr.peer;
        let (pa, pb) = check_ports(&r, pr, bi as usize)?;
        set_port_attrs(&r, &mut b, pr, bi as usize, pb)?;
        let (an, bn) = (NodeIdx(a as u32), NodeIdx(bi));
        match b.connect(an, pa, bn, pb) {
            Ok(Linked::New) => {
                line_of[slot_start[a] + pa as usize] = i as u32;
                line_of[slot_start[bi as usize] + pb as usize] = i as u32;
            }
            Ok(Linked::AlreadyThere) => line_of[slot_start[a] + pa as usize] = i as u32,
            Err(BuildError::SamePort) => {
                let at = pr.line_off + pr.reread(r.text).map_or(0, |l| l.remote_at);
                return Err(r
                    .error(
                        at,
                        pr.remote.len(),
                        "a peer port other than the port itself",
                        "",
                    )
                    .into());
            }
            Err(_) => {
                return Err(
                    asymmetric(&r, &b, pr, (an, pa), (bn, pb), &slot_start, &line_of).into(),
                );
            }
        }
        listed[slot_start[a] + pa as usize] = true;
    }
    if !r.ibsim {
        one_sided_warning(&r, &b, &slot_start, &listed, &mut warnings);
    }
    Ok((b.build(), warnings))
}

/// Every node, in record order. The nodes (their descriptions are
/// 30,528 strings on the 27,648-host RLFT) are built in parallel and added
/// at once (issue 17: one by one this was a tenth of the parse); the first
/// bad node in record order is reported, as by a serial pass.
fn add_nodes(r: &Records<'_>) -> Result<FabricBuilder> {
    use rayon::prelude::*;
    let nodes: Vec<Node> = r.nodes.par_iter().map(|n| node_of(r, n)).collect();
    let zero = r.nodes.par_iter().position_first(|n| n.guid.0 == 0);
    let mut b = FabricBuilder::new();
    let dup = b.add_nodes(nodes).err().map(|(i, _)| i);
    match (zero, dup) {
        (Some(z), d) if d.is_none_or(|d| z < d) => {
            // GUID 0 is no GUID (IBA §4.1.1); ibsim's allocation wraps to it.
            let n = &r.nodes[z];
            let e = r.error(
                n.line_off,
                n.line_len,
                "a non-zero node GUID",
                "node GUID 0x0000000000000000",
            );
            return Err(e.into());
        }
        (_, Some(d)) => return Err(duplicate_guid(r, &r.nodes[d]).into()),
        _ => {}
    }
    for (i, n) in r.nodes.iter().enumerate() {
        set_node_ports(r, &mut b, NodeIdx(i as u32), n)?;
    }
    Ok(b)
}

/// The node a record describes, its ports still to be set.
fn node_of(r: &Records<'_>, n: &NodeRec<'_>) -> Node {
    Node {
        kind: n.kind,
        guid: n.guid,
        sysimg_guid: n.sysimg_guid,
        vendor_id: n.vendor_id,
        device_id: n.device_id,
        num_ports: n.num_ports,
        desc: n.desc.to_string(),
        source_id: r.ibsim.then(|| n.id.to_string()),
        enhanced_port0: n.enhanced,
        op_vls: None,
        service: false,
    }
}

/// The error for a record repeating an earlier record's node GUID.
fn duplicate_guid(r: &Records<'_>, n: &NodeRec<'_>) -> ParseError {
    // Only on this error path: the first record with the GUID.
    let f = r.nodes.iter().find(|f| f.guid == n.guid).unwrap_or(n);
    let (fl, _) = line_col(r.text, f.line_off);
    r.error(
        n.line_off,
        n.line_len,
        "a node GUID not used by an earlier record",
        format!("duplicate node GUID {} (first used at line {fl})", n.guid),
    )
    .with_secondary(r.text, f.line_off, f.line_len, "first node with this GUID")
}

/// A switch's port 0 (GUID, LID, LMC); an ibsim CA's port GUIDs.
fn set_node_ports(
    r: &Records<'_>,
    b: &mut FabricBuilder,
    idx: NodeIdx,
    n: &NodeRec<'_>,
) -> Result<()> {
    if n.kind == NodeKind::Switch {
        let p0 = b
            .port_mut(idx, 0)
            .map_err(|e| crate::Error::Input(e.to_string()))?;
        p0.guid = n.port0_guid.unwrap_or(n.guid);
        p0.lid = n.lid.unwrap_or(0);
        p0.lmc = n.lmc.unwrap_or(0);
    } else if r.ibsim {
        // ibsim: port GUID = node GUID + port number.
        for p in 1..=n.num_ports {
            if let Ok(port) = b.port_mut(idx, p) {
                port.guid = crate::model::Guid(n.guid.0.wrapping_add(p as u64));
            }
        }
    }
    Ok(())
}

/// Port numbers within 1..=NumPorts on both ends (ibsim rejects the rest).
fn check_ports(r: &Records<'_>, pr: &PortRec<'_>, bi: usize) -> Result<(u8, u8)> {
    let a = &r.nodes[pr.owner as usize];
    let b = &r.nodes[bi];
    let pa = pr.port;
    let pb = pr.remote_port.unwrap_or(1);
    let cols = || pr.reread(r.text);
    if pa == 0 || pa > a.num_ports {
        let at = pr.line_off + cols().map_or(0, |l| l.port_at);
        let e = r.error(
            at,
            digits(pa),
            format!(
                "a port number from 1 to {} (NumPorts of \"{}\")",
                a.num_ports, a.id
            ),
            format!("port {pa}"),
        );
        return Err(e.into());
    }
    if pb == 0 || pb > b.num_ports {
        let at = pr.line_off + cols().map_or(0, |l| l.remote_port_at + 1);
        let (bl, _) = line_col(r.text, b.line_off);
        let e = r.error(
            at,
            digits(pb),
            format!(
                "a port number from 1 to {} (NumPorts of \"{}\", line {bl})",
                b.num_ports, b.id
            ),
            format!("port {pb}"),
        );
        return Err(e.into());
    }
    Ok((pa, pb))
}

fn digits(p: u8) -> usize {
    p.to_string().len()
}

/// Width, speed, GUID and LID of the local port; GUID and LID of the peer
/// port when the peer has no record to say them.
fn set_port_attrs(
    r: &Records<'_>,
    b: &mut FabricBuilder,
    pr: &PortRec<'_>,
    bi: usize,
    pb: u8,
) -> Result<()> {
    let a = NodeIdx(pr.owner);
    let is_switch = r.nodes[pr.owner as usize].kind == NodeKind::Switch;
    let port = b
        .port_mut(a, pr.port)
        .map_err(|e| crate::Error::Input(e.to_string()))?;
    port.width = pr.width;
    port.speed = pr.speed;
    if !is_switch {
        if let Some(g) = pr.local_guid {
            port.guid = g;
        }
        if let Some((lid, lmc)) = pr.local_lid {
            port.lid = lid;
            port.lmc = lmc;
        }
    }
    let peer = &r.nodes[bi];
    if peer.placeholder {
        let pswitch = peer.kind == NodeKind::Switch;
        let pp = b.port_mut(NodeIdx(bi as u32), if pswitch { 0 } else { pb });
        let pp = pp.map_err(|e| crate::Error::Input(e.to_string()))?;
        let l = pr.reread(r.text);
        if let Some(lid) = l.as_ref().and_then(|l| l.peer_lid) {
            pp.lid = lid;
        }
        match (pswitch, l.and_then(|l| l.remote_guid)) {
            (false, Some(g)) => pp.guid = g,
            (true, _) if pp.guid.0 == 0 => pp.guid = peer.guid,
            _ => {}
        }
    }
    Ok(())
}

/// The error for a link whose two copies disagree: names this line and the
/// line that cabled the busy port before.
fn asymmetric(
    r: &Records<'_>,
    b: &FabricBuilder,
    pr: &PortRec<'_>,
    (a, pa): (NodeIdx, u8),
    (bn, pb): (NodeIdx, u8),
    slot_start: &[usize],
    line_of: &[u32],
) -> ParseError {
    let id = |n: NodeIdx| r.nodes[n.ix()].id;
    let busy = |n: NodeIdx, p: u8| b.port(n, p).and_then(|x| x.peer);
    let (sn, sp) = if busy(a, pa).is_some() {
        (a, pa)
    } else {
        (bn, pb)
    };
    let other = busy(sn, sp);
    let prev = line_of[slot_start[sn.ix()] + sp as usize];
    let here = format!("\"{}\"[{pa}] cabled to \"{}\"[{pb}]", id(a), id(bn));
    let Some(other) = other.filter(|_| prev != NO_LINE) else {
        return r.error(
            pr.line_off,
            pr.line_len,
            "a link consistent with the other lines",
            here,
        );
    };
    let p = &r.ports[prev as usize];
    let (pl, _) = line_col(r.text, p.line_off);
    let expected = format!(
        "a link that agrees with line {pl}, which cables \"{}\"[{sp}] to \"{}\"[{}]",
        id(sn),
        id(other.node),
        other.port
    );
    r.error(
        pr.line_off,
        pr.line_len,
        expected,
        format!("{here} (asymmetric link)"),
    )
    .with_secondary(r.text, p.line_off, p.line_len, "the other copy of the link")
}

fn one_sided_warning(
    r: &Records<'_>,
    b: &FabricBuilder,
    slot_start: &[usize],
    listed: &[bool],
    warnings: &mut Vec<String>,
) {
    let mut count = 0usize;
    let mut first = None;
    for (i, n) in r.nodes.iter().enumerate() {
        if n.placeholder {
            continue;
        }
        for p in 1..=n.num_ports {
            let cabled = b
                .port(NodeIdx(i as u32), p)
                .is_some_and(|x| x.peer.is_some());
            if cabled && !listed[slot_start[i] + p as usize] {
                count += 1;
                first.get_or_insert((n.id, p));
            }
        }
    }
    if let Some((id, p)) = first {
        warnings.push(format!(
            "{}: {count} link end(s) are listed from the other end only (first: \"{id}\"[{p}])",
            r.file
        ));
    }
}
