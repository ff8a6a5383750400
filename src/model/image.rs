//! The route image's layout (`formats/route-image.md`), shared by its
//! writer (`emit::image`) and its reader (`parse::image`) so the two cannot
//! drift: the magic, the version, the offsets of the header fields, the
//! content digest, and the fabric fingerprint both sides compare.

use sha2::Digest;

use super::{Fabric, NodeKind};

/// First 8 bytes of every image.
pub const MAGIC: [u8; 8] = *b"RTCIMAGE";
/// The version of an image without a VL section; it is written whenever
/// the routing has no VL plan, so such images read with older routec.
pub const VERSION: u32 = 1;
/// The version of an image with a VL section (path SLs, SL2VL tables).
pub const VERSION_VL: u32 = 2;
/// Bytes of the fixed header, before the engine/options string (v1).
pub const HEADER_LEN: usize = 144;
/// The same in v2, whose header ends with the VL section's place.
pub const HEADER_LEN_VL: usize = 160;
/// The version an image is written with: the VL one only when it carries
/// a VL section, so images without one still read with older routec.
pub fn version_for(vl: bool) -> u32 {
    if vl { VERSION_VL } else { VERSION }
}

/// Bytes of the fixed header of `version`, where the meta string begins.
pub fn fixed_header_len(version: u32) -> usize {
    if version == VERSION_VL {
        HEADER_LEN_VL
    } else {
        HEADER_LEN
    }
}

/// First 8 bytes of the VL section.
pub const VL_MAGIC: [u8; 8] = *b"RTCVLSEC";
/// Bytes before the VL section's switch directory, and per entry of it.
pub const VL_HEAD_LEN: usize = 64;
pub const VL_DIR_ENTRY_LEN: usize = 16;
/// Bytes of one switch directory entry.
pub const DIR_ENTRY_LEN: usize = 32;
/// Offsets of the fixed header's fields.
pub mod field {
    pub const VERSION: usize = 8;
    pub const HEADER_LEN: usize = 12;
    pub const NUM_SWITCHES: usize = 16;
    pub const NUM_LIDS: usize = 20;
    pub const DIR: usize = 24;
    pub const LID_TABLE: usize = 32;
    pub const STRINGS: usize = 40;
    pub const STRINGS_LEN: usize = 48;
    pub const TABLES: usize = 56;
    pub const FILE_LEN: usize = 64;
    pub const FINGERPRINT: usize = 72;
    pub const DIGEST: usize = 104;
    pub const META_LEN: usize = 136;
    /// v2 only: offset and length of the VL section.
    pub const VL_SECTION: usize = 144;
    pub const VL_LEN: usize = 152;
}

/// Offsets inside the VL section (relative to its start).
pub mod vl_field {
    pub const NUM_SWITCHES: usize = 8;
    pub const VLS: usize = 12;
    pub const HAS_END_PORT: usize = 13;
    pub const HAS_DEFAULT: usize = 14;
    pub const END_PORT: usize = 16;
    pub const ROWS: usize = 40;
    pub const DEFAULT: usize = 48;
}

/// The decoded header of an image.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImageHeader {
    pub version: u32,
    /// Engine and options, as written by `compile`.
    pub meta: String,
    pub fabric_fingerprint: [u8; 32],
    pub content_digest: [u8; 32],
}

/// The SHA-256 of every row, computed in parallel. The writer keeps them:
/// the state's tables digest is made of the same row digests
/// (`model::state::lfts_digest_of_rows`), so the 88 MB of tables of the
/// 27,648-host RLFT are hashed once per compile, not twice (issue 17).
pub fn row_digests(rows: &[&[u8]]) -> Vec<[u8; 32]> {
    use rayon::prelude::*;
    rows.par_iter()
        .map(|r| sha2::Sha256::digest(r).into())
        .collect()
}

/// The content digest: SHA-256 over the SHA-256 of the directory, LID and
/// string tables (`body`, up to `tables_offset`) followed by the SHA-256 of
/// every row in directory order ([`row_digests`]), and (v2) the SHA-256 of
/// the VL section.
pub fn content_digest_of(body: &[u8], row_digests: &[[u8; 32]], vl: Option<[u8; 32]>) -> [u8; 32] {
    let mut h = sha2::Sha256::new();
    h.update(sha2::Sha256::digest(body));
    for d in row_digests {
        h.update(d);
    }
    if let Some(v) = vl {
        h.update(v);
    }
    h.finalize().into()
}

/// SHA-256 of a canonical encoding of the topology: nodes in GUID order, each
/// with kind, port count and, per port, port GUID, LID, LMC and the
/// (node GUID, port) of its peer. Input order and file format do not matter.
pub fn fabric_fingerprint(fabric: &Fabric) -> [u8; 32] {
    let mut order: Vec<_> = fabric.node_indices().collect();
    order.sort_unstable_by_key(|&n| fabric.node(n).guid);
    let mut h = sha2::Sha256::new();
    h.update(b"routec-fabric-v1");
    for n in order {
        let node = fabric.node(n);
        let kind = match node.kind {
            NodeKind::Switch => 0u8,
            NodeKind::Ca => 1,
            NodeKind::Router => 2,
        };
        h.update([kind, node.num_ports]);
        h.update(node.guid.0.to_le_bytes());
        for port in fabric.ports(n) {
            h.update(port.guid.0.to_le_bytes());
            h.update(port.lid.to_le_bytes());
            h.update([port.lmc]);
            match port.peer {
                Some(p) => {
                    h.update([1]);
                    h.update(fabric.node(p.node).guid.0.to_le_bytes());
                    h.update([p.port]);
                }
                None => h.update([0]),
            }
        }
    }
    h.finalize().into()
}
