//! Unit tests of the balanced engine (its tables worked by hand on a ring
//! are in `tests/it/sssp/ring.rs`).

use super::*;

/// Same bytes whatever the thread count (switch LIDs run in parallel).
#[test]
fn thread_count_does_not_matter() {
    let (one, three) = crate::route::opensm::testfab::tables_on_1_and_3_threads(&Sssp);
    assert_eq!(one, three);
}
