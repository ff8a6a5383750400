//! Reads `routes.lft`, the binary route image (`formats/route-image.md`),
//! whose layout `model::image` defines: the header, the switch directory
//! and the LID table are decoded and bounds-checked; rows stay in the
//! caller's buffer (usually a memory map) and are handed out with no copy.

mod header;

use std::ops::Range;

use sha2::Digest;

use self::header::{read_declared, read_version};
use super::image_layout::Declared;
use crate::model::image::{
    DIR_ENTRY_LEN, ImageHeader, MAGIC, VERSION_VL, VL_DIR_ENTRY_LEN, VL_HEAD_LEN, VL_MAGIC,
    content_digest_of, field, vl_field,
};
use crate::model::{Guid, LFT_BLOCK};

/// A switch directory entry, decoded; `table` is a byte range of the image.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DirEntry {
    pub guid: Guid,
    pub lid: u16,
    pub top: u16,
    pub num_ports: u8,
    pub desc: String,
    pub table: std::ops::Range<usize>,
}

/// A validated image: header, directory, LID table. Rows stay in the
/// caller's buffer (the memory map), addressed by [`DirEntry::table`].
#[derive(Clone, Debug)]
pub struct ImageIndex {
    pub header: ImageHeader,
    pub switches: Vec<DirEntry>,
    pub lid_guids: Vec<Guid>,
    /// The VL section (version 2 images).
    pub vl: Option<VlIndex>,
}

/// A decoded VL section: byte ranges of the image, switches in directory
/// order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VlIndex {
    /// The whole section (for the digest).
    pub section: Range<usize>,
    pub vls: u8,
    pub end_port: Option<[u8; 16]>,
    /// The map of switches without a table of their own (`None` = identity).
    pub default: Option<[u8; 16]>,
    /// `(ports + 1, table)` per switch; `None` = the default map.
    pub sl2vl: Vec<Option<(usize, Range<usize>)>>,
    /// Path SLs per switch, as long as its LFT row.
    pub path_sl: Vec<Range<usize>>,
}

/// Why an image cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("route image: {0}")]
pub struct ImageError(pub String);

fn bad(msg: impl Into<String>) -> ImageError {
    ImageError(msg.into())
}

struct Cursor<'a>(&'a [u8]);

impl Cursor<'_> {
    fn bytes(&self, at: usize, n: usize) -> Result<&[u8], ImageError> {
        at.checked_add(n)
            .and_then(|end| self.0.get(at..end))
            .ok_or_else(|| {
                bad(format!(
                    "truncated: {n} bytes at offset {at} are past the end"
                ))
            })
    }
    fn u16(&self, at: usize) -> Result<u16, ImageError> {
        Ok(u16::from_le_bytes(
            self.bytes(at, 2)?.try_into().unwrap_or_default(),
        ))
    }
    fn u32(&self, at: usize) -> Result<u32, ImageError> {
        Ok(u32::from_le_bytes(
            self.bytes(at, 4)?.try_into().unwrap_or_default(),
        ))
    }
    fn u64(&self, at: usize) -> Result<usize, ImageError> {
        let v = u64::from_le_bytes(self.bytes(at, 8)?.try_into().unwrap_or_default());
        usize::try_from(v).map_err(|_| bad(format!("offset {v} does not fit in memory")))
    }
    fn digest(&self, at: usize) -> Result<[u8; 32], ImageError> {
        Ok(self.bytes(at, 32)?.try_into().unwrap_or_default())
    }
}

/// Whether `bytes` start like an (uncompressed) route image.
pub fn is_image(bytes: &[u8]) -> bool {
    bytes.starts_with(&MAGIC)
}

/// Decodes and bounds-checks the header, directory and LID table of an image.
/// The content digest is not recomputed here (that reads every row): call
/// [`verify_digest`] when the bytes may be damaged.
pub fn read_index(bytes: &[u8]) -> Result<ImageIndex, ImageError> {
    let c = Cursor(bytes);
    let version = read_version(&c)?;
    let (declared, meta) = read_declared(&c, version)?;
    super::image_layout::check_header(&declared)?;
    let header = ImageHeader {
        version,
        meta,
        fabric_fingerprint: c.digest(field::FINGERPRINT)?,
        content_digest: c.digest(field::DIGEST)?,
    };
    let switches = read_directory(&c, &declared)?;
    let lid_guids = read_lid_table(&c, &declared)?;
    let vl_section = vl_section_of(&c, version)?;
    let rows_end = vl_section.as_ref().map_or(bytes.len(), |s| s.start);
    super::image_layout::check_directory(&switches, declared.tables, rows_end)?;
    let vl = match vl_section {
        Some(section) => Some(read_vl(&c, section, &switches)?),
        None => None,
    };
    Ok(ImageIndex {
        header,
        switches,
        lid_guids,
        vl,
    })
}

/// The switch directory: each row and description is bounds-checked here,
/// so rows can later be handed out of the buffer without a check.
fn read_directory(c: &Cursor, d: &Declared) -> Result<Vec<DirEntry>, ImageError> {
    let names = c.bytes(d.strings, d.strings_len)?;
    let mut switches = Vec::with_capacity(d.num_switches.min(c.0.len() / DIR_ENTRY_LEN));
    for i in 0..d.num_switches {
        switches.push(read_dir_entry(c, names, i, d.dir + i * DIR_ENTRY_LEN)?);
    }
    Ok(switches)
}

/// Switch `i`'s directory entry at `e`; `names` is the string table its
/// description points into.
fn read_dir_entry(c: &Cursor, names: &[u8], i: usize, e: usize) -> Result<DirEntry, ImageError> {
    let start = c.u64(e + 8)?;
    let len = c.u16(e + 20)? as usize * LFT_BLOCK;
    c.bytes(start, len)?;
    let (d_at, d_len) = (c.u32(e + 24)? as usize, c.u32(e + 28)? as usize);
    let desc = d_at
        .checked_add(d_len)
        .and_then(|end| names.get(d_at..end))
        .ok_or_else(|| bad(format!("switch {i}: description outside the string table")))?;
    let top = c.u16(e + 18)?;
    if top as usize >= len.max(1) {
        return Err(bad(format!(
            "switch {i}: LinearFDBTop {top} beyond its {len} entries"
        )));
    }
    Ok(DirEntry {
        guid: Guid(c.u64(e)? as u64),
        lid: c.u16(e + 16)?,
        top,
        num_ports: c.bytes(e + 22, 1)?[0],
        desc: String::from_utf8_lossy(desc).into_owned(),
        table: start..start + len,
    })
}

/// The GUID owning each LID, decoded once so lookups by LID need no
/// cursor.
fn read_lid_table(c: &Cursor, d: &Declared) -> Result<Vec<Guid>, ImageError> {
    let lids = c.bytes(d.lid_table, d.num_lids * 8)?;
    Ok(lids
        .chunks_exact(8)
        .map(|b| Guid(u64::from_le_bytes(b.try_into().unwrap_or_default())))
        .collect())
}

/// Where the VL section lies: only version 2 headers have its fields, and
/// the rows end where it starts.
fn vl_section_of(c: &Cursor, version: u32) -> Result<Option<Range<usize>>, ImageError> {
    if version != VERSION_VL {
        return Ok(None);
    }
    let at = c.u64(field::VL_SECTION)?;
    Ok(Some(at..at.saturating_add(c.u64(field::VL_LEN)?)))
}

/// Decodes and bounds-checks the VL section at `section`.
fn read_vl(
    c: &Cursor,
    section: Range<usize>,
    switches: &[DirEntry],
) -> Result<VlIndex, ImageError> {
    let at = section.start;
    let sec = c.bytes(at, section.len())?;
    if !sec.starts_with(&VL_MAGIC) {
        return Err(bad("VL section: bad magic"));
    }
    let v = Cursor(sec);
    let n = v.u32(vl_field::NUM_SWITCHES)? as usize;
    if n != switches.len() {
        return Err(bad(format!(
            "VL section: {n} switches, directory {}",
            switches.len()
        )));
    }
    let end_port = (v.bytes(vl_field::HAS_END_PORT, 1)?[0] != 0)
        .then(|| {
            v.bytes(vl_field::END_PORT, 16)
                .map(|t| t.try_into().unwrap_or([0; 16]))
        })
        .transpose()?;
    let default = (v.bytes(vl_field::HAS_DEFAULT, 1)?[0] != 0)
        .then(|| {
            v.bytes(vl_field::DEFAULT, 16)
                .map(|t| t.try_into().unwrap_or([0; 16]))
        })
        .transpose()?;
    let mut sl2vl = Vec::with_capacity(n);
    for i in 0..n {
        let e = VL_HEAD_LEN + i * VL_DIR_ENTRY_LEN;
        let (off, dim) = (v.u64(e)?, v.u16(e + 8)? as usize);
        if off == 0 {
            sl2vl.push(None);
            continue;
        }
        let len = dim * dim * 16;
        v.bytes(off, len)?;
        sl2vl.push(Some((dim, at + off..at + off + len)));
    }
    let mut row = v.u64(vl_field::ROWS)?;
    let mut path_sl = Vec::with_capacity(n);
    for s in switches {
        let len = s.table.len();
        v.bytes(row, len)?;
        path_sl.push(at + row..at + row + len);
        row += len;
    }
    Ok(VlIndex {
        vls: v.bytes(vl_field::VLS, 1)?[0],
        section,
        end_port,
        default,
        sl2vl,
        path_sl,
    })
}

/// Recomputes the content digest and compares it with the header's.
pub fn verify_digest(bytes: &[u8], index: &ImageIndex) -> Result<(), ImageError> {
    verified_row_digests(bytes, index).map(|_| ())
}

/// [`verify_digest`], giving back the SHA-256 of every row (directory
/// order) it hashed: a state's tables digest is made of the same ones
/// (`model::state::lfts_digest_of_rows`), so `compile --previous` checks
/// both with one pass over the tables.
pub fn verified_row_digests(bytes: &[u8], index: &ImageIndex) -> Result<Vec<[u8; 32]>, ImageError> {
    let c = Cursor(bytes);
    let dir = c.u64(field::DIR)?;
    let body = c.bytes(dir, c.u64(field::TABLES)?.saturating_sub(dir))?;
    let rows: Vec<&[u8]> = index
        .switches
        .iter()
        .map(|s| &bytes[s.table.clone()])
        .collect();
    let vl = index.vl.as_ref().map(|v| &bytes[v.section.clone()]);
    let vl_digest = vl.map(|v| move || sha2::Sha256::digest(v).into());
    // on rayon's threads, idle here: the writer's threads of their own
    // (`emit::image`, which hashes beside the verifier) took `check` of the
    // 27,648-host RLFT with aggregation nodes 11 ms longer
    let (vl, row_digests) = rayon::join(
        || vl_digest.map(|f| f()),
        || crate::model::image::row_digests(&rows),
    );
    if content_digest_of(body, &row_digests, vl) != index.header.content_digest {
        return Err(bad("content digest mismatch: the image is damaged"));
    }
    Ok(row_digests)
}

#[cfg(test)]
mod tests;
