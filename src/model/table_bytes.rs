//! The bytes behind the forwarding tables: zeroed storage that, when large,
//! lives on an anonymous map advised for 2 MB pages.
//!
//! Why: the tables are the one large buffer every compile writes in full
//! (21 MB for 11,664 hosts, 88 MB for 27,648). On 4 KB pages each first
//! write faults, and those faults (the kernel zeroing, charging and mapping
//! 5,000–22,000 pages, then unmapping them at exit) were about a tenth of a
//! whole minhop compile of 11,664 hosts (issue 17). With transparent huge
//! pages in `madvise` mode, as Debian ships them, an advised map takes one
//! fault per 2 MB. Where the kernel gives no huge page the map is ordinary
//! anonymous memory, and where the map fails the bytes go on the heap: the
//! advice changes speed, never contents.
//!
//! Measured (stop 38, a 2-core Zen 5 VM with memory to spare): the 11,664-
//! host minhop compile 8.8 K page faults instead of 13.8 K and 3–5 ms
//! faster of ≈ 65, the 27,648-host Dmodc compile 2–3 % faster. Where free
//! memory is fragmented the kernel compacts it for an advised region at
//! its first write (`defrag=madvise`): on stop 36's slower machine the same
//! advice halved the faults and gained nothing, within the noise either
//! way (`benches/HISTORY.md`).

use std::ops::{Deref, DerefMut};

/// Below this size the heap's pages are as good (and a map's rounding to
/// pages would waste more than it saves).
const MAP_FROM: usize = 4 << 20;

/// Zero-initialised bytes of a fixed length.
pub(crate) enum TableBytes {
    Heap(Vec<u8>),
    Mapped(memmap2::MmapMut),
}

impl TableBytes {
    /// `len` zero bytes, on pages nothing has touched yet.
    pub fn zeroed(len: usize) -> Self {
        if len >= MAP_FROM
            && let Ok(map) = memmap2::MmapMut::map_anon(len)
        {
            // advice only: refused (no THP in this kernel), the map still
            // works on 4 KB pages
            let _ = map.advise(memmap2::Advice::HugePage);
            return TableBytes::Mapped(map);
        }
        TableBytes::Heap(vec![0; len])
    }

    /// `len` bytes, all `byte`.
    pub fn filled(len: usize, byte: u8) -> Self {
        let mut t = Self::zeroed(len);
        if byte != 0 {
            t.fill(byte);
        }
        t
    }
}

impl Deref for TableBytes {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        match self {
            TableBytes::Heap(v) => v,
            TableBytes::Mapped(m) => m,
        }
    }
}

impl DerefMut for TableBytes {
    fn deref_mut(&mut self) -> &mut [u8] {
        match self {
            TableBytes::Heap(v) => v,
            TableBytes::Mapped(m) => m,
        }
    }
}

impl Clone for TableBytes {
    fn clone(&self) -> Self {
        let mut t = Self::zeroed(self.len());
        t.copy_from_slice(self);
        t
    }
}

impl PartialEq for TableBytes {
    fn eq(&self, other: &Self) -> bool {
        **self == **other
    }
}

impl Eq for TableBytes {}

impl std::fmt::Debug for TableBytes {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        (**self).fmt(f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_and_large_tables_hold_what_is_written() {
        for len in [0, 100, MAP_FROM, MAP_FROM + 12_345] {
            let mut t = TableBytes::filled(len, 0xFF);
            assert_eq!(t.len(), len);
            assert!(t.iter().all(|&b| b == 0xFF));
            if len > 0 {
                t[len - 1] = 7;
                let c = t.clone();
                assert_eq!(c, t);
                assert_eq!(c[len - 1], 7);
            }
            assert_eq!(
                matches!(TableBytes::zeroed(len), TableBytes::Mapped(_)),
                len >= MAP_FROM
            );
            assert!(TableBytes::zeroed(len).iter().all(|&b| b == 0));
        }
    }
}
