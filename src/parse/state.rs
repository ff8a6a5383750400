//! Reads the compile state of an output directory (`formats/state.md`).
//! Nothing in it is trusted: any reason not to use it comes back as text
//! for the note that says the state was ignored.

use std::path::Path;

use crate::model::OutFile;
use crate::model::state::{STATE_FORMAT, STATE_VERSION, State};

/// The state in `dir`, or why there is none to use (missing, unreadable,
/// corrupt, another format or version).
pub fn read_state(dir: &Path) -> Result<State, String> {
    let path = dir.join(OutFile::State.name());
    if !path.is_file() {
        return Err(format!("{} is missing", path.display()));
    }
    let bytes = crate::io::read_input(&path).map_err(|e| format!("{e}"))?;
    parse_state(&bytes).map_err(|e| format!("{}: {e}", path.display()))
}

/// Parses and checks a state's bytes (JSON, after decompression).
pub fn parse_state(bytes: &[u8]) -> Result<State, String> {
    #[derive(serde::Deserialize)]
    struct Head {
        format: String,
        version: u32,
    }
    let head: Head = serde_json::from_slice(bytes).map_err(|e| format!("corrupt ({e})"))?;
    if head.format != STATE_FORMAT {
        return Err(format!(
            "format `{}`, not `{STATE_FORMAT}`",
            head.format.chars().take(40).collect::<String>()
        ));
    }
    if head.version != STATE_VERSION {
        return Err(format!(
            "state version {}, this routec reads version {STATE_VERSION}",
            head.version
        ));
    }
    serde_json::from_slice(bytes).map_err(|e| format!("corrupt ({e})"))
}
