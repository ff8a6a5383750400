//! Live comparison with the real OpenSM: generate a small irregular fabric
//! with random GUIDs, simulate it with ibsim (private `IBSIM_SOCKNAME`), let
//! OpenSM 3.3.23 route it once with minhop and with updn (and both again
//! with LMC 2, `-l 2`), read the routed
//! fabric back with ibnetdiscover, and check that routec writes OpenSM's
//! `opensm-lfts.dump` byte for byte. Skipped (with a message) when
//! `opensm`, `ibsim`, `ibnetdiscover` or libumad2sim are not installed.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::have;
use rand::{Rng, SeedableRng};
use routec::model::LidMap;
use routec::parse::{LoadOptions, load_topology};
use routec::route::{RootSpec, RouteOptions, engine_by_name};

fn umad2sim() -> Option<PathBuf> {
    let out = Command::new("dpkg")
        .args(["-L", "libumad2sim0"])
        .output()
        .ok()?;
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .find(|l| l.ends_with("libumad2sim.so"))
        .map(PathBuf::from)
        .filter(|p| p.exists())
}

/// A random connected switch graph (a spanning tree plus extra, possibly
/// parallel, cables) with 1–3 hosts per switch, as an ibsim net file.
fn random_net(seed: u64, switches: usize, radix: u8) -> String {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut free: Vec<Vec<u8>> = (0..switches).map(|_| (1..=radix).collect()).collect();
    let mut links: Vec<Vec<(u8, String, u8)>> = vec![Vec::new(); switches];
    let take = |free: &mut Vec<Vec<u8>>, rng: &mut rand_chacha::ChaCha8Rng, s: usize| {
        let i = rng.random_range(0..free[s].len());
        free[s].swap_remove(i)
    };
    for s in 1..switches {
        let t = rng.random_range(0..s);
        let (ps, pt) = (take(&mut free, &mut rng, s), take(&mut free, &mut rng, t));
        links[s].push((ps, format!("S{t}"), pt));
        links[t].push((pt, format!("S{s}"), ps));
    }
    for _ in 0..switches {
        let (a, b) = (rng.random_range(0..switches), rng.random_range(0..switches));
        if a != b && free[a].len() > 3 && free[b].len() > 3 {
            let (pa, pb) = (take(&mut free, &mut rng, a), take(&mut free, &mut rng, b));
            links[a].push((pa, format!("S{b}"), pb));
            links[b].push((pb, format!("S{a}"), pa));
        }
    }
    let mut hosts = Vec::new();
    for (s, sw_links) in links.iter_mut().enumerate() {
        for k in 0..rng.random_range(1..=3) {
            let p = take(&mut free, &mut rng, s);
            let h = format!("H{s}_{k}");
            sw_links.push((p, h.clone(), 1));
            hosts.push((h, s, p));
        }
    }
    let mut net = String::new();
    let hca =
        |net: &mut String, rng: &mut rand_chacha::ChaCha8Rng, (h, s, p): &(String, usize, u8)| {
            let guid: u64 = rng.random::<u64>() & !0xff;
            net.push_str(&format!(
                "caguid={guid:#x}\nHca\t1 \"{h}\"\n[1]\t\"S{s}\"[{p}]\n\n"
            ));
        };
    hca(&mut net, &mut rng, &hosts[0]);
    for (s, l) in links.iter_mut().enumerate() {
        l.sort();
        net.push_str(&format!(
            "switchguid={:#x}\nSwitch\t{radix} \"S{s}\"\n",
            rng.random::<u64>()
        ));
        for (p, peer, pp) in l.iter() {
            net.push_str(&format!("[{p}]\t\"{peer}\"[{pp}]\n"));
        }
        net.push('\n');
    }
    for h in &hosts[1..] {
        hca(&mut net, &mut rng, h);
    }
    net
}

/// ibsim, killed when dropped.
struct Sim(Child);

impl Drop for Sim {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn start_sim(dir: &Path, sock: &str) -> Sim {
    let log = std::fs::File::create(dir.join("ibsim.out")).unwrap();
    let child = Command::new("ibsim")
        .args(["-s", "-n"])
        .arg(dir.join("fabric.net"))
        .env("IBSIM_SOCKNAME", sock)
        .env("SIM_HOST", "H0_0")
        .stdout(log.try_clone().unwrap())
        .stderr(log)
        .spawn()
        .unwrap();
    let sim = Sim(child);
    let t0 = Instant::now();
    while !std::fs::read_to_string(dir.join("ibsim.out"))
        .unwrap_or_default()
        .contains("Network simulator ready")
    {
        assert!(
            t0.elapsed() < Duration::from_secs(20),
            "ibsim did not start"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    sim
}

/// One `opensm -o` run with `engine`, then ibnetdiscover; returns the dump.
fn run_opensm(dir: &Path, so: &Path, sock: &str, run: &str, extra: &[&str]) -> String {
    let out = dir.join(run);
    let engine = run.split('-').next().unwrap_or(run);
    std::fs::create_dir_all(out.join("cache")).unwrap();
    let status = Command::new("timeout")
        .args([
            "60",
            "opensm",
            "-o",
            "-e",
            "-s",
            "0",
            "-F",
            "/dev/null",
            "-D",
            "0x43",
            "-R",
            engine,
            "-f",
        ])
        .arg(out.join("osm.log"))
        .arg("--dump_files_dir")
        .arg(&out)
        .args(extra)
        .env("LD_PRELOAD", so)
        .env("IBSIM_SOCKNAME", sock)
        .env("SIM_HOST", "H0_0")
        .env("OSM_TMP_DIR", &out)
        .env("OSM_CACHE_DIR", out.join("cache"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .unwrap();
    assert!(status.success(), "opensm failed: see {}", out.display());
    let disc = Command::new("ibnetdiscover")
        .env("LD_PRELOAD", so)
        .env("IBSIM_SOCKNAME", sock)
        .env("SIM_HOST", "H0_0")
        .output()
        .unwrap();
    std::fs::write(out.join("ibnetdiscover.txt"), &disc.stdout).unwrap();
    std::fs::read_to_string(out.join("opensm-lfts.dump")).unwrap()
}

#[test]
fn routec_writes_what_opensm_writes_live() {
    let so = umad2sim();
    if !crate::common::peer("libumad2sim0", so.is_some()) {
        return;
    }
    let so = so.unwrap_or_default();
    let tools = ["opensm", "ibsim", "ibnetdiscover", "timeout"];
    if !crate::common::peer(
        "opensm, ibsim, ibnetdiscover",
        tools.iter().all(|t| have(t)),
    ) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("fabric.net"), random_net(0x5eed, 12, 8)).unwrap();
    let sock = format!("routec{}", std::process::id());
    let _sim = start_sim(dir.path(), &sock);
    // Two switches as up/down roots (OpenSM's -a file), for a run where the
    // heuristic is not involved.
    let net = std::fs::read_to_string(dir.path().join("fabric.net")).unwrap();
    let roots: Vec<&str> = net
        .lines()
        .filter_map(|l| l.strip_prefix("switchguid="))
        .take(2)
        .collect();
    let roots_file = dir.path().join("roots.guids");
    std::fs::write(&roots_file, roots.join("\n") + "\n").unwrap();
    let roots_arg = roots_file.to_str().unwrap();
    let root_guids: Vec<_> = roots
        .iter()
        .map(|g| routec::model::Guid::parse(g).unwrap())
        .collect();
    for (run, extra) in [
        ("minhop", vec![]),
        ("updn", vec![]),
        ("updn-roots", vec!["-a", roots_arg]),
        // LMC 2 (every CA port owns 4 LIDs; OpenSM's LMC-aware port choice)
        ("minhop-lmc2", vec!["-l", "2"]),
        ("updn-roots-lmc2", vec!["-a", roots_arg, "-l", "2"]),
    ] {
        let engine = run.split('-').next().unwrap();
        let want = run_opensm(dir.path(), &so, &sock, run, &extra);
        let log = std::fs::read_to_string(dir.path().join(run).join("osm.log")).unwrap();
        let topo = dir.path().join(run).join("ibnetdiscover.txt");
        let fabric = load_topology(&topo, &LoadOptions::default())
            .unwrap()
            .fabric;
        let lids = LidMap::new(&fabric).unwrap();
        let result = engine_by_name(engine).unwrap().route(
            &fabric,
            &lids,
            &RouteOptions {
                roots: if extra.is_empty() {
                    RootSpec::Auto
                } else {
                    RootSpec::Guids(root_guids.clone())
                },
                node_order: None,
                ..Default::default()
            },
        );
        let routing = match result {
            Ok(r) => r,
            Err(e) => {
                assert!(extra.is_empty(), "{run}: {e}");
                // updn with no root found: OpenSM fell back to minhop.
                assert!(
                    log.contains("minhop tables configured"),
                    "routec refused updn but OpenSM did not fall back"
                );
                eprintln!(
                    "{run}: no root found, OpenSM fell back to minhop, routec refused: consistent"
                );
                continue;
            }
        };
        let mut ours = Vec::new();
        routec::emit::opensm::write_lfts_dump(&fabric, &lids, &routing.lfts, &mut ours).unwrap();
        let ours = String::from_utf8(ours).unwrap();
        if ours != want {
            let line = ours
                .lines()
                .zip(want.lines())
                .position(|(a, b)| a != b)
                .unwrap_or(0);
            panic!(
                "{run}: dump differs from OpenSM's at line {}: routec {:?}, OpenSM {:?} (kept in {})",
                line + 1,
                ours.lines().nth(line),
                want.lines().nth(line),
                dir.keep().display()
            );
        }
        eprintln!(
            "{run}: {} dump lines identical to live OpenSM",
            want.lines().count()
        );
    }
}
