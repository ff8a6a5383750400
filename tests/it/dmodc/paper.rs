//! The paper's worked examples: Fig. 3's dividers, Fig. 4's route
//! choice, and the example of `formats/dmodc.md`.

use super::*;

/// Fig. 3's network: leaves La (3 upswitches: B1, B3, Bx) and Lb (2: B2, By)
/// give B1 = 3, B2 = 2, B3 = 3; B1 → U1, U2; B2 → U2, U3; B3 → U1..U3.
fn fig3(with_b3: bool) -> Fabric {
    let mut h = Hand::new();
    for g in [0x1, 0x2] {
        h.sw(g, 8);
    }
    for g in [0x11, 0x12, 0x13, 0x14, 0x15, 0x21, 0x22, 0x23] {
        h.sw(g, 8);
    }
    h.host(0x100, 0x1, 8).host(0x200, 0x2, 8);
    // La = 0x1: B1 = 0x11, B3 = 0x13, Bx = 0x14; Lb = 0x2: B2 = 0x12, By = 0x15.
    h.cable(0x1, 1, 0x11, 1)
        .cable(0x1, 2, 0x14, 1)
        .cable(0x2, 1, 0x12, 1)
        .cable(0x2, 2, 0x15, 1);
    h.cable(0x11, 2, 0x21, 1).cable(0x11, 3, 0x22, 1);
    h.cable(0x12, 2, 0x22, 2).cable(0x12, 3, 0x23, 2);
    if with_b3 {
        h.cable(0x1, 3, 0x13, 1);
        h.cable(0x13, 2, 0x21, 3)
            .cable(0x13, 3, 0x22, 3)
            .cable(0x13, 4, 0x23, 3);
    } else {
        h.cable(0x1, 3, 0x13, 1);
    }
    h.build()
}

fn dividers(f: &Fabric, guids: &[u64]) -> Vec<u64> {
    let r = Ranked::new(f).unwrap();
    let c = costs::compute(&r);
    guids
        .iter()
        .map(|&g| c.divider[r.internal[sw_of(f, g).ix()] as usize])
        .collect()
}

#[test]
fn fig3_divider_propagation_keeps_the_maximum() {
    // Step 2 of Fig. 3: U1 = U2 = 3×2 = 6, U3 = 2×2 = 4 (U2 keeps 6 > 4).
    let f = fig3(false);
    assert_eq!(dividers(&f, &[0x11, 0x12, 0x13]), vec![3, 2, 3]);
    assert_eq!(dividers(&f, &[0x21, 0x22, 0x23]), vec![6, 6, 4]);
    // Step 3: B3 with 3 upswitches gives every top switch 3×3 = 9.
    let f = fig3(true);
    assert_eq!(dividers(&f, &[0x21, 0x22, 0x23]), vec![9, 9, 9]);
}

/// Fig. 4: s (Π_s = 4, cost 3 to λ) has two candidate groups, to T1 (one
/// cable) and T2 (three cables); node d = 20 takes group ⌊20/4⌋ mod 2 = 1
/// (T2) and port ⌊20/8⌋ mod 3 = 2 of it: s's port 5.
pub(super) fn fig4() -> Fabric {
    let mut h = Hand::new();
    h.sw(0x10, 24).sw(0x11, 8); // leaves A (20 hosts: d = 0..19), λ (d = 20)
    h.sw(0x20, 8).sw(0x21, 8).sw(0x22, 8).sw(0x23, 8); // s, s2, s3, s4
    h.sw(0x30, 8).sw(0x31, 8); // T1, T2
    for (i, s) in [0x20, 0x21, 0x22, 0x23].into_iter().enumerate() {
        h.cable(0x10, i as u8 + 1, s, 1);
    }
    for i in 0..20u64 {
        h.host(0x1000 + (i << 4), 0x10, 5 + i as u8);
    }
    h.host(0x2000, 0x11, 5);
    h.cable(0x11, 1, 0x21, 2);
    h.cable(0x20, 2, 0x30, 1)
        .cable(0x20, 3, 0x31, 1)
        .cable(0x20, 4, 0x31, 2)
        .cable(0x20, 5, 0x31, 3);
    h.cable(0x30, 2, 0x21, 3).cable(0x31, 4, 0x21, 4);
    h.build()
}

#[test]
fn fig4_route_choice() {
    let f = fig4();
    assert_eq!(dividers(&f, &[0x20]), vec![4]);
    let lids = LidMap::new(&f).unwrap();
    let r = Dmodc {
        with_alt_ports: true,
    }
    .route(&f, &lids, &RouteOptions::default())
    .unwrap();
    let s = sw_of(&f, 0x20).ix();
    assert_eq!(r.lfts.get(s, host_lid(&f, 0x2000)), 5);
    // The 20 hosts of A are below s: the single down group, port 1.
    assert_eq!(r.lfts.get(s, host_lid(&f, 0x1000 + (19 << 4))), 1);
    // P_{s,20} (formula (2)): every port of both candidate groups.
    let alt = r.alt_ports.unwrap();
    let at = s * alt.stride + host_lid(&f, 0x2000) as usize;
    let p = &alt.ports[alt.offsets[at] as usize..alt.offsets[at + 1] as usize];
    assert_eq!(p, &[2, 3, 4, 5]);
}

#[test]
fn formats_dmodc_md_example() {
    let md =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/formats/dmodc.md")).unwrap();
    let tag = "```text dmodc-example\n";
    let start = md.find(tag).expect("example block") + tag.len();
    let block = &md[start..start + md[start..].find("```").unwrap()];
    let f = pgft(&PgftSpec::new(2, &[2, 2], &[1, 2], Some(&[1, 2]))).unwrap();
    assert_eq!(routec::route::dmodc::lft_table(&f, &route(&f).lfts), block);
}
