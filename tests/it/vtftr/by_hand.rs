//! Worked by hand: the paper's 8×8 single-fault case (XY, YX, the escape
//! VL, the class counts) and the two detour classes, row–column–row and
//! column–row–column, traced through the tables.

use std::collections::BTreeSet;

use routec::route::vtftr::{class_pairs, classes::Class, recognise};

use super::{routed, strs, trace};

#[test]
fn paper_8x8_single_fault_by_hand() {
    // LSW(3, 2) faulty (seed §3.2: one faulty leaf in an 8×8 2-D fat tree)
    let (f, _, r) = routed(8, 2, &[(3, 2)]);
    // its XY turn (3, 2) is faulty, its YX turn (1, 5) is not: YX, no extra
    // hop (seed: "yx路由时不增加跳步"), escape VL after the column→row turn
    let (p, vls, sl) = trace(&f, &r, "H_1_2_0", "H_3_5_1");
    let want = ["LSW_1_2", "CSW_1_0", "LSW_1_5", "RSW_5_0", "LSW_3_5"];
    assert_eq!((p, vls, sl), (strs(&want), vec![0, 0, 1, 1], 1));
    // the reverse pair turns at (1, 5): plain XY on VL 0
    let (p, vls, sl) = trace(&f, &r, "H_3_5_0", "H_1_2_0");
    let want = ["LSW_3_5", "RSW_5_0", "LSW_1_5", "CSW_1_0", "LSW_1_2"];
    assert_eq!((p, vls, sl), (strs(&want), vec![0; 4], 0));
    // a pair whose turn (6, 2) is live: XY
    let (p, vls, _) = trace(&f, &r, "H_1_2_0", "H_6_4_0");
    let want = ["LSW_1_2", "RSW_2_0", "LSW_6_2", "CSW_6_0", "LSW_6_4"];
    assert_eq!((p, vls), (strs(&want), vec![0; 4]));
    // within the faulty leaf's row and column: one dimension
    let (p, _, _) = trace(&f, &r, "H_0_2_0", "H_7_2_1");
    assert_eq!(p, strs(&["LSW_0_2", "RSW_2_0", "LSW_7_2"]));
    let (p, _, _) = trace(&f, &r, "H_3_0_0", "H_3_7_0");
    assert_eq!(p, strs(&["LSW_3_0", "CSW_3_0", "LSW_3_7"]));
    // YX pairs: a source in row 2 (7 leaves but the faulty one) to a
    // destination in column 3 (7): 49 leaf pairs × 2 × 2 hosts; no detour
    let g = recognise(&f).unwrap();
    let pairs = class_pairs(&f, &g);
    let count = |c: Class| pairs.iter().find(|p| p.0 == c).unwrap().1;
    assert_eq!(count(Class::Yx), 49 * 4);
    assert_eq!(
        count(Class::Rcr) + count(Class::Crc) + count(Class::Unroutable),
        0
    );
    // 63 leaves × 2 hosts: 126 × 125 pairs in all
    assert_eq!(pairs.iter().map(|p| p.1).sum::<u64>(), 126 * 125);
}

#[test]
fn detours_by_hand() {
    // both turn leaves of (1, 2) → (3, 5) faulty: row–column–row through a
    // fault-free column (not 1 or 3), +2 hops, escape VL after the turn
    let (f, _, r) = routed(8, 4, &[(3, 2), (1, 5)]);
    let mut cols = BTreeSet::new();
    for h in 0..4 {
        let (p, vls, sl) = trace(&f, &r, "H_1_2_0", &format!("H_3_5_{h}"));
        assert_eq!((vls, sl), (vec![0, 0, 0, 0, 1, 1], 2), "{p:?}");
        let xm = p[2]
            .strip_prefix("LSW_")
            .unwrap()
            .strip_suffix("_2")
            .unwrap();
        assert!(!["1", "3"].contains(&xm), "{p:?}");
        let want = [
            "LSW_1_2".to_string(),
            "RSW_2_0".into(),
            format!("LSW_{xm}_2"),
            format!("CSW_{xm}_0"),
            format!("LSW_{xm}_5"),
            "RSW_5_0".into(),
            "LSW_3_5".into(),
        ];
        assert_eq!(p, want);
        cols.insert(xm.to_string());
    }
    assert!(
        cols.len() > 1,
        "detours spread over columns by LID: {cols:?}"
    );
    // every column faulty, rows 2..7 fault-free: column–row–column
    let faulty: Vec<(u32, u32)> = (0..8).map(|x| (x, x % 2)).collect();
    let (f, _, r) = routed(8, 1, &faulty);
    let (p, vls, sl) = trace(&f, &r, "H_1_0_0", "H_0_1_0");
    assert_eq!((vls, sl), (vec![0, 0, 1, 1, 1, 1], 3), "{p:?}");
    let ym = p[2].strip_prefix("LSW_1_").unwrap();
    assert!(ym.parse::<u32>().unwrap() >= 2, "{p:?}");
    let want = [
        "LSW_1_0".to_string(),
        "CSW_1_0".into(),
        format!("LSW_1_{ym}"),
        format!("RSW_{ym}_0"),
        format!("LSW_0_{ym}"),
        "CSW_0_0".into(),
        "LSW_0_1".into(),
    ];
    assert_eq!(p, want);
}
