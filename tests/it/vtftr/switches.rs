//! Faulty row and column switches and cut leaf cables: handled inside their
//! dimension, a split row routed around, leaves without a common live row
//! switch refused.

use crate::verify::brute_force;
use routec::generate::ft2d::{Ft2dSpec, ft2d, leaf_guid};
use routec::model::{Fault, LidMap};
use routec::route::vtftr::Vtftr;
use routec::route::{Engine, RouteOptions};

use super::{spec, strs, trace};

#[test]
fn faulty_row_and_column_switches_are_handled_inside_their_dimension() {
    use routec::generate::ft2d::{CSW_GUID_BASE, RSW_GUID_BASE};
    use routec::model::{Guid, PortRef};
    // 6×6, two row and two column switches per line: RSW(1, 0) and
    // CSW(2, 1) down, leaf (0, 0)'s cable to RSW(0, 0) cut (port 2 + 0),
    // and faulty leaves that force detours
    let s = Ft2dSpec {
        nx: 6,
        ny: 6,
        hosts: 1,
        rsw: 2,
        csw: 2,
    };
    let mut faults: Vec<Fault> = [(1, 2), (3, 1), (2, 3)]
        .iter()
        .map(|&(x, y)| Fault::Switch(leaf_guid(&s, x, y)))
        .collect();
    faults.push(Fault::Switch(Guid(RSW_GUID_BASE + 2)));
    faults.push(Fault::Switch(Guid(CSW_GUID_BASE + 2 * 2 + 1)));
    faults.push(Fault::Link {
        end: PortRef {
            guid: leaf_guid(&s, 0, 0),
            port: 2,
        },
        other: None,
    });
    let (f, _) = ft2d(&s).unwrap().apply_faults(&faults).unwrap();
    let lids = LidMap::new(&f).unwrap();
    let r = Vtftr.route(&f, &lids, &RouteOptions::default()).unwrap();
    let (unreached, cyclic) = brute_force(&f, &lids, &r.lfts, r.vl_plan.as_ref().unwrap());
    assert_eq!((unreached, cyclic), (0, false));
    // (0, 0) reaches its row through RSW(0, 1) only
    let (p, _, _) = trace(&f, &r, "H_0_0_0", "H_4_0_0");
    assert_eq!(p, strs(&["LSW_0_0", "RSW_0_1", "LSW_4_0"]));
    // with one row switch per row, a dead one splits its row: each of its
    // leaves is a row of its own, reached through columns and a fault-free
    // row (column–row–column, 6 hops), still without credit loops
    let one = spec(4, 1);
    let (f, _) = ft2d(&one)
        .unwrap()
        .apply_faults(&[Fault::Switch(Guid(RSW_GUID_BASE + 2))])
        .unwrap();
    let lids = LidMap::new(&f).unwrap();
    let r = Vtftr.route(&f, &lids, &RouteOptions::default()).unwrap();
    let (p, vls, sl) = trace(&f, &r, "H_0_2_0", "H_3_2_0");
    assert_eq!((p.len(), vls, sl), (7, vec![0, 0, 1, 1, 1, 1], 3), "{p:?}");
    let (unreached, cyclic) = brute_force(&f, &lids, &r.lfts, r.vl_plan.as_ref().unwrap());
    assert_eq!((unreached, cyclic), (0, false));
    // two leaves of a row left without a common live row switch (each lost
    // a different one of the two): refused, naming them
    let cut = |x, port| Fault::Link {
        end: PortRef {
            guid: leaf_guid(&s, x, 0),
            port,
        },
        other: None,
    };
    let (f, _) = ft2d(&s)
        .unwrap()
        .apply_faults(&[cut(0, 2), cut(1, 3)])
        .unwrap();
    let lids = LidMap::new(&f).unwrap();
    let e = Vtftr
        .route(&f, &lids, &RouteOptions::default())
        .unwrap_err();
    let m = &e.message;
    assert!(
        m.contains("LSW_0_0") && m.contains("LSW_1_0") && m.contains("share no live row switch"),
        "{m}"
    );
}
