//! The compile state kept in an output directory (`routec-state.json.zst`,
//! `formats/state.md`): what the next `compile --previous DIR` needs to
//! reuse this run's tables — the fabric it routed (nodes, LIDs, cables, so
//! that the change can be classified by Table 1 of the 2005 OpenSM memo
//! §7), the engine and its options, and a digest of the tables, which stay
//! in the route image. Costs and dividers are recomputed from the topology
//! (they cost less than reading them), so they are not stored; the ranks
//! and the verdict are, because the next run needs the *previous* fabric's
//! (a path the change does not touch is still valid only if its hops keep
//! their directions).

use serde::{Deserialize, Serialize};
use sha2::Digest;

use super::{Fabric, FabricBuilder, Guid, Lfts, NodeKind, NodeSpec};

/// The `format` field of every state file.
pub const STATE_FORMAT: &str = "routec-state";
/// The version this build writes and reads; any other is ignored. Version
/// 2 changed only `lfts_digest` (from one SHA-256 pass over the tables to
/// a SHA-256 of the rows' SHA-256, which the route image computes anyway).
pub const STATE_VERSION: u32 = 2;

/// The options that shape an engine's tables: a state made with other
/// options is not reused.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StateOptions {
    /// `auto`, `top` or `file` (the GUIDs are in [`State::roots`]).
    pub roots: String,
    /// SHA-256 of the node order list (hex), when one was given.
    pub node_order: Option<String>,
    pub vls: u8,
    pub lmc: Option<u8>,
    /// `--dmodc-variant` when it is not the default (`spread`); absent for
    /// every other run, so their states keep their bytes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dmodc_variant: Option<String>,
}

/// A node: GUID, kind (0 switch, 1 CA, 2 router), NumPorts, and its ports
/// that hold a LID as `[port, port GUID, LID, LMC]`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StateNode(pub Guid, pub u8, pub u8, pub Vec<(u8, Guid, u16, u8)>);

/// One compile's state.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct State {
    pub format: String,
    pub version: u32,
    /// The routec version that wrote it.
    pub routec: String,
    pub engine: String,
    pub options: StateOptions,
    /// SHA-256 of the routed fabric (faults applied), as in the image header.
    pub fabric_fingerprint: String,
    /// SHA-256 of the tables ([`lfts_digest`]).
    pub lfts_digest: String,
    /// Up/down roots the engine used, by GUID (empty for engines without).
    pub roots: Vec<Guid>,
    /// The run's verification found nothing (not even a warning), so every
    /// path of these tables kept the promise on the fabric routed. With
    /// [`State::up_down_ranks`] it lets the next run keep the paths a
    /// change does not touch without walking them again (absent: `false`).
    #[serde(default)]
    pub verified_clean: bool,
    /// The promise's up/down ranks per switch, in the order the switches
    /// appear in `nodes` (`null` for engines without ranks).
    #[serde(default)]
    pub up_down_ranks: Option<Vec<u32>>,
    /// Every node, in the routed fabric's order.
    pub nodes: Vec<StateNode>,
    /// Every cable once: `[node, port, node, port]`, indices into `nodes`.
    pub links: Vec<(u32, u8, u32, u8)>,
}

impl State {
    /// The state of a run over `fabric` (LIDs final) with tables `lfts`.
    pub fn of(fabric: &Fabric, lfts: &Lfts) -> State {
        let mut st = State::of_fabric(fabric);
        st.lfts_digest = lfts_digest(fabric, lfts);
        st
    }

    /// The state of a run over `fabric`, its `lfts_digest` left empty: the
    /// writer hashes the tables while it packs the rest
    /// (`emit::state::pack_state`).
    pub fn of_fabric(fabric: &Fabric) -> State {
        let nodes = fabric
            .node_indices()
            .map(|n| {
                let node = fabric.node(n);
                let kind = match node.kind {
                    NodeKind::Switch => 0,
                    NodeKind::Ca => 1,
                    NodeKind::Router => 2,
                };
                let lid_ports = fabric
                    .ports(n)
                    .iter()
                    .enumerate()
                    .filter(|(_, p)| super::lids::is_assigned(p.lid))
                    .map(|(i, p)| (i as u8, p.guid, p.lid, p.lmc))
                    .collect();
                StateNode(node.guid, kind, node.num_ports, lid_ports)
            })
            .collect();
        let links = fabric
            .links()
            .map(|(a, pa, b, pb)| (a.0, pa, b.0, pb))
            .collect();
        State {
            format: STATE_FORMAT.into(),
            version: STATE_VERSION,
            routec: env!("CARGO_PKG_VERSION").into(),
            engine: String::new(),
            options: StateOptions {
                roots: String::new(),
                node_order: None,
                vls: 1,
                lmc: None,
                dmodc_variant: None,
            },
            fabric_fingerprint: crate::io::hex(&super::image::fabric_fingerprint(fabric)),
            lfts_digest: String::new(),
            roots: Vec::new(),
            verified_clean: false,
            up_down_ranks: None,
            nodes,
            links,
        }
    }

    /// The fabric the state describes (descriptions and link speeds are not
    /// kept); an error names what does not hold together.
    pub fn fabric(&self) -> Result<Fabric, String> {
        let mut b = FabricBuilder::new();
        for StateNode(guid, kind, ports, lid_ports) in &self.nodes {
            let kind = match kind {
                0 => NodeKind::Switch,
                1 => NodeKind::Ca,
                2 => NodeKind::Router,
                k => return Err(format!("node {guid}: kind {k} is not 0, 1 or 2")),
            };
            let n = b
                .add_node(NodeSpec::new(kind, *guid, *ports, ""))
                .map_err(|e| e.to_string())?;
            for &(p, pg, lid, lmc) in lid_ports {
                let port = b.port_mut(n, p).map_err(|e| format!("{guid}: {e}"))?;
                port.guid = pg;
                port.lid = lid;
                port.lmc = lmc;
            }
        }
        let count = self.nodes.len() as u32;
        for &(a, pa, c, pc) in &self.links {
            if a >= count || c >= count {
                return Err(format!("link [{a}, {pa}, {c}, {pc}] names no node"));
            }
            b.connect(super::NodeIdx(a), pa, super::NodeIdx(c), pc)
                .map_err(|e| format!("link [{a}, {pa}, {c}, {pc}]: {e}"))?;
        }
        Ok(b.build())
    }
}

/// SHA-256 (hex) of the tables (`formats/state.md`, `lfts_digest`): of
/// `routec-lfts-v2`, then per switch in GUID order its GUID and the
/// SHA-256 of its row, whole 64-entry blocks as the route image stores it.
/// Independent of switch order, so the tables read back from the route
/// image give the same digest; rows hash in parallel.
pub fn lfts_digest(fabric: &Fabric, lfts: &Lfts) -> String {
    let rows: Vec<&[u8]> = (0..fabric.num_switches()).map(|s| lfts.row(s)).collect();
    let digests = super::image::row_digests(&rows);
    lfts_digest_of_rows(switch_guids(fabric).zip(digests))
}

/// [`lfts_digest`] from each switch's GUID and its row's SHA-256, in any
/// order: what the route image writer computed (`emit::image`).
pub fn lfts_digest_of_rows(rows: impl Iterator<Item = (Guid, [u8; 32])>) -> String {
    let mut rows: Vec<(Guid, [u8; 32])> = rows.collect();
    rows.sort_unstable_by_key(|r| r.0);
    let mut h = sha2::Sha256::new();
    h.update(b"routec-lfts-v2");
    for (guid, digest) in rows {
        h.update(guid.0.to_le_bytes());
        h.update(digest);
    }
    crate::io::hex(&h.finalize())
}

/// The GUID of every switch, in switch order.
pub fn switch_guids(fabric: &Fabric) -> impl Iterator<Item = Guid> + '_ {
    fabric.switches().iter().map(|&n| fabric.node(n).guid)
}
