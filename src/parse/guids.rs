//! OpenSM-style GUID files: one GUID per line, `#` comments (formats.md §4).

use std::path::Path;

use crate::error::{Error, Result};
use crate::model::Guid;

/// Reads the GUIDs of a GUID file, in file order.
pub fn load_guid_file(path: &Path) -> Result<Vec<Guid>> {
    Err(Error::Usage(format!("{}: GUID files are not read yet", path.display())))
}
