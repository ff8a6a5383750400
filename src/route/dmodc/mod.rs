//! Dmodc (Gliksberg et al., "High-Quality Fault Resiliency in Fat-Trees",
//! IEEE Micro 2020; seed `dmodc-fault-resiliency-in-fat-trees.txt` §3):
//! Dmodk's closed-form port choice on explicitly computed up–down costs, so
//! that degraded PGFTs keep well-balanced deterministic routes.
//!
//! Stages: [`groups`] (ranks, port groups, §3.1), [`costs`] (Procedure 1,
//! §3.2–3.3), [`dests`] (node numbering), [`routes`] (formulas (1)–(4),
//! §3.4). Every choice the paper leaves open is in `formats/dmodc.md`.

mod candidates;
pub mod costs;
pub mod dests;
pub mod escape;
mod fastdiv;
pub mod groups;
mod hits;
pub mod lanes;
pub mod lmc;
mod route_escape;
pub mod routes;
pub mod runs;
mod scratch;
pub mod spread;
mod spread_runs;
mod union;

use rayon::prelude::*;

use crate::model::{Escapes, Fabric, Lfts, LidMap, SwIdx};
use crate::route::{AltPorts, Engine, Note, Promise, RouteError, RouteOptions, Routing};

use groups::Ranked;
use routes::{RouteCtx, Scratch};

/// The Dmodc engine. `with_alt_ports` also returns the alternative port
/// sets P_{s,d} of formula (2) (`Routing::alt_ports`); they cost one list
/// per (switch, LID), so the command line (`--engine dmodc`) leaves them off.
#[derive(Clone, Copy, Debug, Default)]
pub struct Dmodc {
    pub with_alt_ports: bool,
}

impl Engine for Dmodc {
    fn name(&self) -> &'static str {
        "dmodc"
    }

    fn route(
        &self,
        fabric: &Fabric,
        lids: &LidMap,
        opts: &RouteOptions,
    ) -> Result<Routing, RouteError> {
        let ranked = Ranked::new(fabric).map_err(|message| RouteError {
            message,
            help: None,
        })?;
        let costs = costs::compute(&ranked);
        let dests = dests::build(fabric, &ranked, opts.node_order.as_deref());
        let escape = escape::compute(&ranked, &costs);
        let pairs = lanes::EscapePairs::find(&ranked, &costs, &dests, &escape);
        pairs.check_connected()?;
        let mut ctx = RouteCtx::new(&ranked, &costs, &dests, &escape);
        ctx.variant = opts.dmodc_variant;
        if ctx.variant == spread::Variant::Spread {
            ctx.nominal = Some(spread::Nominal::build(&ranked, &costs));
        }
        // Every row is filled (from NO_ROUTE up) by its own task.
        let mut lfts = Lfts::zeroed(fabric.num_switches(), lids.max_lid());
        let (alt_rows, fallback, holes) =
            fill(fabric, &ranked, &ctx, &mut lfts, self.with_alt_ports);
        let mut notes = Vec::new();
        note_gaps(fabric, &ranked, &dests, fallback, holes, &mut notes);
        let alt_ports = alt_rows.map(|rows| pack_alt(rows, lfts.stride()));
        let up_down = promise_ranks(fabric, &ranked);
        if pairs.count > 0 {
            // Escape paths break the up/down promise; the VL-aware check
            // of every channel dependency graph is what proves them.
            let (vl_plan, note) = lanes::place(fabric, lids, &lfts, &pairs, opts.vls)?;
            notes.push(note);
            return Ok(Routing {
                alt_ports,
                notes,
                vl_plan,
                layered: true,
                escapes: Some(Escapes {
                    ranks: up_down,
                    targets: pairs.suspects,
                }),
                ..Routing::new("dmodc", lfts)
            });
        }
        Ok(Routing {
            alt_ports,
            promise: Promise {
                up_down_ranks: Some(up_down),
            },
            notes,
            ..Routing::new("dmodc", lfts)
        })
    }
}

/// Dmodc's ranks as the promise counts them, from the top (OpenSM's
/// convention, see `route::Promise`): the leaf-based rank r becomes
/// max − r.
fn promise_ranks(fabric: &Fabric, ranked: &Ranked) -> Vec<u32> {
    let top = ranked.rank.iter().copied().max().unwrap_or(0) as u32;
    let mut up_down = vec![crate::model::rank::UNRANKED; fabric.num_switches()];
    for (i, s) in ranked.order.iter().enumerate() {
        up_down[s.ix()] = top - ranked.rank[i] as u32;
    }
    up_down
}

type AltRow = Vec<(u16, Vec<u8>)>;

/// Fills every LFT row in parallel (one switch per task), each from
/// [`crate::model::NO_ROUTE`] up (the tables come zeroed, [`Lfts::zeroed`]).
fn fill(
    fabric: &Fabric,
    r: &Ranked,
    ctx: &RouteCtx<'_>,
    lfts: &mut Lfts,
    alt: bool,
) -> (Option<Vec<AltRow>>, usize, usize) {
    let n = r.len();
    let rows: Vec<(AltRow, (usize, usize))> = lfts
        .rows_mut()
        .collect::<Vec<_>>()
        .into_par_iter()
        .enumerate()
        .map_init(
            || Scratch::new(n),
            |sc, (sw, row)| {
                row.fill(crate::model::NO_ROUTE);
                let mut alt_row = alt.then(Vec::new);
                let counts = match r.internal[sw] {
                    u32::MAX => {
                        fill_unranked(fabric, SwIdx(sw as u32), row);
                        (0, 0)
                    }
                    i => ctx.fill_row(i as usize, row, sc, alt_row.as_mut()),
                };
                (alt_row.unwrap_or_default(), counts)
            },
        )
        .collect();
    let fallback = rows.iter().map(|r| r.1.0).sum();
    let holes = rows.iter().map(|r| r.1.1).sum();
    (
        alt.then(|| rows.into_iter().map(|r| r.0).collect()),
        fallback,
        holes,
    )
}

/// A switch no leaf reaches routes only its own LID and its own end ports.
fn fill_unranked(fabric: &Fabric, sw: SwIdx, row: &mut [u8]) {
    let node = fabric.switch_node(sw);
    let mut put = |lid: u16, lmc: u8, port: u8| {
        let lo = lid as usize;
        let hi = (lo + usize::from(crate::model::lids_per_port(lmc))).min(row.len());
        if lid != 0 && lo < hi {
            row[lo..hi].fill(port);
        }
    };
    let own = fabric.port(node, 0);
    put(own.lid, own.lmc, 0);
    for (p, port) in fabric.ports(node).iter().enumerate().skip(1) {
        if let Some(peer) = port.peer.filter(|q| fabric.is_endpoint(q.node)) {
            let end = fabric.port(peer.node, peer.port);
            if crate::model::lids::is_assigned(end.lid) {
                put(end.lid, end.lmc, p as u8);
            }
        }
    }
}

/// Notes for what the tables route by fallback or leave unrouted.
fn note_gaps(
    fabric: &Fabric,
    r: &Ranked,
    dests: &dests::Dests,
    fallback: usize,
    holes: usize,
    notes: &mut Vec<Note>,
) {
    if !r.unranked.is_empty() {
        notes.push(Note {
            code: "D001",
            message: format!(
                "{} switches are not connected to any leaf (first {}); only their own LIDs are routed",
                r.unranked.len(),
                fabric.node(fabric.switch_node(r.unranked[0])).guid
            ),
        });
    }
    if fallback > 0 {
        notes.push(Note {
            code: "D002",
            message: format!(
                "{fallback} entries are at switches with no up-down path to the target: they take \
                 escape hops (on a shortest path to a switch that has one; used only by traffic \
                 that starts at such a switch; formats/dmodc.md §9)"
            ),
        });
    }
    if holes > 0 {
        notes.push(Note {
            code: "D004",
            message: format!(
                "{holes} entries stay unrouted: no neighbour of the switch reaches the target"
            ),
        });
    }
    if !dests.unknown_order_guids.is_empty() {
        notes.push(Note {
            code: "D003",
            message: format!(
                "{} node-order GUIDs name no compute port of the fabric and were ignored (first {})",
                dests.unknown_order_guids.len(),
                dests.unknown_order_guids[0]
            ),
        });
    }
}

/// Packs per-row (lid, ports) lists into [`AltPorts`].
fn pack_alt(rows: Vec<AltRow>, stride: usize) -> AltPorts {
    let mut offsets = Vec::with_capacity(rows.len() * stride + 1);
    let mut ports = Vec::new();
    for mut row in rows {
        row.sort_by_key(|e| e.0);
        let mut it = row.into_iter().peekable();
        for lid in 0..stride {
            offsets.push(ports.len() as u32);
            if let Some((_, p)) = it.next_if(|e| e.0 as usize == lid) {
                ports.extend(p);
            }
        }
    }
    offsets.push(ports.len() as u32);
    AltPorts {
        offsets,
        ports,
        stride,
    }
}

/// The tables as text, one line per switch (`desc: port port ...` for LIDs
/// 1..=top, `-` for no route): the layout of the worked example in
/// `formats/dmodc.md`, handy in tests.
pub fn lft_table(fabric: &Fabric, lfts: &Lfts) -> String {
    let mut out = String::new();
    for (i, &n) in fabric.switches().iter().enumerate() {
        out += &fabric.node(n).desc;
        out.push(':');
        for lid in 1..=lfts.top() {
            match lfts.get(i, lid) {
                crate::model::NO_ROUTE => out += " -",
                p => out += &format!(" {p}"),
            }
        }
        out.push('\n');
    }
    out
}
