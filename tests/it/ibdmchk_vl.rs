//! ibdmchk agrees with routec on layered VL plans: routec's emitted
//! `ibdmchk.psl` and `ibdmchk.sl2vl` make ibdmchk find no credit loop where
//! one VL had one, and a deliberately wrong PSL (every path back on SL 0)
//! makes it report the loop again — so it really read the files, which it
//! would otherwise skip line by line without a word.

use std::path::Path;
use std::process::Command;

use crate::common::{ibdmchk_loops, routec, routec_stderr};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn installed() -> bool {
    crate::common::peer(
        "ibdmchk",
        Command::new("ibdmchk").arg("-h").output().is_ok(),
    )
}

fn layered(topo: &str, name: &str) -> std::path::PathBuf {
    let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("ibdmchk_vl_{name}"));
    let _ = std::fs::remove_dir_all(&out);
    let (code, _) = routec(
        &[
            "compile",
            topo,
            "--engine",
            "minhop",
            "--vls",
            "8",
            "--emit",
            "fdbs,opensm,report",
            "-o",
            out.to_str().unwrap(),
        ],
        Path::new(ROOT),
    );
    assert_eq!(code, 0);
    out
}

/// `wrong.psl` in `dir`: `ibdmchk.psl` with every path on SL 0.
fn write_all_on_sl0(dir: &Path) {
    let psl = std::fs::read_to_string(dir.join("ibdmchk.psl")).unwrap();
    let wrong: String = psl
        .lines()
        .map(|l| format!("{} 0\n", l.rsplit_once(' ').unwrap().0))
        .collect();
    std::fs::write(dir.join("wrong.psl"), wrong).unwrap();
}

#[test]
fn ibdmchk_reads_routecs_vl_files_and_agrees() {
    if !installed() {
        return;
    }
    for (name, topo) in [
        ("ring6", "fixtures/verify/ring6/ibnetdiscover.txt"),
        ("irr", "fixtures/opensm/irr/minhop/ibnetdiscover.txt"),
    ] {
        let dir = layered(topo, name);
        let report = std::fs::read_to_string(dir.join("report.json")).unwrap();
        assert!(
            report.contains("\"vl_plan\""),
            "{name}: min-hop needs lanes here"
        );
        assert_eq!(
            ibdmchk_loops(&dir, None),
            Some(true),
            "{name}: one VL has a loop"
        );
        assert_eq!(
            ibdmchk_loops(&dir, Some("ibdmchk.psl")),
            Some(false),
            "{name}: layered"
        );
        // every path back on SL 0: the loop again
        write_all_on_sl0(&dir);
        assert_eq!(
            ibdmchk_loops(&dir, Some("wrong.psl")),
            Some(true),
            "{name}: wrong SLs"
        );
    }
}

/// `routec check` reads the same files back (`--psl` streamed record by
/// record into the plan) and agrees with itself and with ibdmchk: no credit
/// loop with the emitted SLs, the loop again on one VL and with every path
/// back on SL 0.
#[test]
fn check_reads_its_own_vl_files_back() {
    for (name, topo) in [
        ("ring6-self", "fixtures/verify/ring6/ibnetdiscover.txt"),
        ("irr-self", "fixtures/opensm/irr/minhop/ibnetdiscover.txt"),
    ] {
        let dir = layered(topo, name);
        write_all_on_sl0(&dir);
        let psl = std::fs::read_to_string(dir.join("ibdmchk.psl")).unwrap();
        let d = |f: &str| dir.join(f).to_str().unwrap().to_string();
        let check = |psl: Option<&str>| {
            let (lfts, sl2vl) = (d("opensm-lfts.dump"), d("ibdmchk.sl2vl"));
            let mut args = vec!["check", topo, "--lfts", &lfts, "--sl2vl", &sl2vl];
            let psl = psl.map(d);
            if let Some(p) = &psl {
                args.extend(["--psl", p.as_str()]);
            }
            routec(&args, Path::new(ROOT))
        };
        let (code, out) = check(Some("ibdmchk.psl"));
        assert_eq!(code, 0, "{name}: {out}");
        assert!(out.contains("no credit loops"), "{name}: {out}");
        for bad in [None, Some("wrong.psl")] {
            let (code, out) = check(bad);
            assert_eq!(code, 1, "{name} {bad:?}: {out}");
            assert!(out.contains("V020"), "{name} {bad:?}: {out}");
        }
        // a bad line after good ones: the streamed read hands the file
        // back to the whole-file reader, which names the line
        let first = psl.lines().next().unwrap();
        std::fs::write(dir.join("bad.psl"), format!("{first}\n0xzz 1 1\n")).unwrap();
        let (lfts, bad) = (d("opensm-lfts.dump"), d("bad.psl"));
        let args = ["check", topo, "--lfts", &lfts, "--psl", &bad];
        let (code, err) = routec_stderr(&args, Path::new(ROOT));
        assert_eq!(code, 2, "{name}: {err}");
        assert!(err.contains("bad.psl:2:1"), "{name}: {err}");
    }
}
