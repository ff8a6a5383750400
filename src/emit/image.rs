//! `routes.lft`: the binary route image (`formats/route-image.md`).
//!
//! The tables are stored as the 64-entry LinearForwardingTable blocks an SM
//! uploads, each switch's row 64-byte aligned, so that a reader over a
//! memory map hands out `&[u8]` rows with no copy and `diff` compares
//! blocks with `memcmp`. Everything is little-endian.

use std::io::{self, Write};

use super::image_vl::{self, ImageVl};
use crate::model::image::{
    DIR_ENTRY_LEN, MAGIC, content_digest_of, field, fixed_header_len, version_for,
};
use crate::model::{Fabric, Guid, LFT_BLOCK, Lfts};

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

fn layout(meta: &str, switches: &[ImageSwitch], num_lids: usize, vl: bool) -> Layout {
    let header_len = align(fixed_header_len(version_for(vl)) + meta.len(), 8);
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

/// Everything an image is made of besides its layout.
#[derive(Clone, Copy)]
pub struct ImageParts<'a> {
    /// The engine and options string of the header.
    pub meta: &'a str,
    pub fingerprint: &'a [u8; 32],
    pub switches: &'a [ImageSwitch<'a>],
    /// Per LID, the GUID of the port that owns it.
    pub lid_guids: &'a [Guid],
    pub vl: Option<&'a ImageVl<'a>>,
}

/// Writes an image. The content digest covers every byte after the
/// header, so equal digests mean equal tables without reading them.
pub fn write_image(out: &mut dyn Write, parts: &ImageParts) -> io::Result<()> {
    write_image_with(out, parts, &mut |_| {})
}

/// [`write_image`], handing the rows' SHA-256 (switch order) to `rows_hashed`
/// as soon as they are known, before any byte is written: `compile` makes
/// the state's tables digest of them (`formats/state.md`), so the tables
/// are hashed once.
pub fn write_image_with(
    out: &mut dyn Write,
    parts: &ImageParts,
    rows_hashed: &mut dyn FnMut(&[[u8; 32]]),
) -> io::Result<()> {
    let ImageParts {
        meta,
        switches,
        lid_guids,
        vl,
        ..
    } = *parts;
    check_whole_blocks(switches)?;
    let l = layout(meta, switches, lid_guids.len(), vl.is_some());
    let vl_bytes = vl.map(image_vl::Section::of);
    let body = body_of(parts, &l);
    let rows: Vec<&[u8]> = switches.iter().map(|s| s.lft).collect();
    let (vl_digest, row_digests) = digests(&rows, vl_bytes.as_ref());
    rows_hashed(&row_digests);
    let digest = content_digest_of(&body, &row_digests, vl_digest);
    let head = header_of(parts, &l, vl_bytes.as_ref(), &digest);
    out.write_all(&head)?;
    out.write_all(&body)?;
    for s in switches {
        out.write_all(s.lft)?;
    }
    if let Some(v) = &vl_bytes {
        v.write_to(out)?;
    }
    Ok(())
}

/// The rows' SHA-256 and the VL section's, on two threads of their own
/// rather than rayon's: `compile` writes the image while the verifier keeps
/// rayon's threads busy, and hashes handed to them waited for its end
/// (27,648-host RLFT: 60–70 ms plain, about 200 ms with aggregation
/// nodes), the image's write and its sync after them.
fn digests(rows: &[&[u8]], vl: Option<&image_vl::Section>) -> (Option<[u8; 32]>, Vec<[u8; 32]>) {
    use sha2::Digest;
    let hash = |rows: &[&[u8]]| -> Vec<[u8; 32]> {
        rows.iter()
            .map(|r| sha2::Sha256::digest(r).into())
            .collect()
    };
    std::thread::scope(|sc| match vl {
        // the section is about as large as the rows
        Some(v) => {
            let section = sc.spawn(|| v.digest());
            let rows = hash(rows);
            (Some(joined(section)), rows)
        }
        None => {
            let (a, b) = rows.split_at(rows.len() / 2);
            let first = sc.spawn(|| hash(a));
            let second = hash(b);
            let mut all = joined(first);
            all.extend(second);
            (None, all)
        }
    })
}

fn joined<T>(h: std::thread::ScopedJoinHandle<'_, T>) -> T {
    h.join().unwrap_or_else(|p| std::panic::resume_unwind(p))
}

/// Rows are stored and read as whole LinearForwardingTable blocks, so a
/// partial block is refused before anything is written.
fn check_whole_blocks(switches: &[ImageSwitch]) -> io::Result<()> {
    if let Some(s) = switches.iter().find(|s| s.lft.len() % LFT_BLOCK != 0) {
        return Err(io::Error::other(format!(
            "switch {}: LFT of {} bytes is not whole blocks",
            s.guid,
            s.lft.len()
        )));
    }
    Ok(())
}

/// The directory, LID table and string table, padded to the tables: built
/// in memory because the content digest in the header covers them.
fn body_of(parts: &ImageParts, l: &Layout) -> Vec<u8> {
    let mut body = Vec::with_capacity(l.tables - l.dir);
    let (mut desc_at, mut table_at) = (0u32, l.tables as u64);
    for s in parts.switches {
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
    for g in parts.lid_guids {
        body.extend_from_slice(&g.0.to_le_bytes());
    }
    for s in parts.switches {
        body.extend_from_slice(s.desc.as_bytes());
    }
    body.resize(l.tables - l.dir, 0);
    body
}

/// The header, written last in memory because it carries the content
/// digest of everything after it; a VL section makes it a version 2
/// header with the section's place.
fn header_of(
    parts: &ImageParts,
    l: &Layout,
    vl_bytes: Option<&image_vl::Section>,
    digest: &[u8; 32],
) -> Vec<u8> {
    let ImageParts {
        meta,
        fingerprint,
        switches,
        lid_guids,
        ..
    } = *parts;
    let mut head = vec![0u8; l.header_len];
    let mut put = |at: usize, bytes: &[u8]| head[at..at + bytes.len()].copy_from_slice(bytes);
    put(0, &MAGIC);
    let version = version_for(vl_bytes.is_some());
    put(field::VERSION, &version.to_le_bytes());
    put(field::HEADER_LEN, &(l.header_len as u32).to_le_bytes());
    put(field::NUM_SWITCHES, &(switches.len() as u32).to_le_bytes());
    put(field::NUM_LIDS, &(lid_guids.len() as u32).to_le_bytes());
    for (at, v) in [
        (field::DIR, l.dir),
        (field::LID_TABLE, l.lid_table),
        (field::STRINGS, l.strings),
        (field::STRINGS_LEN, l.strings_len),
        (field::TABLES, l.tables),
        (
            field::FILE_LEN,
            l.file_len + vl_bytes.map_or(0, image_vl::Section::byte_len),
        ),
    ] {
        put(at, &(v as u64).to_le_bytes());
    }
    if let Some(v) = vl_bytes {
        put(field::VL_SECTION, &(l.file_len as u64).to_le_bytes());
        put(field::VL_LEN, &(v.byte_len() as u64).to_le_bytes());
    }
    put(field::FINGERPRINT, fingerprint);
    put(field::DIGEST, digest);
    put(field::META_LEN, &(meta.len() as u32).to_le_bytes());
    put(fixed_header_len(version), meta.as_bytes());
    head
}

/// Writes an image zstd-compressed at [`ZSTD_LEVEL`], single-threaded.
pub fn write_image_zstd(out: &mut dyn Write, parts: &ImageParts) -> io::Result<()> {
    write_image_zstd_with(out, parts, &mut |_| {})
}

/// [`write_image_zstd`] handing the rows' digests on ([`write_image_with`]).
pub fn write_image_zstd_with(
    out: &mut dyn Write,
    parts: &ImageParts,
    rows_hashed: &mut dyn FnMut(&[[u8; 32]]),
) -> io::Result<()> {
    let mut enc = zstd::stream::Encoder::new(out, ZSTD_LEVEL)?;
    enc.include_checksum(true)?;
    write_image_with(&mut enc, parts, rows_hashed)?;
    enc.finish()?;
    Ok(())
}
