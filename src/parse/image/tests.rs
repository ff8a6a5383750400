//! Tests of the route image reader: images written by `emit::image`,
//! read back (with and without a VL section) and their digests checked.

use super::*;
use crate::emit::image::{ImageParts, ImageSwitch, write_image};

fn tiny() -> (Vec<u8>, Vec<u8>) {
    let mut a = vec![0xFFu8; 64];
    a[1] = 1;
    a[2] = 0;
    let mut b = vec![0xFFu8; 64];
    b[1] = 2;
    b[2] = 1;
    (a, b)
}

/// The image of two switches with rows `a` and `b`, the second
/// described `desc2`, and four LIDs.
fn tiny_image(
    (a, b): (&[u8], &[u8]),
    desc2: &str,
    vl: Option<&crate::emit::image_vl::ImageVl>,
) -> Vec<u8> {
    let switch = |guid, lid, desc, lft| ImageSwitch {
        guid: Guid(guid),
        lid,
        num_ports: 4,
        top: 3,
        desc,
        lft,
    };
    let sw = [switch(0x20, 2, "s1", a), switch(0x21, 3, desc2, b)];
    let lg = [Guid(0), Guid(0x11), Guid(0x20), Guid(0x21)];
    let mut out = Vec::new();
    let parts = ImageParts {
        meta: "engine=minhop",
        fingerprint: &[7; 32],
        switches: &sw,
        lid_guids: &lg,
        vl,
    };
    write_image(&mut out, &parts).unwrap();
    out
}

#[test]
fn write_then_index_round_trips() {
    let (a, b) = tiny();
    let out = tiny_image((&a, &b), "s2 x", None);
    assert_eq!(out.len() % 64, 0);
    let idx = read_index(&out).unwrap();
    verify_digest(&out, &idx).unwrap();
    assert_eq!(idx.header.meta, "engine=minhop");
    assert_eq!(idx.lid_guids, [Guid(0), Guid(0x11), Guid(0x20), Guid(0x21)]);
    assert_eq!(idx.switches[1].desc, "s2 x");
    assert_eq!(&out[idx.switches[0].table.clone()], &a[..]);
    assert_eq!(&out[idx.switches[1].table.clone()], &b[..]);
    assert_eq!(idx.switches[1].table.start % 64, 0);
    let mut damaged = out.clone();
    let last = damaged.len() - 1;
    damaged[last] ^= 1;
    assert!(verify_digest(&damaged, &idx).is_err());
    for cut in [0, 10, 100, out.len() - 1] {
        assert!(read_index(&out[..cut]).is_err(), "cut at {cut}");
    }
}

#[test]
fn a_vl_section_round_trips_and_is_digested() {
    let (a, b) = tiny();
    let (sl_a, sl_b) = (vec![0u8; 64], vec![1u8; 64]);
    let table: Vec<u8> = (0..5 * 5 * 16).map(|i| (i % 3) as u8).collect();
    let vl = crate::emit::image_vl::ImageVl {
        vls: 3,
        end_port: Some([2; 16]),
        default: Some([1; 16]),
        sl2vl: vec![None, Some((5, &table))],
        path_sl: vec![&sl_a, &sl_b],
        written: None,
    };
    let out = tiny_image((&a, &b), "s2", Some(&vl));
    let idx = read_index(&out).unwrap();
    verify_digest(&out, &idx).unwrap();
    assert_eq!(idx.header.version, VERSION_VL);
    assert_eq!(idx.header.meta, "engine=minhop");
    let v = idx.vl.as_ref().unwrap();
    assert_eq!(
        (v.vls, v.end_port, v.default),
        (3, Some([2; 16]), Some([1; 16]))
    );
    assert_eq!(v.sl2vl[0], None);
    let (dim, r) = v.sl2vl[1].clone().unwrap();
    assert_eq!((dim, &out[r]), (5, &table[..]));
    assert_eq!(&out[v.path_sl[1].clone()], &sl_b[..]);
    assert_eq!(v.path_sl[0].start % 64, 0);
    // the LFT rows read as in version 1
    assert_eq!(&out[idx.switches[1].table.clone()], &b[..]);
    let mut damaged = out.clone();
    damaged[v.path_sl[1].start] ^= 1;
    assert!(verify_digest(&damaged, &read_index(&damaged).unwrap()).is_err());
}
