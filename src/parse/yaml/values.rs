//! The YAML values routec reads its own way: GUIDs kept with what was
//! found when they are not GUIDs, and port-keyed maps that keep every key's
//! location (see the module above for why).

use std::fmt;

use serde::Deserialize;
use serde::de::{self, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_saphyr::Spanned;

use super::located;
use crate::error::ParseError;
use crate::model::{Guid, PortNum};

/// A GUID as written: a YAML integer (`0x200000`), or a string of hex
/// digits with or without `0x` (as ibnetdiscover prints them). Anything else
/// is kept as a description of what was found, so that the error points at
/// the value rather than at wherever serde gave up.
#[derive(Clone, Debug)]
pub(crate) enum GuidValue {
    Ok(Guid),
    Bad(String),
}

impl GuidValue {
    /// The GUID, or a located error.
    pub(crate) fn get(v: &Spanned<GuidValue>, file: &str, text: &str) -> Result<Guid, ParseError> {
        match &v.value {
            GuidValue::Ok(g) => Ok(*g),
            GuidValue::Bad(found) => Err(located(
                file,
                text,
                v.referenced,
                "a GUID (0x followed by up to 16 hex digits)",
                found.clone(),
            )),
        }
    }
}

impl<'de> Deserialize<'de> for GuidValue {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(GuidVisitor)
    }
}

struct GuidVisitor;

impl<'de> Visitor<'de> for GuidVisitor {
    type Value = GuidValue;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a GUID")
    }
    fn visit_u64<E>(self, v: u64) -> Result<GuidValue, E> {
        Ok(GuidValue::Ok(Guid(v)))
    }
    fn visit_i64<E>(self, v: i64) -> Result<GuidValue, E> {
        Ok(GuidValue::Bad(format!("negative number {v}")))
    }
    fn visit_f64<E>(self, v: f64) -> Result<GuidValue, E> {
        Ok(GuidValue::Bad(format!(
            "the number {v} (YAML reads `017` and `1e3` as floats; write GUIDs with 0x)"
        )))
    }
    fn visit_bool<E>(self, v: bool) -> Result<GuidValue, E> {
        Ok(GuidValue::Bad(format!("boolean {v}")))
    }
    fn visit_unit<E>(self) -> Result<GuidValue, E> {
        Ok(GuidValue::Bad("nothing".into()))
    }
    fn visit_str<E>(self, v: &str) -> Result<GuidValue, E> {
        Ok(match Guid::parse(v.trim()) {
            Some(g) => GuidValue::Ok(g),
            None => GuidValue::Bad(format!("`{v}`")),
        })
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut s: A) -> Result<GuidValue, A::Error> {
        while s.next_element::<IgnoredAny>()?.is_some() {}
        Ok(GuidValue::Bad("a sequence".into()))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<GuidValue, A::Error> {
        while m.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Ok(GuidValue::Bad("a mapping".into()))
    }
}

/// `{port: value}` with the location of every key (a `BTreeMap` key cannot
/// carry one), in file order.
pub(super) struct PortMap<T>(pub(super) Vec<(Spanned<PortNum>, Spanned<T>)>);

impl<T> Default for PortMap<T> {
    fn default() -> Self {
        PortMap(Vec::new())
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for PortMap<T> {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<T>(std::marker::PhantomData<T>);
        impl<'de, T: Deserialize<'de>> Visitor<'de> for V<T> {
            type Value = PortMap<T>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a mapping from port numbers to values")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<PortMap<T>, A::Error> {
                let mut v = Vec::new();
                while let Some(k) = m.next_key()? {
                    v.push((k, m.next_value()?));
                }
                Ok(PortMap(v))
            }
        }
        d.deserialize_map(V(std::marker::PhantomData))
    }
}
