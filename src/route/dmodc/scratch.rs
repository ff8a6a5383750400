//! The per-thread buffers of a row computation ([`super::routes`]):
//! sized once per thread and reused row after row, so a row allocates
//! nothing.

use super::fastdiv::FastDiv;
use super::runs;

/// Per-thread buffers of one row computation.
pub struct Scratch {
    pub(super) down_mode: Vec<bool>,
    /// c[s][t] where up groups (resp. down groups) may be candidates, else
    /// 0 ([`super::routes::RouteCtx::count_candidates`]).
    pub(super) want_up: Vec<u8>,
    pub(super) want_down: Vec<u8>,
    pub(super) count: Vec<u8>,
    /// The wrapping sum of the candidates' group indices: the candidate
    /// itself where `count` is 1 (the only use).
    pub(super) first: Vec<u8>,
    pub(super) cand: Vec<u8>,
    pub(super) up_groups: Vec<u8>,
    pub(super) down_groups: Vec<u8>,
    pub(super) level_groups: Vec<u8>,
    /// Escape candidates of the row per escape column ([`super::escape::Escape::row`]):
    /// the only one (as `first`), filled on the row's first escape entry.
    pub(super) esc_first: Vec<u8>,
    /// e[s] per escape column where it can be a candidate's e + 1, else 0.
    pub(super) esc_want: Vec<u8>,
    /// How many candidates are up groups, down groups, level groups (their
    /// sum: how many there are).
    pub(super) esc_up: Vec<u8>,
    pub(super) esc_down: Vec<u8>,
    pub(super) esc_level: Vec<u8>,
    pub(super) esc_ready: bool,
    /// Port of each candidate for the current ⌊d / (Π·#C)⌋.
    pub(super) port_of_k: Vec<u8>,
    /// Π_s clamped to 2^17 (same quotients for d < 2^17), and its divider.
    pub(super) pi_val: u32,
    pub(super) pi: FastDiv,
    /// The row's up table ([`runs::up_table`]), built on first use.
    pub(super) up_table: Vec<u8>,
    pub(super) up_ready: bool,
    /// The same tables over all down groups and over all groups, for the
    /// escape entries whose candidates are those ([`super::route_escape`]).
    pub(super) down_table: Vec<u8>,
    pub(super) down_ready: bool,
    pub(super) all_table: Vec<u8>,
    pub(super) all_ready: bool,
    /// Targets the row leaves unrouted, for the `D004` count.
    pub(super) skipped: Vec<u32>,
    /// Up-table runs not copied yet ([`runs::Pending`]).
    pub(super) pending: runs::Pending,
    /// The `spread` variant's nominal table on rows with fewer up groups
    /// than nominal ones ([`super::spread_runs`]), built on first use.
    pub(super) nominal_row: super::spread_runs::NominalRow,
    pub(super) nominal_ready: bool,
}

impl Scratch {
    pub fn new(n: usize) -> Scratch {
        Scratch {
            down_mode: vec![false; n],
            want_up: vec![0; n],
            want_down: vec![0; n],
            count: vec![0; n],
            first: vec![0; n],
            cand: Vec::with_capacity(256),
            up_groups: Vec::new(),
            down_groups: Vec::new(),
            level_groups: Vec::new(),
            esc_first: Vec::new(),
            esc_want: Vec::new(),
            esc_up: Vec::new(),
            esc_down: Vec::new(),
            esc_level: Vec::new(),
            esc_ready: false,
            port_of_k: Vec::with_capacity(256),
            pi_val: 1,
            pi: FastDiv::new(1),
            up_table: Vec::new(),
            up_ready: false,
            down_table: Vec::new(),
            down_ready: false,
            all_table: Vec::new(),
            all_ready: false,
            skipped: Vec::new(),
            pending: Default::default(),
            nominal_row: Default::default(),
            nominal_ready: false,
        }
    }
}
