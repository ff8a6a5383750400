//! `routes.lft`: the binary route image (`formats/route-image.md`).
//!
//! The tables are stored as the 64-entry LinearForwardingTable blocks an SM
//! uploads, each switch's row 64-byte aligned, so that a reader over a
//! memory map hands out `&[u8]` rows with no copy and `diff` compares
//! blocks with `memcmp`. Everything is little-endian.

use std::io::{self, Write};

use sha2::Digest;

use crate::model::{Fabric, Guid, LFT_BLOCK, Lfts, NodeKind};

/// First 8 bytes of every image.
pub const MAGIC: [u8; 8] = *b"RTCIMAGE";
/// The format version this build writes and reads.
pub const VERSION: u32 = 1;
/// Bytes of the fixed header, before the engine/options string.
pub const HEADER_LEN: usize = 144;
/// Bytes of one switch directory entry.
pub const DIR_ENTRY_LEN: usize = 32;
/// zstd level for `--compress`: fixed, so the bytes are reproducible.
pub const ZSTD_LEVEL: i32 = 3;

/// One switch as the writer needs it.
#[derive(Clone, Copy, Debug)]
pub struct ImageSwitch<'a> {
    pub guid: Guid,
    pub lid: u16,
    pub num_ports: u8,
    /// LinearFDBTop.
    pub top: u16,
    pub desc: &'a str,
    /// The LFT, LID-indexed, a whole number of 64-entry blocks.
    pub lft: &'a [u8],
}

/// The switches of a routed fabric, in [`crate::model::SwIdx`] order.
pub fn switches_of<'a>(fabric: &'a Fabric, lfts: &'a Lfts) -> Vec<ImageSwitch<'a>> {
    fabric
        .switches()
        .iter()
        .enumerate()
        .map(|(s, &n)| {
            let node = fabric.node(n);
            ImageSwitch {
                guid: node.guid,
                lid: fabric.switch_lid(n),
                num_ports: node.num_ports,
                top: lfts.top(),
                desc: &node.desc,
                lft: lfts.row(s),
            }
        })
        .collect()
}

/// LID → port GUID of every assigned LID (0 where none), LMC ranges included.
pub fn lid_guids_of(fabric: &Fabric, lids: &crate::model::LidMap) -> Vec<Guid> {
    let mut out = vec![Guid(0); lids.max_lid() as usize + 1];
    for (lid, owner) in lids.iter() {
        out[lid as usize] = fabric.port(owner.node, owner.port).guid;
    }
    out
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

fn align(x: usize, a: usize) -> usize {
    x.div_ceil(a) * a
}

/// Byte offsets of the sections of an image.
struct Layout {
    header_len: usize,
    dir: usize,
    lid_table: usize,
    strings: usize,
    strings_len: usize,
    tables: usize,
    file_len: usize,
}

fn layout(meta: &str, switches: &[ImageSwitch], num_lids: usize) -> Layout {
    let header_len = align(HEADER_LEN + meta.len(), 8);
    let dir = header_len;
    let lid_table = dir + DIR_ENTRY_LEN * switches.len();
    let strings = lid_table + 8 * num_lids;
    let strings_len: usize = switches.iter().map(|s| s.desc.len()).sum();
    let tables = align(strings + strings_len, LFT_BLOCK);
    let table_bytes: usize = switches.iter().map(|s| s.lft.len()).sum();
    Layout {
        header_len,
        dir,
        lid_table,
        strings,
        strings_len,
        tables,
        file_len: tables + table_bytes,
    }
}

/// Writes an image. `meta` is the engine and options string; the content
/// digest covers every byte after the header, so equal digests mean equal
/// tables without reading them.
pub fn write_image(
    out: &mut dyn Write,
    meta: &str,
    fingerprint: &[u8; 32],
    switches: &[ImageSwitch],
    lid_guids: &[Guid],
) -> io::Result<()> {
    if let Some(s) = switches.iter().find(|s| s.lft.len() % LFT_BLOCK != 0) {
        return Err(io::Error::other(format!(
            "switch {}: LFT of {} bytes is not whole blocks",
            s.guid,
            s.lft.len()
        )));
    }
    let l = layout(meta, switches, lid_guids.len());
    let mut body = Vec::with_capacity(l.tables - l.dir);
    let (mut desc_at, mut table_at) = (0u32, l.tables as u64);
    for s in switches {
        body.extend_from_slice(&s.guid.0.to_le_bytes());
        body.extend_from_slice(&table_at.to_le_bytes());
        body.extend_from_slice(&s.lid.to_le_bytes());
        body.extend_from_slice(&s.top.to_le_bytes());
        body.extend_from_slice(&((s.lft.len() / LFT_BLOCK) as u16).to_le_bytes());
        body.extend_from_slice(&[s.num_ports, 0]);
        body.extend_from_slice(&desc_at.to_le_bytes());
        body.extend_from_slice(&(s.desc.len() as u32).to_le_bytes());
        desc_at += s.desc.len() as u32;
        table_at += s.lft.len() as u64;
    }
    for g in lid_guids {
        body.extend_from_slice(&g.0.to_le_bytes());
    }
    for s in switches {
        body.extend_from_slice(s.desc.as_bytes());
    }
    body.resize(l.tables - l.dir, 0);
    let mut digest = sha2::Sha256::new();
    digest.update(&body);
    for s in switches {
        digest.update(s.lft);
    }
    let digest: [u8; 32] = digest.finalize().into();

    let mut head = Vec::with_capacity(l.header_len);
    head.extend_from_slice(&MAGIC);
    head.extend_from_slice(&VERSION.to_le_bytes());
    head.extend_from_slice(&(l.header_len as u32).to_le_bytes());
    head.extend_from_slice(&(switches.len() as u32).to_le_bytes());
    head.extend_from_slice(&(lid_guids.len() as u32).to_le_bytes());
    for v in [l.dir, l.lid_table, l.strings, l.strings_len, l.tables, l.file_len] {
        head.extend_from_slice(&(v as u64).to_le_bytes());
    }
    head.extend_from_slice(fingerprint);
    head.extend_from_slice(&digest);
    head.extend_from_slice(&(meta.len() as u32).to_le_bytes());
    head.extend_from_slice(&0u32.to_le_bytes());
    head.extend_from_slice(meta.as_bytes());
    head.resize(l.header_len, 0);
    out.write_all(&head)?;
    out.write_all(&body)?;
    for s in switches {
        out.write_all(s.lft)?;
    }
    Ok(())
}

/// Writes an image zstd-compressed at [`ZSTD_LEVEL`], single-threaded.
pub fn write_image_zstd(
    out: &mut dyn Write,
    meta: &str,
    fingerprint: &[u8; 32],
    switches: &[ImageSwitch],
    lid_guids: &[Guid],
) -> io::Result<()> {
    let mut enc = zstd::stream::Encoder::new(out, ZSTD_LEVEL)?;
    enc.include_checksum(true)?;
    write_image(&mut enc, meta, fingerprint, switches, lid_guids)?;
    enc.finish()?;
    Ok(())
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
            .ok_or_else(|| bad(format!("truncated: {n} bytes at offset {at} are past the end")))
    }
    fn u16(&self, at: usize) -> Result<u16, ImageError> {
        Ok(u16::from_le_bytes(self.bytes(at, 2)?.try_into().unwrap_or_default()))
    }
    fn u32(&self, at: usize) -> Result<u32, ImageError> {
        Ok(u32::from_le_bytes(self.bytes(at, 4)?.try_into().unwrap_or_default()))
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
    if !is_image(bytes) {
        return Err(bad("not a routec route image (bad magic)"));
    }
    let version = c.u32(8)?;
    if version != VERSION {
        return Err(bad(format!("version {version} is not supported (this build reads {VERSION})")));
    }
    let num_switches = c.u32(16)? as usize;
    let num_lids = c.u32(20)? as usize;
    let (dir, lid_table, strings, strings_len) = (c.u64(24)?, c.u64(32)?, c.u64(40)?, c.u64(48)?);
    let file_len = c.u64(64)?;
    if file_len != bytes.len() {
        return Err(bad(format!("header says {file_len} bytes, file has {}", bytes.len())));
    }
    let meta_len = c.u32(136)? as usize;
    let meta = String::from_utf8_lossy(c.bytes(HEADER_LEN, meta_len)?).into_owned();
    let header = ImageHeader {
        version,
        meta,
        fabric_fingerprint: c.digest(72)?,
        content_digest: c.digest(104)?,
    };
    let names = c.bytes(strings, strings_len)?;
    let mut switches = Vec::with_capacity(num_switches.min(bytes.len() / DIR_ENTRY_LEN));
    for i in 0..num_switches {
        let e = dir + i * DIR_ENTRY_LEN;
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
            return Err(bad(format!("switch {i}: LinearFDBTop {top} beyond its {len} entries")));
        }
        switches.push(DirEntry {
            guid: Guid(c.u64(e)? as u64),
            lid: c.u16(e + 16)?,
            top,
            num_ports: c.bytes(e + 22, 1)?[0],
            desc: String::from_utf8_lossy(desc).into_owned(),
            table: start..start + len,
        });
    }
    let lids = c.bytes(lid_table, num_lids * 8)?;
    let lid_guids = lids
        .chunks_exact(8)
        .map(|b| Guid(u64::from_le_bytes(b.try_into().unwrap_or_default())))
        .collect();
    Ok(ImageIndex {
        header,
        switches,
        lid_guids,
    })
}

/// Recomputes the content digest and compares it with the header's.
pub fn verify_digest(bytes: &[u8], index: &ImageIndex) -> Result<(), ImageError> {
    let dir = Cursor(bytes).u64(24)?;
    let got: [u8; 32] = sha2::Sha256::digest(&bytes[dir.min(bytes.len())..]).into();
    if got != index.header.content_digest {
        return Err(bad("content digest mismatch: the image is damaged"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tiny() -> (Vec<u8>, Vec<u8>) {
        let mut a = vec![0xFFu8; 64];
        a[1] = 1;
        a[2] = 0;
        let mut b = vec![0xFFu8; 64];
        b[1] = 2;
        b[2] = 1;
        (a, b)
    }

    #[test]
    fn write_then_index_round_trips() {
        let (a, b) = tiny();
        let sw = [
            ImageSwitch { guid: Guid(0x20), lid: 2, num_ports: 4, top: 3, desc: "s1", lft: &a },
            ImageSwitch { guid: Guid(0x21), lid: 3, num_ports: 4, top: 3, desc: "s2 x", lft: &b },
        ];
        let lg = [Guid(0), Guid(0x11), Guid(0x20), Guid(0x21)];
        let mut out = Vec::new();
        write_image(&mut out, "engine=minhop", &[7; 32], &sw, &lg).unwrap();
        assert_eq!(out.len() % 64, 0);
        let idx = read_index(&out).unwrap();
        verify_digest(&out, &idx).unwrap();
        assert_eq!(idx.header.meta, "engine=minhop");
        assert_eq!(idx.lid_guids, lg);
        assert_eq!(idx.switches[1].desc, "s2 x");
        assert_eq!(&out[idx.switches[0].table.clone()], &a[..]);
        assert_eq!(&out[idx.switches[1].table.clone()], &b[..]);
        assert_eq!(idx.switches[1].table.start % 64, 0);
        let mut damaged = out.clone();
        let last = damaged.len() - 1;
        damaged[last] ^= 1;
        assert!(verify_digest(&damaged, &idx).is_err());
        for cut in [0, 10, 100, out.len() - 1] {
            assert!(read_index(&out[..cut]).is_err(), "cut at {cut}");
        }
    }
}
