//! Loading the previous run for `compile --previous DIR`
//! (`formats/state.md`): its state and route image, checked against each
//! other and against this run (engine, options, fabric), and its tables
//! and cabling laid over the new fabric. Any reason not to trust them
//! comes back as text for note R020.

use std::path::Path;

use super::CompileArgs;
use super::incremental::state_options;
use super::job::Job;
use crate::model::state::{State, lfts_digest_of_rows};
use crate::model::table_set::TableSet;
use crate::model::{Fabric, GuidMap, Lfts, LidMap, NO_ROUTE, OutFile, PathSl, Routing};

/// The previous run over the new fabric.
pub(super) struct Loaded {
    pub old: Lfts,
    pub new_switch: Vec<bool>,
    pub new_cable: Vec<Vec<bool>>,
    pub cabling: Vec<String>,
    /// See [`crate::route::incremental::Previous::untouched_valid`].
    pub untouched_valid: bool,
    /// The previous path SLs over the new fabric, when the image carries a
    /// VL plan (escape paths keep them where they can).
    pub path_sl: Option<PathSl>,
}

/// Reads and checks the state and tables of `dir`; `Err` says why they
/// cannot be used.
pub(super) fn load(
    dir: &Path,
    args: &CompileArgs,
    job: &Job,
    (fabric, lids): (&Fabric, &LidMap),
    routing: &Routing,
) -> std::result::Result<Loaded, String> {
    if !dir.join(OutFile::State.name()).is_file() {
        // refused before its image is read (says which file is missing)
        crate::parse::state::read_state(dir)?;
    }
    // the state and the image are independent reads: overlap them (the
    // image's digest check hashes its rows, which give the tables digest)
    let (st, tables) = rayon::join(
        || crate::parse::state::read_state(dir),
        || crate::parse::lfts::read_tables_rows(dir),
    );
    let st = st?;
    if st.engine != args.engine {
        return Err(format!(
            "made by engine {}, not {}",
            st.engine.chars().take(20).collect::<String>(),
            args.engine
        ));
    }
    if st.options != state_options(args, job) {
        return Err(format!(
            "made with other options ({:?}, now {:?})",
            st.options,
            state_options(args, job)
        ));
    }
    let prev = st.fabric().map_err(|e| format!("corrupt state: {e}"))?;
    let shared = prev
        .switches()
        .iter()
        .filter(|&&n| {
            fabric
                .node_by_guid(prev.node(n).guid)
                .is_some_and(|m| fabric.is_switch(m))
        })
        .count();
    let most = prev.num_switches().max(fabric.num_switches());
    if 2 * shared < most {
        return Err(format!(
            "another fabric: {shared} of its {} switches are in this one ({})",
            prev.num_switches(),
            fabric.num_switches()
        ));
    }
    let prev_lids = LidMap::new(&prev).map_err(|e| format!("corrupt state: {e}"))?;
    let (tables, rows) = tables.map_err(|e| e.to_string())?;
    if let Some(t) = tables.switches.iter().find(|t| {
        prev.node_by_guid(t.guid)
            .and_then(|n| prev.switch_index(n))
            .is_none()
    }) {
        return Err(format!(
            "the tables name switch {}, which the state lacks",
            t.guid
        ));
    }
    if tables_digest(&tables, rows) != st.lfts_digest {
        return Err("the tables in the directory are not the ones the state describes".into());
    }
    Ok(lay_over(
        &st,
        (&prev, &prev_lids),
        &tables,
        (fabric, lids),
        routing,
    ))
}

/// The state's `lfts_digest` of the tables read from the previous
/// directory (`formats/state.md`): from their rows' SHA-256 when the
/// image's digest check gave them, else hashed here in parallel.
fn tables_digest(tables: &TableSet, rows: Option<Vec<[u8; 32]>>) -> String {
    let digests = rows.unwrap_or_else(|| {
        let rows: Vec<&[u8]> = (0..tables.switches.len()).map(|i| tables.lft(i)).collect();
        crate::model::image::row_digests(&rows)
    });
    lfts_digest_of_rows(tables.switches.iter().map(|t| t.guid).zip(digests))
}

/// The previous run's tables and cabling laid over the new fabric.
fn lay_over(
    st: &State,
    (prev, prev_lids): (&Fabric, &LidMap),
    tables: &TableSet,
    (fabric, lids): (&Fabric, &LidMap),
    routing: &Routing,
) -> Loaded {
    let ix = table_rows(prev, tables, fabric);
    let old = old_rows(prev_lids, tables, &ix, routing.lfts.top());
    let path_sl = old_path_sls(tables, &ix, &old);
    let new_switch: Vec<bool> = fabric
        .switches()
        .iter()
        .map(|&n| {
            prev.node_by_guid(fabric.node(n).guid)
                .and_then(|m| prev.switch_index(m))
                .is_none()
        })
        .collect();
    let new_cable: Vec<Vec<bool>> = fabric
        .switches()
        .iter()
        .map(|&n| {
            (0..fabric.ports(n).len() as u8)
                .map(|p| is_new_cable(prev, fabric, n, p))
                .collect()
        })
        .collect();
    let untouched_valid = st.verified_clean
        && !new_switch.iter().any(|&b| b)
        && !new_cable.iter().flatten().any(|&b| b)
        && same_lids((prev, prev_lids), (fabric, lids))
        && same_ranks(st, prev, fabric, routing.up_down_ranks());
    let report = crate::diff::cabling::compare(prev, fabric);
    let cabling = report
        .changes
        .iter()
        .take(100)
        .map(|c| format!("{:?}: {}", c.kind, c.message))
        .collect();
    Loaded {
        old,
        new_switch,
        new_cable,
        cabling,
        untouched_valid,
        path_sl,
    }
}

/// The previous image's path SLs in the new fabric's switch order (`ix`,
/// as [`table_rows`]), shaped like `old` (as far as a row reaches; SL 0
/// elsewhere).
fn old_path_sls(tables: &TableSet, ix: &[Option<usize>], old: &Lfts) -> Option<PathSl> {
    let vl = tables.vl.as_ref()?;
    let mut sl = PathSl::zeros(old);
    for (s, &i) in ix.iter().enumerate() {
        let Some(i) = i else {
            continue;
        };
        let (src, dst) = (&tables.data[vl.path_sl[i].clone()], sl.row_mut(s));
        let k = src.len().min(dst.len());
        dst[..k].copy_from_slice(&src[..k]);
    }
    Some(sl)
}

/// Per switch of the new fabric, the image row of its previous table
/// (`None` when the image or the previous fabric lacks the switch).
fn table_rows(prev: &Fabric, tables: &TableSet, fabric: &Fabric) -> Vec<Option<usize>> {
    let by_guid: GuidMap<usize> = tables
        .switches
        .iter()
        .enumerate()
        .map(|(i, t)| (t.guid, i))
        .collect();
    fabric
        .switches()
        .iter()
        .map(|&n| {
            let guid = fabric.node(n).guid;
            prev.node_by_guid(guid).and_then(|m| prev.switch_index(m))?;
            by_guid.get(&guid).copied()
        })
        .collect()
}

/// The previous tables in the new fabric's switch order (`ix`, as
/// [`table_rows`]) and LID space (`top`), straight from the image's rows,
/// in parallel: a switch's row as far as the image row, the previous LID
/// space and the new one all reach, [`NO_ROUTE`] elsewhere and for
/// switches the image or the previous fabric lacks.
fn old_rows(prev_lids: &LidMap, tables: &TableSet, ix: &[Option<usize>], top: u16) -> Lfts {
    use rayon::prelude::*;
    let prev_stride = Lfts::new(0, prev_lids.max_lid()).stride();
    let src: Vec<Option<&[u8]>> = ix.iter().map(|i| i.map(|i| tables.lft(i))).collect();
    let mut old = Lfts::zeroed(ix.len(), top);
    old.rows_mut()
        .collect::<Vec<_>>()
        .into_par_iter()
        .zip(src)
        .for_each(|(dst, src)| {
            let src = src.unwrap_or_default();
            let k = src.len().min(prev_stride).min(dst.len());
            dst[..k].copy_from_slice(&src[..k]);
            dst[k..].fill(NO_ROUTE);
        });
    old
}

/// Every LID the new fabric assigns names the same (node, port, offset)
/// as before (LIDs that vanished are fine: nobody routes to them).
fn same_lids((prev, prev_lids): (&Fabric, &LidMap), (now, lids): (&Fabric, &LidMap)) -> bool {
    lids.iter().all(|(lid, o)| {
        prev_lids.owner(lid).is_some_and(|p| {
            prev.node(p.node).guid == now.node(o.node).guid
                && (p.port, p.offset) == (o.port, o.offset)
        })
    })
}

/// The engine gives every switch of the new fabric the up/down rank it had
/// in the previous run (or neither run has ranks), so every surviving hop
/// keeps its direction.
fn same_ranks(st: &State, prev: &Fabric, now: &Fabric, ranks: Option<&[u32]>) -> bool {
    match (st.up_down_ranks.as_deref(), ranks) {
        (None, None) => true,
        (Some(old), Some(new)) => {
            old.len() == prev.num_switches()
                && now.switches().iter().zip(new).all(|(&n, &r)| {
                    prev.node_by_guid(now.node(n).guid)
                        .and_then(|m| prev.switch_index(m))
                        .is_some_and(|ps| old[ps.ix()] == r)
                })
        }
        _ => false,
    }
}

/// Whether the cable on port `p` of node `n` of `now` is absent from `prev`
/// (matched by node GUIDs and port numbers).
fn is_new_cable(prev: &Fabric, now: &Fabric, n: crate::model::NodeIdx, p: u8) -> bool {
    let Some(peer) = now.peer(n, p) else {
        return false;
    };
    let guid = |f: &Fabric, m: crate::model::NodeIdx| f.node(m).guid;
    let Some(pn) = prev.node_by_guid(guid(now, n)) else {
        return true;
    };
    match prev.peer(pn, p) {
        Some(pp) => guid(prev, pp.node) != guid(now, peer.node) || pp.port != peer.port,
        None => true,
    }
}
