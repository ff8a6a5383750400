//! The VL section of a route image (`formats/route-image.md`, version 2):
//! the end ports' SL2VL table, each switch's SL2VL table (or none, for the
//! identity), and each switch's path SLs laid out like its LFT row, so the
//! whole VL plan of a compile travels with its tables.

use crate::model::image::{VL_DIR_ENTRY_LEN, VL_HEAD_LEN, VL_MAGIC, vl_field};
use crate::model::{Fabric, LFT_BLOCK, VlPlan};

/// A VL plan as the image writer needs it, switches in directory order.
pub struct ImageVl<'a> {
    pub vls: u8,
    pub end_port: Option<[u8; 16]>,
    /// The map of switches without a table of their own (`None` = identity).
    pub default: Option<[u8; 16]>,
    /// `(ports + 1, dim² × 16 VLs)` per switch; `None` = the default map.
    pub sl2vl: Vec<Option<(usize, &'a [u8])>>,
    /// Path SLs per switch, LID-indexed, as long as its LFT row.
    pub path_sl: Vec<&'a [u8]>,
}

impl<'a> ImageVl<'a> {
    /// The plan of a routed fabric, switches in [`crate::model::SwIdx`] order.
    pub fn of(fabric: &Fabric, plan: &'a VlPlan) -> Self {
        let n = fabric.num_switches();
        ImageVl {
            vls: plan.vls,
            end_port: plan.sl2vl.end_port_table(),
            default: plan.sl2vl.default_table(),
            sl2vl: (0..n).map(|s| plan.sl2vl.switch_table(s)).collect(),
            path_sl: (0..n).map(|s| plan.path_sl.row(s)).collect(),
        }
    }
}

fn put(buf: &mut [u8], at: usize, bytes: &[u8]) {
    buf[at..at + bytes.len()].copy_from_slice(bytes);
}

/// The section: head, switch directory, SL2VL tables, then the path-SL
/// rows from a 64-byte boundary (relative to the section, which itself
/// starts on one). The rows (one byte per switch and LID, as large as the
/// LFTs) stay where the plan holds them: the writer hashes and writes them
/// in place rather than through a copy of their size.
pub struct Section<'a> {
    /// Head, switch directory, SL2VL tables and the padding up to the rows.
    head: Vec<u8>,
    rows: &'a [&'a [u8]],
}

impl<'a> Section<'a> {
    pub fn of(vl: &'a ImageVl) -> Self {
        Section {
            head: encode_head(vl),
            rows: &vl.path_sl,
        }
    }

    /// The section's length in bytes.
    pub fn byte_len(&self) -> usize {
        self.head.len() + self.rows.iter().map(|r| r.len()).sum::<usize>()
    }

    /// SHA-256 of the section's bytes (what `model::image::content_digest`
    /// takes of the section).
    pub fn digest(&self) -> [u8; 32] {
        use sha2::Digest;
        let mut h = sha2::Sha256::new();
        h.update(&self.head);
        for row in self.rows {
            h.update(row);
        }
        h.finalize().into()
    }

    /// Writes the section's bytes.
    pub fn write_to(&self, out: &mut dyn std::io::Write) -> std::io::Result<()> {
        out.write_all(&self.head)?;
        for row in self.rows {
            out.write_all(row)?;
        }
        Ok(())
    }
}

/// The section up to its path-SL rows.
fn encode_head(vl: &ImageVl) -> Vec<u8> {
    let n = vl.sl2vl.len();
    let tables_at = VL_HEAD_LEN + VL_DIR_ENTRY_LEN * n;
    let table_bytes: usize = vl.sl2vl.iter().flatten().map(|(_, t)| t.len()).sum();
    let rows_at = (tables_at + table_bytes).div_ceil(LFT_BLOCK) * LFT_BLOCK;
    let mut buf = vec![0u8; rows_at];
    put(&mut buf, 0, &VL_MAGIC);
    put(&mut buf, vl_field::NUM_SWITCHES, &(n as u32).to_le_bytes());
    buf[vl_field::VLS] = vl.vls;
    if let Some(t) = vl.end_port {
        buf[vl_field::HAS_END_PORT] = 1;
        put(&mut buf, vl_field::END_PORT, &t);
    } else {
        let identity: Vec<u8> = (0..16).collect();
        put(&mut buf, vl_field::END_PORT, &identity);
    }
    put(&mut buf, vl_field::ROWS, &(rows_at as u64).to_le_bytes());
    if let Some(t) = vl.default {
        buf[vl_field::HAS_DEFAULT] = 1;
        put(&mut buf, vl_field::DEFAULT, &t);
    }
    let mut at = tables_at;
    for (i, t) in vl.sl2vl.iter().enumerate() {
        let e = VL_HEAD_LEN + i * VL_DIR_ENTRY_LEN;
        if let Some((dim, table)) = t {
            put(&mut buf, e, &(at as u64).to_le_bytes());
            put(&mut buf, e + 8, &(*dim as u16).to_le_bytes());
            put(&mut buf, at, table);
            at += table.len();
        }
    }
    buf
}
