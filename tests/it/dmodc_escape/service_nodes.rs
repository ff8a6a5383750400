//! `--service-nodes FILE`: renamed aggregation nodes route as under the
//! description rule only when listed, and a switch in the list is refused.

use std::path::Path;

use crate::common::{lfts_for, routec, subnet_lst};

use super::{ROOT, generate, tmp};

/// `--service-nodes FILE` names CAs that are not compute nodes when their
/// description does not say so: the aggregation nodes of the second test,
/// renamed, route exactly as under the built-in description rule only when
/// listed (unlisted, every switch with one becomes a leaf).
#[test]
fn service_nodes_file_stands_in_for_the_description_rule() {
    let dir = tmp("service");
    let topo = generate(&dir, "--h 3 --m 2,2,2 --w 1,2,2 --aggregation-nodes");
    let text = std::fs::read_to_string(&topo).unwrap();
    let renamed = dir.join("renamed.txt");
    std::fs::write(
        &renamed,
        text.replace("Mellanox Technologies Aggregation Node", "SHARP unit"),
    )
    .unwrap();
    let guids: String = text
        .lines()
        .filter_map(|l| l.strip_prefix("caguid="))
        .filter(|g| g.starts_with("0x2c90b"))
        .map(|g| format!("{g}\n"))
        .collect();
    assert_eq!(guids.lines().count(), 12, "one per switch");
    let list = dir.join("service.guids");
    std::fs::write(&list, guids).unwrap();

    let tables = |topo: &Path, extra: &[&str], out: &str| {
        let out = dir.join(out);
        let mut args = vec!["compile", topo.to_str().unwrap(), "--engine", "dmodc"];
        args.extend_from_slice(&[
            "--vls",
            "2",
            "--emit",
            "image,opensm,fdbs",
            "-o",
            out.to_str().unwrap(),
        ]);
        args.extend_from_slice(extra);
        let (code, _) = routec(&args, Path::new(ROOT));
        assert_eq!(code, 0);
        let (f, lids) = subnet_lst(&out.join("opensm-subnet.lst"));
        let l = lfts_for(&f, &lids, &out.join("opensm-lfts.dump"));
        (0..f.num_switches())
            .map(|s| (1..=l.top()).map(|lid| l.get(s, lid)).collect::<Vec<u8>>())
            .collect::<Vec<_>>()
    };
    let builtin = tables(Path::new(&topo), &[], "builtin");
    let listed = tables(
        &renamed,
        &["--service-nodes", list.to_str().unwrap()],
        "listed",
    );
    assert_eq!(builtin, listed);
    let check = |extra: &[&str]| {
        let mut a = vec!["check", renamed.to_str().unwrap(), "--lfts"];
        a.push(dir.join("listed").to_str().unwrap().to_owned().leak());
        a.extend_from_slice(extra);
        routec(&a, Path::new(ROOT)).0
    };
    assert_eq!(check(&["--service-nodes", list.to_str().unwrap()]), 0);
    let (code, _) = routec(
        &[
            "compile",
            renamed.to_str().unwrap(),
            "--engine",
            "dmodc",
            "--emit",
            "none",
        ],
        Path::new(ROOT),
    );
    assert_ne!(
        code, 0,
        "unlisted, the spines become leaves and Dmodc has no tree"
    );
    // a switch in the list is an input error
    std::fs::write(&list, "0x0002c90101000000\n").unwrap();
    let (code, _) = routec(
        &[
            "compile",
            renamed.to_str().unwrap(),
            "--service-nodes",
            list.to_str().unwrap(),
            "-o",
            dir.join("bad").to_str().unwrap(),
        ],
        Path::new(ROOT),
    );
    assert_eq!(code, 2);
}
