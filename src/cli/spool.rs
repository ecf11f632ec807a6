//! Rendered output that must wait for its turn: `check` renders each file's findings in its
//! first pass, out of order, and writes them in path order only once the workspace rules are
//! known. The first few megabytes wait in memory; the rest in a temporary file, read back in
//! turn, so memory stays flat however many findings a run has.

use std::fs::File;
use std::io::{Read, Seek, SeekFrom, Write};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock};

/// One piece of kept output.
pub(super) enum Kept {
    Memory(String),
    Spooled { offset: u64, len: usize },
}

pub(super) struct Spool {
    memory_budget: usize,
    in_memory: AtomicUsize,
    /// Created on first use: a run whose output fits in memory touches no disk.
    file: OnceLock<Option<SpoolFile>>,
}

struct SpoolFile {
    /// The file and where the next piece goes.
    state: Mutex<(File, u64)>,
}

impl Spool {
    pub(super) fn new(memory_budget: usize) -> Self {
        Self {
            memory_budget,
            in_memory: AtomicUsize::new(0),
            file: OnceLock::new(),
        }
    }

    /// Keeps `text`; `None` when it fits neither in memory nor on disk (the caller then
    /// renders it again in its turn).
    pub(super) fn keep(&self, text: String) -> Option<Kept> {
        let len = text.len();
        if self.in_memory.fetch_add(len, Ordering::Relaxed) + len <= self.memory_budget {
            return Some(Kept::Memory(text));
        }
        self.in_memory.fetch_sub(len, Ordering::Relaxed);
        let file = self.file.get_or_init(SpoolFile::create).as_ref()?;
        let mut state = file
            .state
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let offset = state.1;
        state.0.seek(SeekFrom::Start(offset)).ok()?;
        state.0.write_all(text.as_bytes()).ok()?;
        state.1 += len as u64;
        Some(Kept::Spooled { offset, len })
    }

    /// The text of a kept piece; `None` if the disk fails to give it back.
    pub(super) fn take(&self, kept: Kept) -> Option<String> {
        match kept {
            Kept::Memory(text) => Some(text),
            Kept::Spooled { offset, len } => {
                let file = self.file.get()?.as_ref()?;
                let mut state = file
                    .state
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner);
                state.0.seek(SeekFrom::Start(offset)).ok()?;
                let mut bytes = vec![0; len];
                state.0.read_exact(&mut bytes).ok()?;
                String::from_utf8(bytes).ok()
            }
        }
    }
}

impl SpoolFile {
    /// A file with no name (`tempfile` unlinks it at once, or asks the system to delete it on
    /// close), so nothing is left behind however the run ends.
    fn create() -> Option<Self> {
        Some(Self {
            state: Mutex::new((tempfile::tempfile().ok()?, 0)),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pieces_past_the_memory_budget_come_back_from_disk() {
        let spool = Spool::new(10);
        let pieces = ["first", "second", "", "third piece", "é✓ fourth"];
        let kept: Vec<Kept> = pieces
            .iter()
            .map(|piece| spool.keep((*piece).to_owned()).unwrap())
            .collect();
        assert!(matches!(kept[0], Kept::Memory(_)));
        assert!(matches!(kept[1], Kept::Spooled { .. }), "5 + 6 > 10");
        assert!(matches!(kept[2], Kept::Memory(_)), "empty fits");
        // Read back out of order, as a second pass may.
        let mut back: Vec<(usize, String)> = kept
            .into_iter()
            .enumerate()
            .rev()
            .map(|(index, kept)| (index, spool.take(kept).unwrap()))
            .collect();
        back.sort();
        let back: Vec<String> = back.into_iter().map(|(_, text)| text).collect();
        assert_eq!(back, pieces);
    }
}
