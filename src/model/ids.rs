//! Identifier newtypes. GUIDs print as OpenSM does (`0x%016x`).

use std::collections::HashMap;
use std::fmt;
use std::hash::{BuildHasherDefault, Hasher};

use serde::{Deserialize, Serialize};

/// A 64-bit node or port GUID. In JSON a `"0x%016x"` string: a JSON number
/// above 2^53 loses digits in most readers (jq 1.6 turns 17605155896470448752
/// into 17605155896470448000). Read back from that string or, from files
/// routec wrote before, from an integer.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Guid(pub u64);

impl Serialize for Guid {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Guid {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Form {
            Int(u64),
            Text(String),
        }
        match Form::deserialize(d)? {
            Form::Int(v) => Ok(Guid(v)),
            Form::Text(t) => Guid::parse(&t).ok_or_else(|| {
                serde::de::Error::custom(format!(
                    "`{t}` is not a GUID (0x and up to 16 hex digits)"
                ))
            }),
        }
    }
}

impl Guid {
    /// Parses a GUID as the tools print it: optional `0x`/`0X`, 1 to 16 hex
    /// digits, any case (ibnetdiscover drops the padding, dumps keep it).
    pub fn parse(s: &str) -> Option<Guid> {
        let hex = s
            .strip_prefix("0x")
            .or_else(|| s.strip_prefix("0X"))
            .unwrap_or(s);
        if hex.is_empty() || hex.len() > 16 || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
            return None;
        }
        u64::from_str_radix(hex, 16).ok().map(Guid)
    }

    /// OpenSM keys its switch and port tables by the network-byte-order GUID,
    /// so on x86 it iterates them in the order of this key (algorithms.md §2.0).
    pub fn opensm_key(self) -> u64 {
        self.0.swap_bytes()
    }
}

impl fmt::Display for Guid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "0x{:016x}", self.0)
    }
}

impl fmt::Debug for Guid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Guid(0x{:016x})", self.0)
    }
}

/// A local identifier. 0 means unassigned; 0xFFFF is the permissive LID,
/// also printed for unassigned CA ports.
pub type Lid = u16;

/// A port number (0 is a switch's management port).
pub type PortNum = u8;

/// Index of a node (switch, CA or router) in a [`crate::model::Fabric`].
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug, Default)]
pub struct NodeIdx(pub u32);

/// Dense index of a switch: switches are numbered 0..n in fabric order.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug, Default)]
pub struct SwIdx(pub u32);

impl NodeIdx {
    /// As a `usize` for indexing.
    pub fn ix(self) -> usize {
        self.0 as usize
    }
}

impl SwIdx {
    /// As a `usize` for indexing.
    pub fn ix(self) -> usize {
        self.0 as usize
    }
}

#[cfg(test)]
mod tests {

    #[test]
    fn json_guids_are_hex_strings_and_integers_still_read() {
        let g = Guid(17_605_155_896_470_448_752);
        assert_eq!(serde_json::to_string(&g).unwrap(), "\"0xf4521403007eaa70\"");
        assert_eq!(
            serde_json::from_str::<Guid>("\"0xf4521403007eaa70\"").unwrap(),
            g
        );
        assert_eq!(
            serde_json::from_str::<Guid>("17605155896470448752").unwrap(),
            g
        );
        assert!(serde_json::from_str::<Guid>("\"0xzz\"").is_err());
    }

    use super::*;

    #[test]
    fn guid_spellings() {
        assert_eq!(Guid::parse("0x8f10400410015"), Some(Guid(0x8f10400410015)));
        assert_eq!(Guid::parse("0008f10400410015"), Some(Guid(0x8f10400410015)));
        assert_eq!(Guid::parse("0XABC"), Some(Guid(0xabc)));
        assert_eq!(Guid::parse(""), None);
        assert_eq!(Guid::parse("0x"), None);
        assert_eq!(Guid::parse("12345678901234567"), None);
        assert_eq!(Guid::parse("9c05<redacted>"), None);
        assert_eq!(Guid(0x200000).to_string(), "0x0000000000200000");
    }

    #[test]
    fn opensm_key_is_byte_swapped() {
        assert_eq!(Guid(0x0102).opensm_key(), 0x0201_0000_0000_0000);
    }
}

/// Multiply-rotate hashing (the FxHash scheme) for maps keyed by GUIDs and
/// node names: keys come from the topology being read and the maps live
/// for one run, so SipHash's flooding resistance buys nothing and costs a
/// tenth of the parse.
#[derive(Default, Clone, Copy)]
pub struct FxHasher(u64);

impl Hasher for FxHasher {
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut b = [0u8; 8];
            b[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(b));
        }
    }
    fn write_u64(&mut self, v: u64) {
        self.0 = (self.0.rotate_left(5) ^ v).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
    fn write_u8(&mut self, v: u8) {
        self.write_u64(v as u64);
    }
    fn write_usize(&mut self, v: usize) {
        self.write_u64(v as u64);
    }
    fn finish(&self) -> u64 {
        self.0
    }
}

/// A map keyed by GUID, hashed with [`FxHasher`].
pub type GuidMap<V> = HashMap<Guid, V, BuildHasherDefault<FxHasher>>;
