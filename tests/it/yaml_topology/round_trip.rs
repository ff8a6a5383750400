//! The writer's round trip: the fixture, awkward descriptions and random
//! small fabrics written and read back to the same fabric, and no input
//! that makes the reader panic. The saved proptest seeds are
//! `tests/proptest-regressions/yaml_topology/round_trip.txt`.

use crate::fabric_eq;

use proptest::prelude::*;
use routec::model::{Fabric, FabricBuilder, Guid, NodeKind, NodeSpec, Speed, Width};
use routec::parse::yaml::parse_topology;

use super::fixture;

#[test]
fn writer_output_reads_back_to_the_same_fabric() {
    let (_, f) = fixture();
    let yaml = routec::emit::yaml::to_string(&f);
    let g = parse_topology("out.yaml", &yaml).unwrap();
    fabric_eq::assert_same_fabric(&f, &g);
    assert_eq!(
        routec::emit::yaml::to_string(&g),
        yaml,
        "writing is deterministic"
    );
    insta::assert_snapshot!("two_level_yaml", yaml);
}

/// Descriptions that need quoting, and names that YAML would misread.
#[test]
fn awkward_descriptions_survive_the_writer() {
    let descs = [
        "true",
        "0x12",
        "1e3",
        "a \"quoted\" # hash",
        "tab\there",
        "",
        "ünï",
        "- dash",
        "x/1",
        "null",
    ];
    let mut b = FabricBuilder::new();
    let s = b
        .add_node(NodeSpec::new(NodeKind::Switch, Guid(0x1), 16, "sw"))
        .unwrap();
    for (i, d) in descs.iter().enumerate() {
        let h = b
            .add_node(NodeSpec::new(
                NodeKind::Ca,
                Guid(0x100 + 0x10 * i as u64),
                1,
                *d,
            ))
            .unwrap();
        b.connect(s, i as u8 + 1, h, 1).unwrap();
        b.port_mut(h, 1).unwrap().guid = Guid(0x100 + 0x10 * i as u64 + 1);
    }
    let f = b.build();
    let yaml = routec::emit::yaml::to_string(&f);
    let g = parse_topology("w", &yaml).unwrap_or_else(|e| panic!("{e}\n{yaml}"));
    fabric_eq::assert_same_fabric(&f, &g);
}

/// A random LID `lid` in 0..40 made unique to node `i` (0 stays "none").
fn unique_lid(lid: u16, i: usize) -> u16 {
    if lid == 0 { 0 } else { lid + 40 * i as u16 }
}

/// A small random fabric: switches and CAs with random cables, LIDs,
/// rates and descriptions.
fn arb_fabric() -> impl Strategy<Value = Fabric> {
    let desc = "[a-z0-9 \"#:/]{0,8}";
    (
        proptest::collection::vec((1u8..6, desc, 0u16..40), 1..5),
        proptest::collection::vec((1u8..3, desc, 0u16..40), 0..5),
        proptest::collection::vec((any::<u16>(), any::<u16>(), 0usize..6), 0..12),
    )
        .prop_map(|(sws, cas, cables)| {
            let mut b = FabricBuilder::new();
            let mut nodes = Vec::new();
            for (i, (ports, d, lid)) in sws.iter().enumerate() {
                let n = b
                    .add_node(NodeSpec::new(
                        NodeKind::Switch,
                        Guid(0x2000 + i as u64),
                        *ports,
                        d.clone(),
                    ))
                    .unwrap();
                // LIDs unique (or 0): a LID given twice is a YAML input error
                b.port_mut(n, 0).unwrap().lid = unique_lid(*lid, i);
                nodes.push((n, *ports));
            }
            for (i, (ports, d, lid)) in cas.iter().enumerate() {
                let n = b
                    .add_node(NodeSpec::new(
                        NodeKind::Ca,
                        Guid(0x10000 + 0x100 * i as u64),
                        *ports,
                        d.clone(),
                    ))
                    .unwrap();
                b.port_mut(n, 1).unwrap().lid = unique_lid(*lid, 5 + i);
                nodes.push((n, *ports));
            }
            let rates = [
                (Width::X4, Speed::Edr),
                (Width::X1, Speed::Sdr),
                (Width::Unknown, Speed::Unknown),
                (Width::X4, Speed::Unknown),
                (Width::X12, Speed::Hdr),
                (Width::X2, Speed::Ndr),
            ];
            for (x, y, r) in cables {
                let (a, na) = nodes[x as usize % nodes.len()];
                let (z, nz) = nodes[y as usize % nodes.len()];
                let (pa, pz) = (1 + (x >> 8) as u8 % na, 1 + (y >> 8) as u8 % nz);
                if b.connect(a, pa, z, pz).is_ok() {
                    let (w, s) = rates[r];
                    b.port_mut(a, pa).unwrap().width = w;
                    b.port_mut(a, pa).unwrap().speed = s;
                    let (w2, s2) = rates[(r + x as usize) % rates.len()];
                    b.port_mut(z, pz).unwrap().width = w2;
                    b.port_mut(z, pz).unwrap().speed = s2;
                }
            }
            b.build()
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn any_fabric_round_trips(f in arb_fabric()) {
        // CA port GUIDs follow the default for cabled ports and are 0 on free
        // ones, as the parser fills them; anything else is written explicitly.
        let yaml = routec::emit::yaml::to_string(&f);
        let g = parse_topology("p", &yaml).map_err(|e| TestCaseError::fail(format!("{e}\n{yaml}")))?;
        let (va, vb) = (fabric_eq::view(&f), fabric_eq::view(&g));
        prop_assert_eq!(va.len(), vb.len());
        for (x, y) in va.iter().zip(&vb) {
            prop_assert_eq!(x, y);
        }
    }

    #[test]
    fn no_input_panics(text in "(switches|cas|links|guid|ports|lid|[-\\[\\]{}:,/ \n0-9a-z]){0,60}") {
        let _ = parse_topology("fuzz", &text);
    }
}
