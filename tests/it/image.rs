//! Route image and table readers: round trips (image, compressed image,
//! OpenSM dump, compressed dump), the worked example of
//! `formats/route-image.md`, and damaged input.

use std::path::Path;

use routec::emit::image::{self, ImageSwitch};
use routec::io::Bytes;
use routec::model::{Fabric, FabricBuilder, Guid, Lfts, LidMap, NodeKind, NodeSpec};
use routec::model::{TableKind, TableSet};
use routec::parse::lfts::{parse_tables, read_tables};
use routec::parse::{LoadOptions, load_topology};
use routec::route::{RouteOptions, engine_by_name};

/// The ft2 fixture (12 switches, 32 hosts, LIDs from OpenSM) routed by minhop.
fn ft2() -> (Fabric, LidMap, Lfts) {
    let path = Path::new("fixtures/opensm/ft2/minhop/ibnetdiscover.txt");
    let fabric = load_topology(path, &LoadOptions::default()).unwrap().fabric;
    let lids = LidMap::new(&fabric).unwrap();
    let r = engine_by_name("minhop")
        .unwrap()
        .route(&fabric, &lids, &RouteOptions::default())
        .unwrap();
    (fabric, lids, r.lfts)
}

fn image_bytes(f: &Fabric, lids: &LidMap, lfts: &Lfts, zstd: bool) -> Vec<u8> {
    let sw = image::switches_of(f, lfts);
    let lg = routec::model::table_set::lid_port_guids(f, lids);
    let fp = routec::model::image::fabric_fingerprint(f);
    let mut out = Vec::new();
    let parts = image::ImageParts {
        meta: "engine=minhop",
        fingerprint: &fp,
        switches: &sw,
        lid_guids: &lg,
        vl: None,
    };
    if zstd {
        image::write_image_zstd(&mut out, &parts).unwrap();
    } else {
        image::write_image(&mut out, &parts).unwrap();
    }
    out
}

/// Every row, GUID, LID and LID→GUID entry of `t` equals the routed tables.
fn assert_same_tables(t: &TableSet, f: &Fabric, lids: &LidMap, lfts: &Lfts, exact_rows: bool) {
    assert_eq!(t.switches.len(), f.num_switches());
    for (i, &n) in f.switches().iter().enumerate() {
        let k = t.switch_by_guid(f.node(n).guid).expect("switch present");
        let s = &t.switches[k];
        assert_eq!(s.lid, f.switch_lid(n), "switch LID");
        assert_eq!(s.top, lfts.top());
        assert_eq!(s.desc.as_deref(), Some(f.node(n).desc.as_str()));
        assert_eq!(t.lft(k), lfts.row(i), "row of switch {}", f.node(n).guid);
        if exact_rows {
            assert_eq!(k, i, "images keep switch order");
        }
    }
    for (lid, o) in lids.iter() {
        assert_eq!(
            t.lid_guid(lid),
            Some(f.port(o.node, o.port).guid),
            "LID {lid}"
        );
    }
}

#[test]
fn image_round_trip_plain_and_compressed() {
    let (f, lids, lfts) = ft2();
    let dir = tempfile::tempdir().unwrap();
    for zstd in [false, true] {
        let bytes = image_bytes(&f, &lids, &lfts, zstd);
        assert_eq!(bytes.starts_with(&routec::io::ZSTD_MAGIC), zstd);
        let path = dir
            .path()
            .join(if zstd { "routes.lft.zst" } else { "routes.lft" });
        std::fs::write(&path, &bytes).unwrap();
        let t = read_tables(&path).unwrap();
        assert_eq!(t.kind, TableKind::Image);
        assert_same_tables(&t, &f, &lids, &lfts, true);
        let h = t.header.as_ref().unwrap();
        assert_eq!(h.meta, "engine=minhop");
        assert_eq!(
            h.fabric_fingerprint,
            routec::model::image::fabric_fingerprint(&f)
        );
        assert_eq!(t.to_lfts(), lfts);
    }
    // Both variants hold the same image; the compressed one is deterministic.
    let a = zstd::decode_all(&image_bytes(&f, &lids, &lfts, true)[..]).unwrap();
    assert_eq!(a, image_bytes(&f, &lids, &lfts, false));
    assert_eq!(
        image_bytes(&f, &lids, &lfts, true),
        image_bytes(&f, &lids, &lfts, true)
    );
}

#[test]
fn opensm_dump_round_trip_plain_and_compressed() {
    let (f, lids, lfts) = ft2();
    let mut dump = Vec::new();
    routec::emit::opensm::write_lfts_dump(&f, &lids, &lfts, &mut dump).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let plain = dir.path().join("opensm-lfts.dump");
    let packed = dir.path().join("opensm-lfts.dump.zst");
    std::fs::write(&plain, &dump).unwrap();
    std::fs::write(&packed, zstd::encode_all(&dump[..], 3).unwrap()).unwrap();
    for p in [&plain, &packed] {
        let t = read_tables(p).unwrap();
        assert_eq!(t.kind, TableKind::OpensmDump);
        assert_same_tables(&t, &f, &lids, &lfts, false);
    }
    // A directory resolves to its dump when it has no image.
    assert_eq!(read_tables(dir.path()).unwrap().kind, TableKind::OpensmDump);
}

#[test]
fn opensm_own_dump_reads_as_routec_tables() {
    // The fixture dump was written by OpenSM 3.3.23 itself.
    let (f, lids, lfts) = ft2();
    let t = read_tables(Path::new("fixtures/opensm/ft2/minhop/opensm-lfts.dump")).unwrap();
    assert_same_tables(&t, &f, &lids, &lfts, false);
}

/// The two-switch fabric of the worked example in formats/route-image.md.
fn example() -> Vec<u8> {
    let mut b = FabricBuilder::new();
    let s = b
        .add_node(NodeSpec::new(NodeKind::Switch, Guid(0x20), 4, "sw-a"))
        .unwrap();
    let h = b
        .add_node(NodeSpec::new(NodeKind::Ca, Guid(0x10), 1, "h1"))
        .unwrap();
    b.port_mut(h, 1).unwrap().guid = Guid(0x11);
    b.port_mut(h, 1).unwrap().lid = 1;
    b.port_mut(s, 0).unwrap().lid = 2;
    b.connect(h, 1, s, 3).unwrap();
    let f = b.build();
    let lids = LidMap::new(&f).unwrap();
    let mut lfts = Lfts::new(1, 2);
    lfts.set(0, 1, 3);
    lfts.set(0, 2, 0);
    let sw = [ImageSwitch {
        top: 2,
        ..image::switches_of(&f, &lfts)[0]
    }];
    let mut out = Vec::new();
    let lg = routec::model::table_set::lid_port_guids(&f, &lids);
    let parts = image::ImageParts {
        meta: "engine=minhop",
        fingerprint: &[0xAB; 32],
        switches: &sw,
        lid_guids: &lg,
        vl: None,
    };
    image::write_image(&mut out, &parts).unwrap();
    out
}

#[test]
fn worked_example_in_the_spec_is_what_the_writer_writes() {
    let spec = std::fs::read_to_string("formats/route-image.md").unwrap();
    let block = spec
        .split("```hex")
        .nth(1)
        .expect("a ```hex block")
        .split("```")
        .next()
        .unwrap();
    let mut bytes = Vec::new();
    for line in block.lines().filter(|l| !l.trim().is_empty()) {
        // `OFFSET: xx xx ... | comment`
        let data = line.split_once(':').unwrap().1.split('|').next().unwrap();
        bytes.extend(
            data.split_whitespace()
                .map(|x| u8::from_str_radix(x, 16).unwrap()),
        );
    }
    assert_eq!(
        bytes,
        example(),
        "formats/route-image.md hex example is stale"
    );
    let t = parse_tables("example", Bytes::Owned(bytes)).unwrap();
    assert_eq!(&t.lft(0)[..4], &[0xFF, 3, 0, 0xFF]);
    assert_eq!(t.lid_guid(1), Some(Guid(0x11)));
    assert_eq!(t.switches[0].num_ports, Some(4));
}

#[test]
fn damaged_images_are_errors_not_panics() {
    let good = example();
    for cut in [8, 64, 143, 200, good.len() - 1] {
        assert!(
            parse_tables("x", Bytes::Owned(good[..cut].to_vec())).is_err(),
            "cut {cut}"
        );
    }
    let mut bad_version = good.clone();
    bad_version[8] = 9;
    let e = parse_tables("x", Bytes::Owned(bad_version)).unwrap_err();
    assert!(e.to_string().contains("version 9"), "{e}");
    // A directory entry pointing past the end.
    let mut bad_offset = good.clone();
    let dir = u64::from_le_bytes(good[24..32].try_into().unwrap()) as usize;
    bad_offset[dir + 8..dir + 16].copy_from_slice(&u64::MAX.to_le_bytes());
    assert!(parse_tables("x", Bytes::Owned(bad_offset)).is_err());
    // Garbage text is a located parse error.
    let e = parse_tables("junk", Bytes::Owned(b"hello\n".to_vec())).unwrap_err();
    assert!(e.to_string().starts_with("junk:1:1"), "{e}");
}

#[test]
fn fingerprint_ignores_input_order_but_sees_cables() {
    let (f, ..) = ft2();
    let text = std::fs::read_to_string("fixtures/opensm/ft2/minhop/ibnetdiscover.txt").unwrap();
    // Same fabric in reverse node order.
    let blocks: Vec<&str> = text.split("\n\n").collect();
    let reversed = blocks
        .iter()
        .rev()
        .cloned()
        .collect::<Vec<_>>()
        .join("\n\n");
    let g = routec::parse::parse_topology("rev", &reversed, &LoadOptions::default())
        .unwrap()
        .fabric;
    assert_eq!(
        routec::model::image::fabric_fingerprint(&f),
        routec::model::image::fabric_fingerprint(&g)
    );
    let cut = text
        .lines()
        .filter(|l| {
            !l.starts_with("[5]\t\"S-0002c90102000000\"[8]")
                && !l.starts_with("[8]\t\"S-0002c90101000007\"[5]")
        })
        .collect::<Vec<_>>()
        .join("\n");
    let h = routec::parse::parse_topology("cut", &cut, &LoadOptions::default())
        .unwrap()
        .fabric;
    assert_eq!(h.links().count() + 1, f.links().count());
    assert_ne!(
        routec::model::image::fabric_fingerprint(&f),
        routec::model::image::fabric_fingerprint(&h)
    );
}

#[test]
fn ibroute_samples_all_range_and_no_dests() {
    // `ibroute -a`: illegal ports print as 255, i.e. no route.
    let t = read_tables(Path::new("fixtures/outputs/ibroute/ibroute_all_range.txt")).unwrap();
    assert_eq!(t.kind, TableKind::Ibroute);
    let s = &t.switches[0];
    assert_eq!((s.guid, s.lid, s.top), (Guid(0x200005), 19, 8));
    assert_eq!(&t.lft(0)[..9], &[255, 5, 5, 7, 7, 255, 255, 255, 255]);
    assert_eq!(t.lid_guid(4), Some(Guid(0x100005)));
    assert_eq!(t.lid_guid(5), None);
    // `ibroute -n`: bare entries, no GUIDs.
    let n = read_tables(Path::new("fixtures/outputs/ibroute/ibroute_no_dests.txt")).unwrap();
    assert_eq!((n.switches[0].lid, n.switches[0].top), (19, 0x73));
    assert_eq!(&n.lft(0)[1..3], &[5, 5]);
    assert!(n.lid_guids.iter().all(|g| g.0 == 0));
}

/// The body of the first ```LANG block of a spec.
fn spec_block(file: &str, lang: &str) -> String {
    let text = std::fs::read_to_string(file).unwrap();
    let start = format!("```{lang}\n");
    let body = text
        .split(&start)
        .nth(1)
        .unwrap_or_else(|| panic!("{file}: no {start}"));
    body.split("```").next().unwrap().to_string()
}

#[test]
fn lft_dumps_spec_example_reads_as_documented() {
    let t =
        routec::parse::lfts::parse_text("spec", &spec_block("formats/lft-dumps.md", "opensm-lfts"))
            .unwrap();
    let s = &t.switches[0];
    assert_eq!(
        (s.guid, s.lid, s.top, s.desc.as_deref()),
        (Guid(0x200000), 2, 3, Some("spine 1"))
    );
    assert_eq!(&t.lft(0)[..5], &[255, 1, 0, 255, 255]);
    assert_eq!(t.lft(0).len(), 64);
    assert_eq!(
        (t.lid_guid(1), t.lid_guid(2)),
        (Some(Guid(0x100001)), Some(Guid(0x200000)))
    );
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(32))]
    /// Any tables, LID tables and descriptions survive write → read.
    #[test]
    fn any_tables_round_trip(
        rows in proptest::collection::vec(proptest::collection::vec(0u8..=255, 1..200), 0..6),
        lid_guids in proptest::collection::vec(0u64..4, 0..300),
        desc in "[ -~]{0,20}",
    ) {
        let top = rows.iter().map(Vec::len).max().unwrap_or(1) as u16 - 1;
        let mut lfts = Lfts::new(rows.len(), top);
        for (s, r) in rows.iter().enumerate() {
            lfts.row_mut(s)[..r.len()].copy_from_slice(r);
        }
        let sw: Vec<ImageSwitch> = (0..rows.len())
            .map(|s| ImageSwitch { guid: Guid(s as u64 + 1), lid: s as u16, num_ports: 36, top, desc: &desc, lft: lfts.row(s) })
            .collect();
        let lg: Vec<Guid> = lid_guids.iter().map(|&g| Guid(g)).collect();
        let mut out = Vec::new();
        image::write_image(
&mut out,
&image::ImageParts { meta: &desc, fingerprint: &[1; 32], switches: &sw, lid_guids: &lg, vl: None },
).unwrap();
        let t = parse_tables("p", Bytes::Owned(out)).unwrap();
        proptest::prop_assert_eq!(t.to_lfts(), lfts.clone());
        proptest::prop_assert_eq!(&t.lid_guids, &lg);
        proptest::prop_assert!(t.switches.iter().all(|s| s.desc.as_deref() == Some(desc.as_str())));
        proptest::prop_assert_eq!(&t.header.unwrap().meta, &desc);
    }
}
