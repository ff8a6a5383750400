//! Verification of Figure 2's multicast tables: what routec writes reads
//! back and verifies clean, and tables broken on purpose (a missing
//! entry, two trees meeting, a loop) are reported, so a clean verdict
//! elsewhere means something.

use routec::mcast::group_colours;
use routec::model::Mfts;
use routec::parse::mcast_colours::parse_colours;
use routec::verify::Code;
use routec::verify::mcast::verify_mfts;

use super::{colours, fig2_groups, figure2, mcfdbs, run};

#[test]
fn mcfdbs_and_colours_read_back_and_verify() {
    let f = figure2();
    let groups = fig2_groups(&f);
    let r = run(&f, &groups, 1, false);
    let text = mcfdbs(&f, &r);
    let mfts = routec::parse::mcfdbs::parse_mcfdbs("x.mcfdbs", &text, &f).unwrap();
    assert_eq!(mfts, routec::mcast::mfts(&f, &r));
    let cols = parse_colours("c.txt", &colours(&f, &groups, &r)).unwrap();
    assert!(verify_mfts(&f, &mfts, &groups, &cols).findings.is_empty());
    // Declaring the merged pair as two trees is caught.
    let mut split = cols.clone();
    split[3].tree += 100;
    let found = verify_mfts(&f, &mfts, &groups, &split).findings;
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].code, Code::V036);
}

#[test]
fn broken_tables_are_reported() {
    let f = figure2();
    let groups = fig2_groups(&f);
    let r = run(&f, &groups, 1, false);
    let cols = group_colours(&groups, &r);
    let good = routec::mcast::mfts(&f, &r);
    let sw = routec::model::SwIdx;
    // Drop sw4's entry: G and H get nothing; sw0's port 4 leads out of the tree.
    let mut m = Mfts::new(5);
    for s in 0..4 {
        for (mlid, mask) in good.rows(sw(s)) {
            m.insert(sw(s), *mlid, *mask);
        }
    }
    let found = verify_mfts(&f, &m, &groups, &cols).findings;
    assert!(found.iter().any(|x| x.code == Code::V031), "{found:?}");
    assert!(
        found
            .iter()
            .any(|x| x.code == Code::V034 && x.hops[0].out_port == 4),
        "{found:?}"
    );
    // sw1 (A,B) also forwards up to sw0, and sw0 back down: the A,B tree
    // and the E..H tree now meet on sw0 and A,B's packets reach E..H.
    let mut m = good.clone();
    let mut up = *m.get(sw(1), 0xC000).unwrap();
    up.set(1);
    m.insert(sw(1), 0xC000, up);
    let mut top = *m.get(sw(0), 0xC000).unwrap();
    top.set(1);
    m.insert(sw(0), 0xC000, top);
    let found = verify_mfts(&f, &m, &groups, &cols).findings;
    assert!(found.iter().any(|x| x.code == Code::V036), "{found:?}");
    // A parallel second path would duplicate packets: a loop.
    let mut m = good.clone();
    let mut leaf = *m.get(sw(2), 0xC000).unwrap();
    leaf.set(1);
    m.insert(sw(2), 0xC000, leaf);
    let mut top = *m.get(sw(0), 0xC000).unwrap();
    top.set(2);
    m.insert(sw(0), 0xC000, top);
    let mut other = *m.get(sw(1), 0xC000).unwrap();
    other.set(1);
    m.insert(sw(1), 0xC000, other);
    top.set(1);
    m.insert(sw(0), 0xC000, top);
    let found = verify_mfts(&f, &m, &groups, &cols).findings;
    assert!(!found.is_empty());
}
