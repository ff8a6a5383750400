//! VL plans as files state them, before they meet a topology: SL2VL rows
//! by GUID and port pair (OpenSM's `opensm-sl2vl.dump`, ibdmchk's `-d`
//! file) and path SLs by source and destination LID (ibdmchk's `-c` file,
//! `saquery -p` path records), and their alignment to a fabric, which
//! `check --sl2vl/--psl` verifies with.

use super::vl::NUM_SL;
use super::{Fabric, Guid, Lfts, Lid, LidMap, PathSl, Sl2Vl, SwIdx, VlPlan};

/// One SL2VL row: the VL of every SL from `in_port` to `out_port` of the
/// node or port with GUID `guid` (an end port's own table is `0 0`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sl2VlRecord {
    pub guid: Guid,
    pub in_port: u8,
    pub out_port: u8,
    pub vl_of_sl: [u8; NUM_SL],
}

/// Where a path starts, as a file names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PathSource {
    /// A CA's node GUID (ibdmchk's `-c` file).
    Node(Guid),
    /// A source LID (a path record's SLID).
    Lid(Lid),
}

/// The SL of the path from `src` to `dlid`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PathSlRecord {
    pub src: PathSource,
    pub dlid: Lid,
    pub sl: u8,
}

/// A VL plan built from records, and what did not fit the fabric.
#[derive(Clone, Debug)]
pub struct RecordPlan {
    pub plan: VlPlan,
    /// Records naming nothing of the fabric, and end ports whose tables
    /// differ from the first one's (the plan keeps one end-port table).
    pub ignored: Vec<String>,
}

/// Lays `sl2vl` and `psl` out on `fabric` as a [`VlPlan`] shaped like
/// `lfts`. A switch with rows gets a table that maps SL to VL unchanged
/// wherever no row says otherwise; without `psl` every path is on SL 0.
pub fn plan_from_records(
    fabric: &Fabric,
    lids: &LidMap,
    lfts: &Lfts,
    sl2vl: &[Sl2VlRecord],
    psl: &[PathSlRecord],
) -> RecordPlan {
    let feed = |sink: &mut dyn FnMut(PathSlRecord)| {
        psl.iter().for_each(|&r| sink(r));
        Ok::<(), std::convert::Infallible>(())
    };
    match plan_from_stream(fabric, lids, lfts, sl2vl, feed) {
        Ok(r) => r,
        Err(never) => match never {},
    }
}

/// [`plan_from_records`] with the path SLs handed over one by one by `feed`
/// as it reads them, never held all at once (an ibdmchk file has a line per
/// CA and destination: 18 M records, 440 MB, for 4,280 CAs); `feed`'s error
/// ends it.
pub fn plan_from_stream<E>(
    fabric: &Fabric,
    lids: &LidMap,
    lfts: &Lfts,
    sl2vl: &[Sl2VlRecord],
    feed: impl FnOnce(&mut dyn FnMut(PathSlRecord)) -> Result<(), E>,
) -> Result<RecordPlan, E> {
    let mut ignored = Vec::new();
    let mut plan = VlPlan::single(lfts);
    plan.sl2vl = tables(fabric, sl2vl, &mut ignored);
    plan.path_sl = path_sls(fabric, lids, lfts, feed, &mut ignored)?;
    let used = plan.path_sl.used();
    plan.vls = (0..NUM_SL as u8)
        .filter(|&sl| used & 1 << sl != 0)
        .map(|sl| plan.sl2vl.end_port_vl(sl) + 1)
        .max()
        .unwrap_or(1);
    Ok(RecordPlan { plan, ignored })
}

/// The node (switch or end node) and whether it is a switch, by node or
/// port GUID.
fn node_of(fabric: &Fabric, g: Guid) -> Option<(super::NodeIdx, Option<SwIdx>)> {
    let n = fabric
        .node_by_guid(g)
        .or_else(|| fabric.port_by_guid(g).map(|(n, _)| n))?;
    Some((n, fabric.switch_index(n)))
}

fn tables(fabric: &Fabric, rows: &[Sl2VlRecord], ignored: &mut Vec<String>) -> Sl2Vl {
    let mut per_switch: std::collections::BTreeMap<usize, Vec<&Sl2VlRecord>> = Default::default();
    let mut end_port: Option<[u8; NUM_SL]> = None;
    for r in rows {
        match node_of(fabric, r.guid) {
            Some((_, Some(sw))) => per_switch.entry(sw.ix()).or_default().push(r),
            Some((_, None)) => match end_port {
                None => end_port = Some(r.vl_of_sl),
                Some(t) if t != r.vl_of_sl => ignored.push(format!(
                    "end port {}: its SL2VL table differs from the first end port's",
                    r.guid
                )),
                _ => {}
            },
            None => ignored.push(format!("SL2VL rows of {}: no such node or port", r.guid)),
        }
    }
    let mut out = Sl2Vl::identity();
    if let Some(t) = end_port {
        out.set_end_port(t);
    }
    for (sw, rows) in per_switch {
        let ports = fabric.node(fabric.switch_node(SwIdx(sw as u32))).num_ports;
        let dim = ports as usize + 1;
        let mut t: Vec<u8> = (0..dim * dim * NUM_SL)
            .map(|i| (i % NUM_SL) as u8)
            .collect();
        for r in rows {
            let (i, o) = (r.in_port as usize, r.out_port as usize);
            if i < dim && o < dim {
                t[(i * dim + o) * NUM_SL..][..NUM_SL].copy_from_slice(&r.vl_of_sl);
            } else {
                ignored.push(format!(
                    "SL2VL row {} {i} {o}: the switch has {ports} ports",
                    r.guid
                ));
            }
        }
        out.set_switch_table(sw, dim, &t);
    }
    out
}

fn path_sls<E>(
    fabric: &Fabric,
    lids: &LidMap,
    lfts: &Lfts,
    feed: impl FnOnce(&mut dyn FnMut(PathSlRecord)) -> Result<(), E>,
    ignored: &mut Vec<String>,
) -> Result<PathSl, E> {
    let mut p = PathSl::zeros(lfts);
    // (source switch, DLID) pairs already given an SL, by bit
    let mut seen = fixedbitset::FixedBitSet::with_capacity(lfts.num_switches() * lfts.stride());
    // a file lists each source's paths together: one lookup per source
    let mut last: Option<(PathSource, Option<SwIdx>)> = None;
    let switch_of = |n: super::NodeIdx| {
        fabric.switch_index(n).or_else(|| {
            fabric
                .ports(n)
                .iter()
                .find_map(|q| fabric.switch_index(q.peer?.node))
        })
    };
    feed(&mut |r: PathSlRecord| {
        let src = match last {
            Some((s, sw)) if s == r.src => sw,
            _ => {
                let sw = match r.src {
                    PathSource::Node(g) => node_of(fabric, g).and_then(|(n, _)| switch_of(n)),
                    PathSource::Lid(l) => lids.owner(l).and_then(|o| switch_of(o.node)),
                };
                last = Some((r.src, sw));
                sw
            }
        };
        let Some(sw) = src.filter(|_| (r.dlid as usize) < lfts.stride()) else {
            ignored.push(format!(
                "path SL {:?} -> LID {}: source or destination unknown",
                r.src, r.dlid
            ));
            return;
        };
        if !seen.put(sw.ix() * lfts.stride() + r.dlid as usize) {
            p.set(sw.ix(), r.dlid, r.sl);
        } else {
            p.add(sw.ix(), r.dlid, r.sl);
        }
    })?;
    Ok(p)
}
