//! Agreement with ibdmchk (Debian `ibutils`), the reference credit-loop and
//! reachability checker, on OpenSM's own tables and on hand-broken copies.
//! Skips when ibdmchk is not installed. ibdmchk 1.5.7 segfaults at exit
//! after printing its verdicts, so it is judged from its text, as
//! `peers/opensm/ibdmchk_check.sh` does.

use crate::common;

use std::path::Path;
use std::process::Command;

use routec::model::{Fabric, Lfts, LidMap};
use routec::verify::{Code, VerifyOptions, verify_tables};

/// The tables in ibdmchk's `opensm.fdbs` syntax, by routec's own writer.
fn fdbs(f: &Fabric, lids: &LidMap, t: &Lfts) -> String {
    let mut out = Vec::new();
    routec::emit::fdbs::write_fdbs(f, lids, t, &mut out).unwrap();
    String::from_utf8(out).unwrap()
}

struct IbdmVerdict {
    reachable: bool,
    credit_loops: Option<bool>,
}

fn ibdmchk(subnet: &Path, fdbs: &str, all: bool) -> Option<IbdmVerdict> {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("opensm.fdbs");
    std::fs::write(&f, fdbs).unwrap();
    let m = dir.path().join("opensm.mcfdbs");
    std::fs::write(&m, "").unwrap();
    let mut cmd = Command::new("ibdmchk");
    cmd.arg("-s")
        .arg(subnet)
        .arg("-f")
        .arg(&f)
        .arg("-m")
        .arg(&m)
        .current_dir(dir.path());
    if all {
        cmd.arg("-a");
    }
    let out = cmd.output().ok()?;
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    let has = |pats: &[&str]| pats.iter().any(|p| text.contains(p));
    let reachable = !has(&[
        "-E- Some Point to Point Traversals Failed",
        "missing paths",
        "-E- Fail to traverse",
        "Dead end",
        "Unassigned LFT",
        "Aborting after 256 hops",
    ]);
    let credit_loops = if has(&[
        "-E- credit loops in routing",
        "paths that can cause credit loops",
        "Potential Credit Loop",
    ]) {
        Some(true)
    } else if has(&["-I- no credit loops found", "-I- No credit loops found"]) {
        Some(false)
    } else {
        None
    };
    Some(IbdmVerdict {
        reachable,
        credit_loops,
    })
}

fn installed() -> bool {
    crate::common::peer(
        "ibdmchk",
        Command::new("ibdmchk").arg("-h").output().is_ok(),
    )
}

#[test]
fn verdicts_agree_with_ibdmchk() {
    if !installed() {
        return;
    }
    let base = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/verify");
    let cases = [
        ("ring6", "minhop.lfts.dump", false, true, Some(true)),
        ("ring6", "minhop.lfts.dump", true, true, Some(true)),
        ("ring6", "updn.lfts.dump", false, true, Some(false)),
        ("ring6", "updn.lfts.dump", true, true, Some(false)),
        ("ring6", "unreachable.lfts.dump", false, false, None),
        ("ring6", "loop.lfts.dump", false, false, None),
        ("s128", "minhop.lfts.dump", false, true, Some(false)),
        ("s128", "minhop.lfts.dump", true, true, Some(false)),
        ("s128", "updn.lfts.dump", false, true, Some(false)),
    ];
    for (dir, dump, all, want_reach, want_loops) in cases {
        let subnet = base.join(dir).join("opensm-subnet.lst");
        let (f, lids) = common::subnet_lst(&subnet);
        let t = common::lfts_for(&f, &lids, &base.join(dir).join(dump));
        let ours = verify_tables(
            &f,
            &lids,
            &t,
            &VerifyOptions {
                all_paths: all,
                ..Default::default()
            },
        );
        let theirs = ibdmchk(&subnet, &fdbs(&f, &lids, &t), all).expect("ibdmchk runs");
        let what = format!("{dir}/{dump} all={all}:\n{}", ours.render());
        // the recorded verdicts (results/ibdmchk_verdicts.md) hold
        assert_eq!(theirs.reachable, want_reach, "ibdmchk reachability, {what}");
        // and ours agree with ibdmchk's
        let our_reach = ours.count(Code::V001) + ours.count(Code::V002) == 0;
        assert_eq!(our_reach, theirs.reachable, "reachability, {what}");
        // ibdmchk runs the credit-loop analysis only on reachable fabrics
        assert_eq!(theirs.credit_loops, want_loops, "ibdmchk loops, {what}");
        if let Some(l) = theirs.credit_loops {
            assert_eq!(ours.count(Code::V020) > 0, l, "credit loops, {what}");
        }
    }
}
