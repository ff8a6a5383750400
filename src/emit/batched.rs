//! Large text files formatted in parallel and written in order.

use std::io::{self, Write};

use rayon::prelude::*;

/// Formats `items` in parallel, a few per thread at a time, and writes the
/// pieces in `items` order: the text outputs run to hundreds of MB (GB on
/// the largest fabrics), one switch or source per piece.
pub(super) fn write_batched<T: Sync>(
    items: &[T],
    out: &mut dyn Write,
    piece: impl Fn(&T, &mut Vec<u8>) + Sync,
) -> io::Result<()> {
    let batch = 4 * rayon::current_num_threads().max(1);
    let mut bufs: Vec<Vec<u8>> = vec![Vec::new(); batch.min(items.len()).max(1)];
    for chunk in items.chunks(batch) {
        bufs[..chunk.len()]
            .par_iter_mut()
            .zip(chunk)
            .for_each(|(buf, item)| {
                buf.clear();
                piece(item, buf);
            });
        for buf in &bufs[..chunk.len()] {
            out.write_all(buf)?;
        }
    }
    Ok(())
}
