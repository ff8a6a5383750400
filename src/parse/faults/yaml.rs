//! The YAML form of a fault list (`formats/faults.md`), each fault
//! located where it was written.

// Parse errors carry their source text for miette (see the module above).
#![allow(clippy::result_large_err)]

use serde::Deserialize;
use serde::de::{self, SeqAccess, Visitor};
use serde_saphyr::{Location, Spanned};

use super::{LocatedFault, port_ref};
use crate::error::ParseError;
use crate::model::Fault;
use crate::parse::yaml::{GuidValue, byte_span, from_yaml, located};

/// The YAML twin: `faults: [{link: 0x2/3}, {switch: 0x200005}, …]`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FaultsDoc {
    #[serde(default)]
    faults: Vec<Spanned<FaultDoc>>,
}

#[derive(Deserialize)]
#[serde(rename_all = "lowercase")]
enum FaultDoc {
    Link(Ends),
    Port(Spanned<String>),
    Switch(Spanned<GuidValue>),
    Node(Spanned<GuidValue>),
}

/// `link:` takes one port reference (`0x2/3`, or both ends in one string,
/// `0x2/3 0x5/1`) or a list of one or two. Items of a list keep their
/// location; a single string is located by its fault.
struct Ends(Vec<(String, Option<Location>)>);

impl<'de> Deserialize<'de> for Ends {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Ends;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("GUID/PORT or a list of one or two of them")
            }
            fn visit_str<E>(self, v: &str) -> Result<Ends, E> {
                Ok(Ends(
                    v.split_whitespace()
                        .map(|w| (w.to_string(), None))
                        .collect(),
                ))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut s: A) -> Result<Ends, A::Error> {
                let mut v = Vec::new();
                while let Some(e) = s.next_element::<Spanned<String>>()? {
                    v.push((e.value, Some(e.referenced)));
                }
                Ok(Ends(v))
            }
        }
        d.deserialize_any(V)
    }
}

/// Parses the YAML form.
pub fn parse_yaml(name: &str, text: &str) -> Result<Vec<LocatedFault>, ParseError> {
    let doc: FaultsDoc = from_yaml(name, text, "a fault list (formats/faults.md)")?;
    let mut out = Vec::with_capacity(doc.faults.len());
    for item in &doc.faults {
        let here = |loc: Location, w: &str| located(name, text, loc, "GUID/PORT", format!("`{w}`"));
        let fault = match &item.value {
            FaultDoc::Link(Ends(ends)) => {
                if !(1..=2).contains(&ends.len()) {
                    return Err(located(
                        name,
                        text,
                        item.referenced,
                        "one or two GUID/PORT ends",
                        format!("{} ends", ends.len()),
                    ));
                }
                let mut refs = Vec::new();
                for (e, loc) in ends {
                    refs.push(
                        port_ref(e.trim())
                            .ok_or_else(|| here(loc.unwrap_or(item.referenced), e))?,
                    );
                }
                Fault::Link {
                    end: refs[0],
                    other: refs.get(1).copied(),
                }
            }
            FaultDoc::Port(p) => {
                Fault::Port(port_ref(p.value.trim()).ok_or_else(|| here(p.referenced, &p.value))?)
            }
            FaultDoc::Switch(g) => Fault::Switch(GuidValue::get(g, name, text)?),
            FaultDoc::Node(g) => Fault::Node(GuidValue::get(g, name, text)?),
        };
        let (offset, len) = byte_span(text, item.referenced);
        out.push(LocatedFault { fault, offset, len });
    }
    Ok(out)
}
