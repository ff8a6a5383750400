//! The VL section of a route image (`formats/route-image.md`, version 2):
//! the end ports' SL2VL table, each switch's SL2VL table (or none, for the
//! identity), and each switch's path SLs laid out like its LFT row, so the
//! whole VL plan of a compile travels with its tables.

use fixedbitset::FixedBitSet;

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
    /// The LID blocks that may hold an SL other than 0 in some row, when
    /// known (`PathSl::written_blocks`): the others are written and hashed
    /// from shared zeros, not read from rows whose pages were never touched.
    pub written: Option<&'a FixedBitSet>,
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
            written: plan.path_sl.written_blocks(),
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
    written: Option<&'a FixedBitSet>,
}

/// Zeros that stand for the rows' blocks known to be 0.
static ZEROS: [u8; 1 << 16] = [0; 1 << 16];

impl<'a> Section<'a> {
    pub fn of(vl: &'a ImageVl) -> Self {
        Section {
            head: encode_head(vl),
            rows: &vl.path_sl,
            written: vl.written,
        }
    }

    /// The section's length in bytes.
    pub fn byte_len(&self) -> usize {
        self.head.len() + self.rows.iter().map(|r| r.len()).sum::<usize>()
    }

    /// SHA-256 of the section's bytes (what `model::image::content_digest_of`
    /// takes of the section).
    pub fn digest(&self) -> [u8; 32] {
        use sha2::Digest;
        let mut h = sha2::Sha256::new();
        h.update(&self.head);
        self.row_pieces().for_each(|p| h.update(p));
        h.finalize().into()
    }

    /// Writes the section's bytes.
    pub fn write_to(&self, out: &mut dyn std::io::Write) -> std::io::Result<()> {
        out.write_all(&self.head)?;
        self.row_pieces().try_for_each(|p| out.write_all(p))
    }

    /// The rows' bytes in order, in pieces: a row's own bytes over the
    /// blocks that may be non-zero, [`ZEROS`] over the others.
    fn row_pieces(&self) -> impl Iterator<Item = &[u8]> {
        self.rows
            .iter()
            .flat_map(move |row| pieces(row, self.written))
    }
}

/// `row` as runs of blocks alike: its own bytes where `written` has the
/// block (or is unknown), [`ZEROS`] elsewhere.
fn pieces<'r>(row: &'r [u8], written: Option<&'r FixedBitSet>) -> impl Iterator<Item = &'r [u8]> {
    let blocks = row.len().div_ceil(LFT_BLOCK);
    let at = |b: usize| (b * LFT_BLOCK).min(row.len());
    let mut b = 0;
    std::iter::from_fn(move || {
        if b == blocks {
            return None;
        }
        let Some(w) = written else {
            b = blocks;
            return Some(row);
        };
        let own = w.contains(b);
        let mut end = b + 1;
        while end < blocks && w.contains(end) == own && (own || at(end) - at(b) < ZEROS.len()) {
            end += 1;
        }
        let piece = if own {
            &row[at(b)..at(end)]
        } else {
            &ZEROS[..at(end) - at(b)]
        };
        b = end;
        Some(piece)
    })
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A section written and hashed from shared zeros over the blocks not
    /// written is the one read whole from its rows, byte for byte.
    #[test]
    fn zeros_stand_in_for_blocks_not_written() {
        // rows of 3 and 2,000 blocks (long runs of zeros are cut at 64 KiB)
        let mut a = vec![0u8; 3 * LFT_BLOCK];
        let mut b = vec![0u8; 2000 * LFT_BLOCK];
        a[LFT_BLOCK + 5] = 2;
        b[1999 * LFT_BLOCK] = 1;
        let mut written = FixedBitSet::with_capacity(2000);
        written.extend([1, 1999]);
        let rows = [&a[..], &b[..]];
        let vl = |w| ImageVl {
            vls: 3,
            end_port: None,
            default: None,
            sl2vl: vec![None, None],
            path_sl: rows.to_vec(),
            written: w,
        };
        let (whole, by_blocks) = (vl(None), vl(Some(&written)));
        let bytes = |v: &ImageVl| {
            let mut out = Vec::new();
            Section::of(v).write_to(&mut out).unwrap();
            out
        };
        assert_eq!(bytes(&whole), bytes(&by_blocks));
        assert_eq!(
            Section::of(&whole).digest(),
            Section::of(&by_blocks).digest()
        );
        let s = Section::of(&by_blocks);
        assert_eq!(s.byte_len(), bytes(&by_blocks).len());
        let biggest = s.row_pieces().map(<[u8]>::len).max();
        assert_eq!(biggest, Some(ZEROS.len()));
        // the row of a block written is read, not zeros
        let mut a2 = a.clone();
        a2[LFT_BLOCK + 5] = 0;
        let changed = ImageVl {
            path_sl: vec![&a2[..], &b[..]],
            ..vl(Some(&written))
        };
        assert_ne!(bytes(&changed), bytes(&by_blocks));
    }
}
