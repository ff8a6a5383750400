//! MR4LMS multicast: the paper's Figure 2, verification of random groups on
//! small fat-trees, file formats, snapshots and determinism.
//!
//! This file holds the Figure 2 fabric, the PGFTs and the helpers that
//! run MR4LMS and write or verify its tables; the tests are in the
//! submodules, one theme each.

mod fat_trees;
mod fig2;
mod files;
mod verify;

use routec::emit::mcast::write_colours;
use routec::generate::pgft::PgftSpec;
use routec::mcast::{McastConfig, McastResult, assign, group_colours};
use routec::model::{Fabric, FabricBuilder, Guid, McastGroup, NodeIdx, NodeKind, NodeSpec};
use routec::parse::mcast_groups::parse_groups;
use routec::verify::Finding;
use routec::verify::mcast::verify_mfts;

/// seed:mr4lms Figure 2: sw0 above sw1..sw4; A,B on sw1, C,D on sw2,
/// E,F on sw3, G,H on sw4. Switch GUIDs 0x100+i, host port GUIDs 0x20+i.
fn figure2() -> Fabric {
    let mut b = FabricBuilder::new();
    let sw: Vec<NodeIdx> = (0..5)
        .map(|i| {
            b.add_node(NodeSpec::new(
                NodeKind::Switch,
                Guid(0x100 + i),
                4,
                format!("sw{i}"),
            ))
            .unwrap()
        })
        .collect();
    for i in 1..5 {
        b.connect(sw[0], i as u8, sw[i], 1).unwrap();
    }
    for h in 0..8u64 {
        let n = b
            .add_node(NodeSpec::new(
                NodeKind::Ca,
                Guid(0x10 + h),
                1,
                format!("{}", (b'A' + h as u8) as char),
            ))
            .unwrap();
        b.port_mut(n, 1).unwrap().guid = Guid(0x20 + h);
        b.connect(n, 1, sw[1 + h as usize / 2], 2 + (h % 2) as u8)
            .unwrap();
    }
    b.build()
}

/// PGFT(h; m; w; 1..1) as the OpenSM harness numbers it.
fn pgft(m: &[u32], w: &[u32]) -> Fabric {
    routec::generate::pgft::pgft(&PgftSpec::new(m.len(), m, w, None)).unwrap()
}

fn run(fabric: &Fabric, groups: &[McastGroup], mft_size: u32, rebuild: bool) -> McastResult {
    assign(
        fabric,
        groups,
        McastConfig {
            mft_size,
            rebuild_merged: rebuild,
        },
    )
    .unwrap()
}

fn findings(fabric: &Fabric, groups: &[McastGroup], r: &McastResult) -> Vec<Finding> {
    let mfts = routec::mcast::mfts(fabric, r);
    verify_mfts(fabric, &mfts, groups, &group_colours(groups, r)).findings
}

fn fig2_groups(f: &Fabric) -> Vec<McastGroup> {
    parse_groups(
        "fig2.groups",
        include_str!("../../../fixtures/mcast/fig2.groups"),
        f,
    )
    .unwrap()
}

fn mcfdbs(f: &Fabric, r: &McastResult) -> String {
    let mut out = Vec::new();
    routec::emit::mcfdbs::write_mcfdbs(f, &routec::mcast::mfts(f, r), &mut out).unwrap();
    String::from_utf8(out).unwrap()
}

fn colours(f: &Fabric, g: &[McastGroup], r: &McastResult) -> String {
    let mut out = Vec::new();
    write_colours(&routec::mcast::colour_lines(f, g, r), &mut out).unwrap();
    String::from_utf8(out).unwrap()
}
