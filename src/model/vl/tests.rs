//! Tests of the SL2VL tables and the VL plan.

use super::*;

#[test]
fn identity_and_tables() {
    let mut m = Sl2Vl::identity();
    assert!(m.is_identity());
    assert_eq!(m.vl(3, 1, 2, 5), 5);
    m.set_switch(1, 4, |i, o, sl| if i > o { sl + 1 } else { sl });
    assert!(!m.is_identity());
    assert_eq!(m.vl(1, 3, 2, 0), 1);
    assert_eq!(m.vl(1, 2, 3, 0), 0);
    assert_eq!(m.vl(0, 3, 2, 0), 0);
    assert_eq!(m.vl(1, 9, 2, 7), 7);
    assert_eq!(m.end_port_vl(4), 4);
    m.set_end_port([1; NUM_SL]);
    assert_eq!(m.end_port_vl(4), 1);
}

#[test]
fn path_sls_follow_the_lft_shape() {
    let lfts = Lfts::new(3, 70);
    let mut p = PathSl::zeros(&lfts);
    assert_eq!(p.used(), 1);
    p.set(2, 65, 3);
    assert_eq!((p.get(2, 65), p.get(1, 65), p.get(2, 9999)), (3, 0, 0));
    assert_eq!(p.used(), 0b1001);
    assert_eq!(p.row(2).len(), lfts.stride());
    // all_zero follows set and row_mut, whichever wrote last
    assert!(!p.all_zero());
    p.set(2, 65, 0);
    assert!(p.all_zero());
    p.row_mut(1)[3] = 2;
    assert!(!p.all_zero());
    p.row_mut(1)[3] = 0;
    assert!(p.all_zero());
    p.set(0, 1, 4);
    p.set(0, 1, 4);
    assert!(!p.all_zero());
    let mut q = PathSl::zeros(&lfts);
    q.row_mut(0)[1] = 4;
    assert_eq!(p, q, "equal SLs are equal however written");
}

/// The blocks `set` wrote off SL 0 hold every SL other than 0 (what the
/// verifier, the image and the report read instead of the whole table),
/// and are unknown once a row was lent for writing.
#[test]
fn written_blocks_cover_every_sl_off_zero() {
    let lfts = Lfts::new(3, 200);
    let mut p = PathSl::zeros(&lfts);
    let blocks = |p: &PathSl| p.written_blocks().map(|w| w.ones().collect::<Vec<_>>());
    assert_eq!(blocks(&p), Some(vec![]));
    p.set(1, 65, 2);
    p.set(2, 190, 1);
    p.set(0, 3, 0);
    assert_eq!(blocks(&p), Some(vec![1, 2]));
    // a block written back to 0 stays in: a superset is all readers need
    p.set(2, 190, 0);
    assert_eq!(blocks(&p), Some(vec![1, 2]));
    let off_zero: Vec<(usize, usize)> = (0..3)
        .flat_map(|s| (0..200).map(move |l| (s, l)))
        .filter(|&(s, l)| p.get(s, l as Lid) != 0)
        .collect();
    let w = p.written_blocks().unwrap();
    assert!(
        off_zero
            .iter()
            .all(|&(_, l)| w.contains(l / crate::model::LFT_BLOCK))
    );
    p.row_mut(0)[130] = 5;
    assert_eq!(blocks(&p), None);
}
