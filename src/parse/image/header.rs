//! The fixed header of a route image (`formats/route-image.md`): its
//! version, the sizes and offsets it declares and its meta string, read
//! before any offset is followed.

use super::{Cursor, ImageError, bad, is_image};
use crate::model::image::{VERSION, VERSION_VL, field, fixed_header_len};
use crate::parse::image_layout::Declared;

/// The magic and the version, read first: every other field's place
/// depends on the version, and on anything else they mean nothing.
pub(super) fn read_version(c: &Cursor) -> Result<u32, ImageError> {
    if !is_image(c.0) {
        return Err(bad("not a routec route image (bad magic)"));
    }
    let version = c.u32(field::VERSION)?;
    if version != VERSION && version != VERSION_VL {
        return Err(bad(format!(
            "version {version} is not supported (this build reads {VERSION} and {VERSION_VL})"
        )));
    }
    Ok(version)
}

/// The sizes and offsets the header declares, and its meta string, read
/// before any is followed so `image_layout::check_header` can refuse an
/// inconsistent header as a whole.
pub(super) fn read_declared(c: &Cursor, version: u32) -> Result<(Declared, String), ImageError> {
    let num_switches = c.u32(field::NUM_SWITCHES)? as usize;
    let num_lids = c.u32(field::NUM_LIDS)? as usize;
    let (dir, lid_table, strings, strings_len) = (
        c.u64(field::DIR)?,
        c.u64(field::LID_TABLE)?,
        c.u64(field::STRINGS)?,
        c.u64(field::STRINGS_LEN)?,
    );
    check_file_len(c)?;
    let meta_len = c.u32(field::META_LEN)? as usize;
    let meta = String::from_utf8_lossy(c.bytes(fixed_header_len(version), meta_len)?).into_owned();
    let tables = c.u64(field::TABLES)?;
    let declared = Declared {
        version,
        header_len: c.u32(field::HEADER_LEN)? as usize,
        meta_len,
        num_switches,
        num_lids,
        dir,
        lid_table,
        strings,
        strings_len,
        tables,
    };
    Ok((declared, meta))
}

/// A truncated or padded file is told as such, rather than as whichever
/// offset first lands past its end.
fn check_file_len(c: &Cursor) -> Result<(), ImageError> {
    let file_len = c.u64(field::FILE_LEN)?;
    if file_len != c.0.len() {
        return Err(bad(format!(
            "header says {file_len} bytes, file has {}",
            c.0.len()
        )));
    }
    Ok(())
}
