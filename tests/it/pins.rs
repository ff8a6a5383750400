//! Pins the bytes of every output routec writes for the bundled fixtures.
//!
//! Each case runs the real binary; the snapshot lists, per case, the exit
//! code, the SHA-256 of stdout and of every file written (`run.json` aside:
//! it holds timings). A refactor must leave this snapshot unchanged; a
//! change of output format changes it on purpose, in the same commit as the
//! spec in `formats/`.

use std::fmt::Write as _;
use std::path::Path;

use sha2::{Digest, Sha256};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn sha(bytes: &[u8]) -> String {
    let d = Sha256::digest(bytes);
    d.iter().take(12).map(|b| format!("{b:02x}")).collect()
}

/// Runs routec with `args` (`{out}` replaced by a fresh directory) and
/// describes what it produced.
fn run_case(name: &str, args: &[&str], scratch: &Path) -> String {
    let out = scratch.join(name);
    let _ = std::fs::remove_dir_all(&out);
    std::fs::create_dir_all(&out).unwrap();
    let out_s = out.to_string_lossy().into_owned();
    let args: Vec<String> = args.iter().map(|a| a.replace("{out}", &out_s)).collect();
    let o = assert_cmd::Command::cargo_bin("routec")
        .unwrap()
        .current_dir(ROOT)
        .args(&args)
        .output()
        .unwrap();
    let mut s = format!(
        "{name}: exit {} stdout {}\n",
        o.status.code().unwrap_or(-1),
        sha(&o.stdout)
    );
    if let Ok(rd) = std::fs::read_dir(&out) {
        let mut files: Vec<_> = rd.flatten().map(|e| e.path()).collect();
        files.sort();
        for f in files {
            let n = f.file_name().unwrap().to_string_lossy().into_owned();
            if n == "run.json" || f.is_dir() {
                continue;
            }
            let _ = writeln!(s, "  {n} {}", sha(&std::fs::read(&f).unwrap()));
        }
    }
    s
}

const ALL: &str = "image,report,opensm,fdbs";

#[test]
fn outputs_of_every_fixture_are_pinned() {
    let scratch = Path::new(env!("CARGO_TARGET_TMPDIR")).join("pins");
    std::fs::create_dir_all(&scratch).unwrap();
    let mut cases: Vec<(String, Vec<String>)> = Vec::new();
    let mut add = |name: String, args: &[&str]| {
        cases.push((name, args.iter().map(|s| s.to_string()).collect()));
    };
    for fab in ["ft2", "ft3", "ft3f", "heur", "irr"] {
        let topo = format!("fixtures/opensm/{fab}/minhop/ibnetdiscover.txt");
        for (engine, roots) in [
            ("minhop", "auto"),
            ("updn", "auto"),
            ("updn", "top"),
            ("dmodc", "auto"),
        ] {
            add(
                format!("{fab}-{engine}-{roots}"),
                &[
                    "compile",
                    &topo,
                    "--engine",
                    engine,
                    "--roots",
                    roots,
                    "--emit",
                    ALL,
                    "-o",
                    "{out}",
                    "--allow-invalid",
                ],
            );
        }
        add(format!("{fab}-info"), &["info", &topo, "--json"]);
        add(format!("{fab}-yaml"), &["convert", &topo, "--to", "yaml"]);
        let dump = format!("fixtures/opensm/{fab}/minhop/opensm-lfts.dump");
        add(
            format!("{fab}-check"),
            &["check", &topo, "--lfts", &dump, "--json"],
        );
        add(
            format!("{fab}-report"),
            &[
                "report",
                &topo,
                "--lfts",
                &dump,
                "--pattern",
                "all",
                "--samples",
                "5",
                "--json",
            ],
        );
    }
    add(
        "ft3f-roots-file".into(),
        &[
            "compile",
            "fixtures/opensm/ft3f/minhop/ibnetdiscover.txt",
            "--engine",
            "updn",
            "--roots",
            "fixtures/opensm/ft3f/roots.guids",
            "--emit",
            ALL,
            "-o",
            "{out}",
        ],
    );
    add(
        "ft2-order-zst".into(),
        &[
            "compile",
            "fixtures/opensm/ft2/minhop/ibnetdiscover.txt",
            "--engine",
            "minhop",
            "--node-order",
            "fixtures/opensm/ft2/order.guids",
            "--compress",
            "-o",
            "{out}",
        ],
    );
    add(
        "ft2-diff".into(),
        &[
            "diff",
            "fixtures/opensm/ft2/minhop/opensm-lfts.dump",
            "fixtures/opensm/ft2/minhop-order/opensm-lfts.dump",
            "--json",
        ],
    );
    add(
        "ring6-check".into(),
        &[
            "check",
            "fixtures/verify/ring6/ibnetdiscover.txt",
            "--lfts",
            "fixtures/verify/ring6/minhop.lfts.dump",
            "--json",
        ],
    );
    add(
        "ring6-expect".into(),
        &[
            "check",
            "--expect",
            "fixtures/verify/ring6/ibnetdiscover.txt",
            "fixtures/verify/ring6/recabled.ibnetdiscover",
        ],
    );
    add(
        "fig2-compile-mcast".into(),
        &[
            "compile",
            "fixtures/mcast/fig2.ibnetdiscover",
            "--engine",
            "minhop",
            "--mcast",
            "fixtures/mcast/fig2.groups",
            "--emit",
            ALL,
            "-o",
            "{out}",
        ],
    );
    add(
        "fig2-mcast-1".into(),
        &[
            "mcast",
            "fixtures/mcast/fig2.ibnetdiscover",
            "--mcast",
            "fixtures/mcast/fig2.groups",
            "--mft-size",
            "1",
            "-o",
            "{out}",
        ],
    );
    add(
        "ft2-gen-mcast".into(),
        &[
            "gen",
            "mcast",
            "--pattern",
            "grid2d",
            "--dims",
            "4x8",
            "--topology",
            "fixtures/opensm/ft2/minhop/ibnetdiscover.txt",
            "-o",
            "{out}/groups",
        ],
    );
    add(
        "pgft-gen".into(),
        &[
            "gen",
            "pgft",
            "--h",
            "2",
            "--m",
            "4,8",
            "--w",
            "1,4",
            "--faults",
            "3",
            "--seed",
            "7",
            "-o",
            "{out}/pgft",
        ],
    );
    for real in [
        "ibm-pcm-2009.ibnetdiscover",
        "loginoff-sx6036-2level.ibnetdiscover",
        "manpage-voltaire-2007.ibnetdiscover",
        "oracle-sundcs36.ibnetdiscover",
        "ufm-lab-small.ibnetdiscover",
        "ibsim-net-example.ibsim.net",
        "ibsim-2sw2path4hca2port.ibsim.net",
    ] {
        let topo = format!("fixtures/real/{real}");
        add(
            format!("real-{real}"),
            &[
                "compile",
                &topo,
                "--engine",
                "minhop",
                "--emit",
                ALL,
                "-o",
                "{out}",
                "--allow-invalid",
                "--assign-lids",
            ],
        );
    }
    let mut listing = String::new();
    for (name, args) in &cases {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        listing.push_str(&run_case(name, &args, &scratch));
    }
    insta::assert_snapshot!("outputs", listing);
}
