//! The printed rows of `cargo bench --bench targets`: each figure beside
//! its target and as ratios to the machine references, and, with
//! `ROUTEC_TARGET_BEFORE`, the earlier build's figure from the same
//! alternating runs.

use std::time::Duration;

use super::{Fabric, Runs, Timed};

/// Median and range of `v` (sorted in place).
pub fn median(v: &mut [f64]) -> (f64, f64, f64) {
    v.sort_by(f64::total_cmp);
    (v[v.len() / 2], v[0], v[v.len() - 1])
}

pub fn row(name: &str, t: &Timed, f: &Fabric, target_ms: f64) {
    line(name, &mut t.now.wall.clone(), f, target_ms);
    before(t, |r| Some(r.wall.clone()));
}

pub fn stage_row(t: &Timed, stage: &str, f: &Fabric, target_ms: f64) {
    let of = |r: &Runs| {
        r.stages
            .iter()
            .find(|(s, _)| s == stage)
            .map(|(_, v)| v.clone())
    };
    if let Some(mut v) = of(&t.now) {
        line(&format!("  stage {stage}"), &mut v, f, target_ms);
        before(t, of);
    }
}

/// `name: median ms [min–max] = R × copy of the tables = R × image write;
/// target T ms: met / missed`.
fn line(name: &str, v: &mut [f64], f: &Fabric, target_ms: f64) {
    let (mid, lo, hi) = median(v);
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    eprintln!(
        "{name}: {mid:.1} ms [{lo:.1}-{hi:.1}] = {:.2} × copy of the tables ({:.1} ms) = {:.2} × image write ({:.1} ms); target ≤ {target_ms} ms: {}",
        mid / ms(f.copy),
        ms(f.copy),
        mid / ms(f.image),
        ms(f.image),
        if mid <= target_ms { "met" } else { "missed" }
    );
}

/// The earlier build's median of the figure `of` picks, runs alternating
/// with this build's (a drifting machine moves both alike), and the change.
fn before(t: &Timed, of: impl Fn(&Runs) -> Option<Vec<f64>>) {
    let (Some(mut b), Some(mut now)) = (t.before.as_ref().and_then(&of), of(&t.now)) else {
        return;
    };
    let ((was, lo, hi), (is, _, _)) = (median(&mut b), median(&mut now));
    eprintln!(
        "    before: {was:.1} ms [{lo:.1}-{hi:.1}], alternating; now {:+.1} %",
        (is / was - 1.0) * 100.0
    );
}

pub fn memory_row(t: &Timed, f: &Fabric) {
    let r = &t.now;
    if r.peak_mb.is_empty() {
        eprintln!("  peak memory: not reported (no /proc, or a build whose -v does not print it)");
        return;
    }
    let (mid, lo, hi) = median(&mut r.peak_mb.clone());
    let limit = 2.0 * f.table_mb;
    eprintln!(
        "  peak memory: {mid:.1} MB [{lo:.1}-{hi:.1}] = {:.2} × the tables ({:.1} MB); target ≤ 2 ×: {}",
        mid / f.table_mb,
        f.table_mb,
        if mid <= limit { "met" } else { "missed" }
    );
}

/// The minhop row against OpenSM's routing phase, when it was measured.
pub fn opensm_ratio(t: &Timed) {
    let Some(s) = std::env::var("ROUTEC_OPENSM_ROUTING_S")
        .ok()
        .and_then(|v| v.parse::<f64>().ok())
    else {
        eprintln!("  OpenSM ratio: set ROUTEC_OPENSM_ROUTING_S (run_osm.sh's routing_s)");
        return;
    };
    let (mid, lo, hi) = median(&mut t.now.wall.clone());
    eprintln!(
        "  OpenSM minhop routing {s:.2} s = {:.0} × this compile [{:.0}-{:.0}]; target ≥ 170 ×: {}",
        s * 1e3 / mid,
        s * 1e3 / hi,
        s * 1e3 / lo,
        if s * 1e3 / mid >= 170.0 {
            "met"
        } else {
            "missed"
        }
    );
    if let Some(b) = &t.before {
        let (was, _, _) = median(&mut b.wall.clone());
        eprintln!("    before: {:.0} ×", s * 1e3 / was);
    }
}
