//! The header and directory checks of a route image
//! (`formats/route-image.md`, "Layout"): every offset of an image is
//! determined by the sizes in its header, so a reader recomputes them and
//! refuses an image whose header says otherwise, rather than reading
//! tables at offsets a damaged or forged header points to (issue 11,
//! item 16: an unaligned table offset or a GUID twice in the directory
//! once gave findings instead of a format error).

use std::collections::HashMap;

use super::image::{DirEntry, ImageError};
use crate::model::LFT_BLOCK;
use crate::model::image::{DIR_ENTRY_LEN, fixed_header_len};

/// The offsets and sizes an image's header declares.
pub(super) struct Declared {
    pub version: u32,
    pub header_len: usize,
    pub meta_len: usize,
    pub num_switches: usize,
    pub num_lids: usize,
    pub dir: usize,
    pub lid_table: usize,
    pub strings: usize,
    pub strings_len: usize,
    pub tables: usize,
}

fn align(n: usize, to: usize) -> usize {
    n.div_ceil(to).saturating_mul(to)
}

/// Checks that each section starts where the sizes before it put it.
pub(super) fn check_header(d: &Declared) -> Result<(), ImageError> {
    let header_len = align(fixed_header_len(d.version).saturating_add(d.meta_len), 8);
    let lid_table = header_len.saturating_add(d.num_switches.saturating_mul(DIR_ENTRY_LEN));
    let strings = lid_table.saturating_add(d.num_lids.saturating_mul(8));
    let tables = align(strings.saturating_add(d.strings_len), LFT_BLOCK);
    let expect = [
        (
            "header_len",
            d.header_len,
            header_len,
            "the fixed header and the meta, rounded up to 8",
        ),
        ("dir_offset", d.dir, header_len, "header_len"),
        (
            "lid_table_offset",
            d.lid_table,
            lid_table,
            "the directory's end",
        ),
        ("strings_offset", d.strings, strings, "the LID table's end"),
        (
            "tables_offset",
            d.tables,
            tables,
            "the string table's end, rounded up to 64",
        ),
    ];
    for (name, found, want, why) in expect {
        if found != want {
            return Err(ImageError(format!(
                "header field {name} is {found}, expected {want} ({why}): \
                 the header is inconsistent"
            )));
        }
    }
    Ok(())
}

/// Checks that the rows are 64-byte aligned, follow each other from
/// `tables_offset` in directory order and end at `end` (the file's end, or
/// the VL section's start), and that no GUID is listed twice.
pub(super) fn check_directory(
    switches: &[DirEntry],
    tables: usize,
    end: usize,
) -> Result<(), ImageError> {
    let mut at = tables;
    let mut seen: HashMap<u64, usize> = HashMap::with_capacity(switches.len());
    for (i, s) in switches.iter().enumerate() {
        let start = s.table.start;
        if start % LFT_BLOCK != 0 {
            return Err(ImageError(format!(
                "switch {i} ({}): table offset {start} is not a multiple of 64",
                s.guid
            )));
        }
        if start != at {
            return Err(ImageError(format!(
                "switch {i} ({}): table at offset {start}, expected {at} \
                 (tables follow each other from tables_offset in directory order)",
                s.guid
            )));
        }
        if let Some(first) = seen.insert(s.guid.0, i) {
            return Err(ImageError(format!(
                "switch {} is listed twice in the directory (entries {first} and {i})",
                s.guid
            )));
        }
        at = s.table.end;
    }
    if at != end {
        return Err(ImageError(format!(
            "the tables end at offset {at}, expected {end}"
        )));
    }
    Ok(())
}
