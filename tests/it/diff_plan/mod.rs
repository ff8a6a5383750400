//! `routec diff --plan`: every state an upload plan can pass through is
//! checked by an oracle written here (each source's path followed hop by
//! hop, loops by hop count, credit loops by petgraph on the channel graph
//! of those paths), against brute force over all 2^S mixtures of old and
//! new switch tables on fabrics of up to 12 switches; two hand-made cases
//! where writing everything at once loops (forwarding, credit) and the
//! plan does not; a hand-made `blocked` case (two writes, each order a
//! credit loop); a proptest over random small fabrics and changes.

mod fabrics;
mod ft2;
mod hand;
mod oracle;
mod random;

pub(crate) use fabrics::{hand_fabric, without_cable};
pub(crate) use oracle::{Rows, assert_states_safe, mixtures, oracle_paths, rows_of};
