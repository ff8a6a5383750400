//! Reads back what a compile run recorded in its `report.json`
//! (`formats/report-json.md`): only the fields later commands rely on, so
//! that a newer report with more fields still reads.

use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::error::{Error, Result};

/// One input file a run read, as recorded.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
pub struct RecordedInput {
    /// `topology`, `faults`, `roots`, `node-order`, `mcast`, ...
    pub role: String,
    pub path: PathBuf,
    /// SHA-256 of the file when it was read, lower-case hex.
    pub sha256: String,
}

#[derive(Deserialize)]
struct Recorded {
    inputs: Vec<RecordedInput>,
}

/// The inputs recorded in the report at `path`.
pub fn recorded_inputs(path: &Path) -> Result<Vec<RecordedInput>> {
    let text = crate::io::read_text(path)?;
    let r: Recorded = serde_json::from_str(&text)
        .map_err(|e| Error::Input(format!("{}: not a routec report: {e}", path.display())))?;
    Ok(r.inputs)
}
