//! Writes the compile state (`formats/state.md`): JSON, zstd-compressed.

use std::io::Write;

use crate::model::state::State;

/// Writes `state` to `w`.
pub fn write_state(state: &State, w: &mut dyn Write) -> std::io::Result<()> {
    let json = serde_json::to_vec(state).map_err(std::io::Error::other)?;
    let packed = zstd::encode_all(&json[..], 3)?;
    w.write_all(&packed)
}
