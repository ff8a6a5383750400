//! The ibnetdiscover writer: every fixture round-trips, the layout
//! snapshot, back-to-back CAs.

use routec::model::{Fabric, Guid, NodeKind};
use routec::parse::TopoFormat;

use super::{good_fixtures, load, parse_str};

/// Node by node (matched by GUID, since the writer groups switches before
/// CAs), port by port, peers by GUID. ibsim's source ids are not written.
pub(super) fn assert_same_fabric(a: &Fabric, b: &Fabric, what: &str) {
    assert_eq!(a.num_nodes(), b.num_nodes(), "{what}");
    for n in a.node_indices() {
        let na = a.node(n);
        let m = b
            .node_by_guid(na.guid)
            .unwrap_or_else(|| panic!("{what}: {} missing", na.guid));
        let nb = b.node(m);
        let key = |x: &routec::model::Node| {
            (
                x.kind,
                x.num_ports,
                x.desc.clone(),
                x.sysimg_guid,
                x.vendor_id,
                x.device_id,
                x.enhanced_port0,
            )
        };
        assert_eq!(key(na), key(nb), "{what}: node {}", na.guid);
        for (p, (pa, pb)) in a.ports(n).iter().zip(b.ports(m)).enumerate() {
            let peer_a = pa.peer.map(|q| (a.node(q.node).guid, q.port));
            let peer_b = pb.peer.map(|q| (b.node(q.node).guid, q.port));
            assert_eq!(peer_a, peer_b, "{what}: {} port {p}", na.guid);
            // ibnetdiscover prints only cabled ports: an idle CA port's GUID
            // and LID cannot survive the writer.
            let attrs = |x: &routec::model::Port| (x.guid, x.lid, x.lmc, x.width, x.speed);
            if pa.peer.is_some() || (p == 0 && na.kind == NodeKind::Switch) {
                assert_eq!(attrs(pa), attrs(pb), "{what}: {} port {p}", na.guid);
            }
        }
    }
}

pub(super) fn write(f: &Fabric) -> String {
    let mut out = Vec::new();
    routec::emit::ibnetdiscover::write(f, &mut out).unwrap();
    String::from_utf8(out).unwrap()
}

#[test]
fn writer_round_trips_every_fixture() {
    for rel in good_fixtures() {
        let f = load(&rel).fabric;
        let text = write(&f);
        let back = parse_str(&text, None, false).unwrap_or_else(|e| panic!("{rel}: {e:?}"));
        assert_eq!(back.format, TopoFormat::Ibnetdiscover, "{rel}");
        assert!(back.warnings.is_empty(), "{rel}: {:?}", back.warnings);
        assert_same_fabric(&f, &back.fabric, &rel);
        assert_eq!(write(&back.fabric), text, "{rel}: second write differs");
    }
}

#[test]
fn writer_layout_snapshot() {
    let f = load("ibnetdiscover/tiny.ibnetdiscover").fabric;
    insta::assert_snapshot!("tiny_written", write(&f));
}

#[test]
fn back_to_back_cas_carry_both_port_guids() {
    // Two CAs cabled directly: each line has the local and the peer port GUID.
    let text = "caguid=0x100\nCa\t1 \"H-0000000000000100\"\t\t# \"a\"\n\
                [1](101) \t\"H-0000000000000200\"[1] (201) \t\t# lid 1 lmc 0 \"b\" lid 2 4xEDR\n\n\
                caguid=0x200\nCa\t1 \"H-0000000000000200\"\t\t# \"b\"\n\
                [1](201) \t\"H-0000000000000100\"[1] (101) \t\t# lid 2 lmc 0 \"a\" lid 1 4xEDR\n";
    let f = parse_str(text, None, false).unwrap().fabric;
    let a = f.node_by_guid(Guid(0x100)).unwrap();
    assert_eq!((f.port(a, 1).guid, f.port(a, 1).lid), (Guid(0x101), 1));
    let written = write(&f);
    assert!(
        written.contains(
            "[1](101) \t\"H-0000000000000200\"[1] (201) \t\t# lid 1 lmc 0 \"b\" lid 2 4xEDR"
        ),
        "{written}"
    );
    assert_same_fabric(
        &f,
        &parse_str(&written, None, false).unwrap().fabric,
        "ca-ca",
    );
}
