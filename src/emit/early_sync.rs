//! A staged file's data synced while it is still being written.
//!
//! The commit syncs every staged file before it names it (`commit.rs`).
//! That sync began only once the file was written whole: the 27,648-host
//! RLFT's run waited 37–44 ms after the verdict for its 88 MB image (issue
//! 17). A thread of the file's own now syncs what has reached it every
//! few MB, so the disk works while the rest is rendered and the commit's
//! sync finds little left. `sync_data` and not `POSIX_FADV_DONTNEED`:
//! that advice starts the writeback too, and was as fast here, but it
//! also drops the pages it finds already clean, which a `check` or a
//! `compile --previous` right after would read again from disk.

use std::fs::File;
use std::sync::mpsc;

/// The syncing thread of one staged file; dropping it lets the thread end
/// after the sync under way (the commit's own sync waits for every byte).
pub(super) struct EarlySync {
    more: mpsc::Sender<()>,
}

impl EarlySync {
    /// Starts the thread on a second handle of `file`; `None` when either
    /// cannot be had (the commit's sync then does it all, as before).
    pub fn start(file: &File) -> Option<Self> {
        let file = file.try_clone().ok()?;
        let (more, asked) = mpsc::channel::<()>();
        std::thread::Builder::new()
            .name("routec-sync".into())
            .spawn(move || {
                while asked.recv().is_ok() {
                    // requests made during a sync are served by the next one
                    while asked.try_recv().is_ok() {}
                    let _ = file.sync_data();
                }
            })
            .ok()?;
        Some(EarlySync { more })
    }

    /// Asks for a sync of what the file holds now.
    pub fn request(&self) {
        let _ = self.more.send(());
    }
}
