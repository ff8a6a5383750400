//! Writes the compile state (`formats/state.md`): JSON, zstd-compressed.

use std::io::Write;

use crate::model::state::State;

/// Writes `state` to `w`.
pub fn write_state(state: &State, w: &mut dyn Write) -> std::io::Result<()> {
    let json = serde_json::to_vec(state).map_err(std::io::Error::other)?;
    let packed = zstd::encode_all(&json[..], 3)?;
    w.write_all(&packed)
}

/// The bytes [`write_state`] writes for `state` with its `lfts_digest` set
/// to what `digest` returns, `digest` hashing on a second thread while the
/// rest of the state is turned into JSON.
///
/// Issue 17: the tables' digest is made of the rows' SHA-256, which the
/// route image writer computes in parallel while the JSON of the fabric is
/// written here; `digest` waits for them. The JSON is written with a
/// placeholder of the digest's length, then the placeholder is
/// overwritten: the bytes are those of a serial pass.
pub fn pack_state(
    mut state: State,
    digest: impl FnOnce() -> String + Send,
) -> std::io::Result<Vec<u8>> {
    state.lfts_digest = PLACEHOLDER.into();
    let (json, digest) = std::thread::scope(|sc| {
        let hashing = sc.spawn(digest);
        let json = serde_json::to_vec(&state);
        (
            json,
            hashing.join().expect("the tables digest does not panic"),
        )
    });
    let mut json = json.map_err(std::io::Error::other)?;
    match digest_at(&json) {
        Some(at) if digest.len() == PLACEHOLDER.len() => {
            json[at..at + digest.len()].copy_from_slice(digest.as_bytes());
        }
        // Not a SHA-256 in hex: no placeholder to fill, serialize again.
        _ => {
            state.lfts_digest = digest;
            json = serde_json::to_vec(&state).map_err(std::io::Error::other)?;
        }
    }
    zstd::encode_all(&json[..], 3)
}

/// Stands for the 64 hex digits of the digest while the JSON is written.
const PLACEHOLDER: &str = "0000000000000000000000000000000000000000000000000000000000000000";

/// Where the value of `lfts_digest` starts in the JSON. The key comes
/// before any string a user chose (engine, roots are written after it or
/// escaped: an unescaped `"` cannot occur inside a JSON string), so its
/// first occurrence is the key.
fn digest_at(json: &[u8]) -> Option<usize> {
    const KEY: &[u8] = b"\"lfts_digest\":\"";
    let at = json.windows(KEY.len()).position(|w| w == KEY)? + KEY.len();
    let value = json.get(at..at + PLACEHOLDER.len())?;
    (value == PLACEHOLDER.as_bytes()).then_some(at)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::lids::assign_missing_lids;
    use crate::model::state::lfts_digest;
    use crate::model::{Fabric, FabricBuilder, Guid, Lfts, LidMap, NodeKind, NodeSpec};

    fn unpack(bytes: &[u8]) -> Vec<u8> {
        zstd::decode_all(bytes).unwrap()
    }

    /// A small fabric with tables that are not all holes.
    fn fabric_and_tables() -> (Fabric, LidMap, Lfts) {
        // Three switches in a line, a host on each.
        let mut b = FabricBuilder::new();
        let mut prev = None;
        for i in 0..3u64 {
            let spec = NodeSpec::new(NodeKind::Switch, Guid(0x30 - i), 4, format!("s{i}"));
            let s = b.add_node(spec).unwrap();
            let h = NodeSpec::new(NodeKind::Ca, Guid(0x100 + i), 1, format!("h{i}"));
            let h = b.add_node(h).unwrap();
            b.port_mut(h, 1).unwrap().guid = Guid(0x200 + i);
            b.connect(h, 1, s, 1).unwrap();
            if let Some(p) = prev {
                b.connect(p, 3, s, 2).unwrap();
            }
            prev = Some(s);
        }
        let mut f = b.build();
        assign_missing_lids(&mut f).unwrap();
        let lids = LidMap::new(&f).unwrap();
        let mut t = Lfts::new(f.num_switches(), lids.max_lid());
        for s in 0..f.num_switches() {
            for lid in 1..=lids.max_lid() {
                t.set(s, lid, (s as u8 + lid as u8) % 6);
            }
        }
        (f, lids, t)
    }

    #[test]
    fn packing_while_hashing_gives_the_serial_bytes() {
        let (f, _, t) = fabric_and_tables();
        let mut st = State::of(&f, &t);
        st.engine = "dmodc \"lfts_digest\":\"".into();
        let mut serial = Vec::new();
        write_state(&st, &mut serial).unwrap();
        let digest = st.lfts_digest.clone();
        assert_eq!(digest, lfts_digest(&f, &t));
        st.lfts_digest = "stale".into();
        let packed = pack_state(st.clone(), || digest.clone()).unwrap();
        assert_eq!(unpack(&packed), unpack(&serial));
        assert_eq!(packed, serial);
        let json = String::from_utf8(unpack(&packed)).unwrap();
        assert!(json.contains(&format!("\"lfts_digest\":\"{digest}\"")));
    }

    #[test]
    fn a_digest_of_another_length_is_written_as_given() {
        let (f, _, t) = fabric_and_tables();
        let st = State::of(&f, &t);
        let packed = pack_state(st, || "abc".into()).unwrap();
        let back: State = serde_json::from_slice(&unpack(&packed)).unwrap();
        assert_eq!(back.lfts_digest, "abc");
    }
}
