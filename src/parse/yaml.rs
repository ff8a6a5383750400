//! routec's YAML topology format (`formats/topology-yaml.md`).

use crate::error::{Error, Result};
use crate::model::Fabric;

/// Parses a YAML topology.
pub fn parse_topology(name: &str, text: &str) -> Result<Fabric> {
    let _ = text;
    Err(Error::Usage(format!("{name}: the YAML topology parser is not written yet")))
}
