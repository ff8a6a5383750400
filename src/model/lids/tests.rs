use super::*;
use crate::model::{FabricBuilder, Guid, NodeSpec};

/// One switch with `hosts` single-port CAs, spread over 254-port switches.
fn star(hosts: u32) -> Fabric {
    let mut b = FabricBuilder::new();
    let switches = hosts.div_ceil(254);
    let sw: Vec<NodeIdx> = (0..switches)
        .map(|i| {
            b.add_node(NodeSpec::new(
                NodeKind::Switch,
                Guid(0x1_0000_0000 + i as u64),
                254,
                "s",
            ))
            .unwrap()
        })
        .collect();
    for h in 0..hosts {
        let ca = b
            .add_node(NodeSpec::new(
                NodeKind::Ca,
                Guid(0x2_0000_0000 + h as u64),
                1,
                "h",
            ))
            .unwrap();
        b.connect(ca, 1, sw[(h / 254) as usize], (h % 254 + 1) as u8)
            .unwrap();
    }
    b.build()
}

#[test]
fn assignment_is_switches_first_then_cas_by_guid() {
    let mut f = star(3);
    f.set_lid(NodeIdx(2), 1, 2, 0); // the second CA keeps LID 2
    assert_eq!(lid_state(&f), LidState::Partial { missing: 3 });
    assert_eq!(assign_missing_lids(&mut f).unwrap(), 3);
    let lids: Vec<Lid> = lid_ports(&f).map(|(n, p)| f.port(n, p).lid).collect();
    assert_eq!(lids, vec![1, 3, 2, 4]);
    assert_eq!(LidMap::new(&f).unwrap().max_lid(), 4);
}

#[test]
fn lmc_assignment_aligns_every_end_port() {
    let mut f = star(3);
    let lids = assign_with_lmc(&f, 2).unwrap();
    let got: Vec<(Lid, u8)> = lids.iter().map(|p| (p.lid, p.lmc)).collect();
    // the switch takes LID 1; each CA an aligned block of 4
    assert_eq!(got, vec![(1, 0), (4, 2), (8, 2), (12, 2)]);
    apply_port_lids(&mut f, &lids);
    let map = LidMap::new(&f).unwrap();
    assert_eq!(map.max_lid(), 15);
    assert_eq!(
        map.owner(6).map(|o| (o.node, o.offset)),
        Some((NodeIdx(1), 2))
    );
    assert!(map.owner(2).is_none());
}

#[test]
fn running_out_of_unicast_lids_is_an_error() {
    let mut f = star(MAX_UNICAST_LID as u32);
    let e = assign_missing_lids(&mut f).unwrap_err();
    assert!(
        e.to_string().contains("only 49151 unicast LIDs are free"),
        "{e}"
    );
}
