//! What real fat trees have and generated PGFTs lack (`formats/pgft.md`,
//! "Real-fabric features"): an aggregation-node CA on every switch (every
//! NVIDIA Quantum switch carries one on an extra port), partially populated
//! leaves and top level, a management pod cabled to a few top switches,
//! pods whose spines reach only the other top switches (so some leaf pairs
//! have no common ancestor), and a few extra cross-cables between spines.
//! Applied to a 3-level PGFT built by [`super::pgft::pgft`], seeded.

use rand::SeedableRng;
use rand::seq::index::sample;
use rand_chacha::ChaCha8Rng;

use super::net::check_lids;
use super::pgft::{PgftSpec, SWITCH_GUID_BASE, switch_guid};
use crate::model::{Fabric, FabricBuilder, Guid, NodeIdx, NodeKind, NodeSpec, Speed, Width};

/// First node GUID of the aggregation nodes, of the management pod's
/// leaves and of its hosts.
pub const AGG_GUID_BASE: u64 = 0x0002_c90b_0000_0000;
pub const MGMT_LEAF_GUID_BASE: u64 = 0x0002_c90c_0000_0000;
pub const MGMT_HOST_GUID_BASE: u64 = 0x0002_c90d_0000_0000;

/// The NodeDescription NVIDIA gives a switch's SHARP aggregation node.
pub const AGG_DESC: &str = "Mellanox Technologies Aggregation Node";

/// A management pod: `leaves` leaf switches with `hosts` hosts each, every
/// leaf cabled once to each of the first `tops` top switches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MgmtPod {
    pub leaves: u32,
    pub hosts: u32,
    pub tops: u32,
}

/// The features to add; the default adds none.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Features {
    pub aggregation_nodes: bool,
    /// Fraction of host ports left empty (hosts removed), 0..1.
    pub empty_host_ports: f64,
    /// Top switches removed.
    pub drop_top: u32,
    pub mgmt_pod: Option<MgmtPod>,
    /// The last `isolated_pods` pods' spines keep only their cables to the
    /// upper half of the top level (top digit ≥ w3/2), so their leaves share
    /// no ancestor with the management pod's, cabled to the first tops.
    pub isolated_pods: u32,
    /// Extra spine-to-spine cables between random spines, on new ports.
    pub cross_cables: u32,
    pub seed: u64,
}

impl Features {
    pub fn any(&self) -> bool {
        *self
            != Features {
                seed: self.seed,
                ..Features::default()
            }
    }
}

/// Level of a PGFT switch, from its GUID (`switch_guid`).
fn level(g: Guid) -> u64 {
    (g.0 - SWITCH_GUID_BASE) >> 24
}

/// `pgft` (a 3-level PGFT built from `spec`) with `feat` added; LIDs
/// assigned anew.
pub fn apply(spec: &PgftSpec, pgft: &Fabric, feat: &Features) -> Result<Fabric, String> {
    if (spec.h != 3 || spec.w[0] != 1)
        && (feat.mgmt_pod.is_some() || feat.isolated_pods > 0 || feat.drop_top > 0)
    {
        return Err(
            "the management pod, isolated pods and a partial top level need --h 3 and w1 = 1"
                .into(),
        );
    }
    let mut rng = ChaCha8Rng::seed_from_u64(feat.seed);
    let mut removed = vec![false; pgft.num_nodes()];
    let hosts: Vec<NodeIdx> = pgft
        .node_indices()
        .filter(|&n| !pgft.is_switch(n))
        .collect();
    let drop = (hosts.len() as f64 * feat.empty_host_ports.clamp(0.0, 1.0)).round() as usize;
    for i in sample(&mut rng, hosts.len(), drop) {
        removed[hosts[i].ix()] = true;
    }
    let tops: Vec<NodeIdx> = pgft
        .switches()
        .iter()
        .copied()
        .filter(|&n| level(pgft.node(n).guid) == spec.h as u64)
        .collect();
    if feat.drop_top as usize >= tops.len() && feat.drop_top > 0 {
        return Err(format!(
            "--drop-top {}: the top level has {} switches",
            feat.drop_top,
            tops.len()
        ));
    }
    for i in sample(&mut rng, tops.len(), feat.drop_top as usize) {
        removed[tops[i].ix()] = true;
    }
    let mut b = pgft.rebuild_retaining(|n| !removed[n.ix()]);
    for n in (0..b.num_nodes() as u32).map(NodeIdx) {
        let ports = b.node(n).num_ports;
        for p in 0..=ports {
            if let Ok(port) = b.port_mut(n, p) {
                port.lid = 0;
                // an emptied port has no link, so no active rate (as
                // ibnetdiscover would see it)
                if port.peer.is_none() && p > 0 {
                    (port.width, port.speed) = (Width::Unknown, Speed::Unknown);
                }
            }
        }
    }
    if feat.isolated_pods > 0 {
        isolate_pods(spec, &mut b, feat.isolated_pods)?;
    }
    if let Some(pod) = feat.mgmt_pod {
        mgmt_pod(spec, &mut b, pod)?;
    }
    if feat.cross_cables > 0 {
        cross_cables(&mut b, feat.cross_cables, &mut rng)?;
    }
    if feat.aggregation_nodes {
        aggregation_nodes(&mut b)?;
    }
    let (sw, ends) = (0..b.num_nodes() as u32)
        .map(NodeIdx)
        .fold((0u64, 0u64), |(s, e), n| {
            if b.node(n).kind == NodeKind::Switch {
                (s + 1, e)
            } else {
                (s, e + b.node(n).num_ports as u64)
            }
        });
    check_lids("gen pgft", sw, ends)?;
    let mut f = b.build();
    crate::model::lids::assign_missing_lids(&mut f).map_err(|e| e.to_string())?;
    Ok(f)
}

fn cable(b: &mut FabricBuilder, a: NodeIdx, pa: u8, c: NodeIdx, pc: u8) -> Result<(), String> {
    for (n, p) in [(a, pa), (c, pc)] {
        let port = b.port_mut(n, p).map_err(|e| e.to_string())?;
        port.width = Width::X4;
        port.speed = Speed::Qdr;
    }
    b.connect(a, pa, c, pc)
        .map(|_| ())
        .map_err(|e| e.to_string())
}

/// A new port on `n`, its number.
fn new_port(b: &mut FabricBuilder, n: NodeIdx) -> Result<u8, String> {
    b.add_ports(n, 1).map_err(|e| e.to_string())?;
    Ok(b.node(n).num_ports)
}

/// Cuts the cables from the last `pods` pods' spines to the lower half of
/// the tops (top digit a3 < w3/2).
fn isolate_pods(spec: &PgftSpec, b: &mut FabricBuilder, pods: u32) -> Result<(), String> {
    let (m3, w2, w3) = (spec.m[2], spec.w[1], spec.w[2]);
    if pods >= m3 || w3 < 2 {
        return Err(format!(
            "--isolated-pods {pods}: needs fewer than m3 = {m3} pods and w3 >= 2"
        ));
    }
    for pod in m3 - pods..m3 {
        for j in 0..w2 {
            let Some(spine) = b.node_by_guid(switch_guid(2, (pod * w2 + j) as u64)) else {
                continue;
            };
            let ports = b.node(spine).num_ports;
            for p in 1..=ports {
                let Some(peer) = b.port(spine, p).and_then(|q| q.peer) else {
                    continue;
                };
                let g = b.node(peer.node).guid;
                let top_digit = if b.node(peer.node).kind == NodeKind::Switch && level(g) == 3 {
                    Some((g.0 - switch_guid(3, 0).0) as u32 / w2)
                } else {
                    None
                };
                if top_digit.is_some_and(|k| k < w3 / 2) {
                    b.port_mut(spine, p).map_err(|e| e.to_string())?.peer = None;
                    b.port_mut(peer.node, peer.port)
                        .map_err(|e| e.to_string())?
                        .peer = None;
                }
            }
        }
    }
    Ok(())
}

/// Leaves with hosts, each cabled once to each of the first `tops` tops.
fn mgmt_pod(spec: &PgftSpec, b: &mut FabricBuilder, pod: MgmtPod) -> Result<(), String> {
    let tops: Vec<NodeIdx> = (0..spec.level_size(3))
        .filter_map(|i| b.node_by_guid(switch_guid(3, i)))
        .take(pod.tops as usize)
        .collect();
    if tops.len() < pod.tops as usize || pod.tops == 0 {
        return Err(format!(
            "--mgmt-pod: {} top switches asked, {} there",
            pod.tops,
            tops.len()
        ));
    }
    for l in 0..pod.leaves {
        let ports = pod.hosts + pod.tops;
        if ports > 254 {
            return Err(format!("a management leaf would need {ports} ports"));
        }
        let g = Guid(MGMT_LEAF_GUID_BASE + l as u64);
        let leaf = b
            .add_node(NodeSpec::new(
                NodeKind::Switch,
                g,
                ports as u8,
                format!("MGMT_L{l}"),
            ))
            .map_err(|e| e.to_string())?;
        for (k, &t) in tops.iter().enumerate() {
            let tp = new_port(b, t)?;
            cable(b, leaf, (pod.hosts + 1 + k as u32) as u8, t, tp)?;
        }
        for h in 0..pod.hosts {
            let hg = MGMT_HOST_GUID_BASE + (((l * pod.hosts + h) as u64) << 8);
            let host = b
                .add_node(NodeSpec::new(
                    NodeKind::Ca,
                    Guid(hg),
                    1,
                    format!("MGMT_H{l}_{h}"),
                ))
                .map_err(|e| e.to_string())?;
            b.port_mut(host, 1).map_err(|e| e.to_string())?.guid = Guid(hg + 1);
            cable(b, host, 1, leaf, (h + 1) as u8)?;
        }
    }
    Ok(())
}

/// `count` new cables between distinct random pairs of spines.
fn cross_cables(b: &mut FabricBuilder, count: u32, rng: &mut ChaCha8Rng) -> Result<(), String> {
    let spines: Vec<NodeIdx> = (0..b.num_nodes() as u32)
        .map(NodeIdx)
        .filter(|&n| {
            b.node(n).kind == NodeKind::Switch
                && b.node(n).guid.0 >> 32 == SWITCH_GUID_BASE >> 32
                && level(b.node(n).guid) == 2
        })
        .collect();
    if spines.len() < 2 {
        return Err("--cross-cables needs at least two spines".into());
    }
    // refused before sampling: the retry bound below grows with `count`,
    // and `--cross-cables 1000000` once spun for minutes to say this
    let pairs = spines.len() * (spines.len() - 1) / 2;
    if count as usize > pairs {
        return Err(format!(
            "--cross-cables {count}: not that many distinct spine pairs ({pairs})"
        ));
    }
    let mut done = std::collections::BTreeSet::new();
    let mut tries = 0;
    while done.len() < count as usize {
        tries += 1;
        if tries > 100 * count as usize + 100 {
            return Err(format!(
                "--cross-cables {count}: not that many distinct spine pairs"
            ));
        }
        let pick = sample(rng, spines.len(), 2);
        let (x, y) = (
            pick.index(0).min(pick.index(1)),
            pick.index(0).max(pick.index(1)),
        );
        if done.insert((x, y)) {
            let (a, c) = (spines[x], spines[y]);
            let (pa, pc) = (new_port(b, a)?, new_port(b, c)?);
            cable(b, a, pa, c, pc)?;
        }
    }
    Ok(())
}

/// One aggregation-node CA on a new last port of every switch.
fn aggregation_nodes(b: &mut FabricBuilder) -> Result<(), String> {
    let switches: Vec<NodeIdx> = (0..b.num_nodes() as u32)
        .map(NodeIdx)
        .filter(|&n| b.node(n).kind == NodeKind::Switch)
        .collect();
    for (i, sw) in switches.into_iter().enumerate() {
        let p = new_port(b, sw)?;
        let g = AGG_GUID_BASE + ((i as u64) << 8);
        let agg = b
            .add_node(NodeSpec::new(NodeKind::Ca, Guid(g), 1, AGG_DESC))
            .map_err(|e| e.to_string())?;
        b.port_mut(agg, 1).map_err(|e| e.to_string())?.guid = Guid(g + 1);
        cable(b, agg, 1, sw, p)?;
    }
    Ok(())
}
