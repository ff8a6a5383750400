//! Item 14: the YAML reader takes a fabric at the IB LID limit, the size
//! where it once stopped on a budget a few thousand hosts in.

use std::process::Command;

use super::bin;

/// A fabric at the IB limit: 247 switches of 198 hosts each (the last
/// 196) in a ring, LIDs 1..=49151 (every unicast LID), as routec's YAML.
fn yaml_at_lid_limit() -> String {
    let (switches, hosts) = (247usize, 198usize);
    let mut sw = String::from("switches:\n");
    let mut cas = String::from("cas:\n");
    let mut links = String::from("links:\n");
    for i in 0..switches {
        let base = 1 + i * (hosts + 1);
        sw += &format!(
            "  - {{guid: 0x{:x}, name: s{i}, ports: {}, lid: {base}}}\n",
            0x20_0000 + i,
            hosts + 2
        );
        let here = if i + 1 == switches { hosts - 2 } else { hosts };
        for j in 0..here {
            cas += &format!(
                "  - {{guid: 0x{:x}, name: h{i}x{j}, lid: {}}}\n",
                0x1000_0000 + 2 * (i * 1000 + j),
                base + 1 + j
            );
            links += &format!("  - [s{i}/{}, h{i}x{j}/1, 4xEDR]\n", j + 1);
        }
        links += &format!(
            "  - [s{i}/{}, s{}/{}, 4xEDR]\n",
            hosts + 1,
            (i + 1) % switches,
            hosts + 2
        );
    }
    sw + &cas + &links
}

/// Item 14: the YAML reader takes every fabric routec can write up to the
/// IB limits: 49,151 LIDs read, written as ibnetdiscover, written back as
/// YAML and read again, the same fabric each time (it once stopped at
/// "budget breached: Nodes { nodes: 250001 }", a few thousand hosts in).
#[test]
fn yaml_round_trip_at_49151_lids() {
    let dir = tempfile::tempdir().unwrap();
    let y1 = dir.path().join("limit.yaml");
    std::fs::write(&y1, yaml_at_lid_limit()).unwrap();
    let (ib, y2) = (dir.path().join("limit.ibnet"), dir.path().join("back.yaml"));
    let run = |args: &[&std::ffi::OsStr]| {
        let o = Command::new(bin()).args(args).output().unwrap();
        assert!(
            o.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        o.stdout
    };
    run(&[
        "convert".as_ref(),
        y1.as_ref(),
        "--to".as_ref(),
        "ibnetdiscover".as_ref(),
        "-o".as_ref(),
        ib.as_ref(),
    ]);
    run(&[
        "convert".as_ref(),
        ib.as_ref(),
        "--to".as_ref(),
        "yaml".as_ref(),
        "-o".as_ref(),
        y2.as_ref(),
    ]);
    let infos: Vec<serde_json::Value> = [&y1, &ib, &y2]
        .iter()
        .map(|p| {
            serde_json::from_slice(&run(&["info".as_ref(), "--json".as_ref(), p.as_ref()])).unwrap()
        })
        .collect();
    assert_eq!(infos[0], infos[1]);
    assert_eq!(infos[1], infos[2]);
    assert_eq!(infos[0]["switches"], 247);
    assert_eq!(infos[0]["cas"], 246 * 198 + 196);
    assert_eq!(
        infos[0]["switches"].as_u64().unwrap() + infos[0]["cas"].as_u64().unwrap(),
        49_151
    );
    // and the YAML routec wrote converts to the same ibnetdiscover text
    let ib2 = dir.path().join("again.ibnet");
    run(&[
        "convert".as_ref(),
        y2.as_ref(),
        "--to".as_ref(),
        "ibnetdiscover".as_ref(),
        "-o".as_ref(),
        ib2.as_ref(),
    ]);
    assert_eq!(std::fs::read(&ib).unwrap(), std::fs::read(&ib2).unwrap());
}
