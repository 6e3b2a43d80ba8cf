//! Bounded-memory sorting for `dedupe` and `overlap`: fixed-size entries
//! (a packed key and a position, compared as bytes) are collected in memory
//! up to a budget, then sorted and spilled as runs to unnamed temporary
//! files beside the output ([`crate::cleanup::spill_file`]), and read back
//! as one sorted stream by a k-way merge. Runs are merged in rounds as
//! they are spilled ([`FAN_IN`] runs of one round make one of the next, and
//! all of them at [`MAX_OPEN`]), so a collection never holds more than
//! `MAX_OPEN` files open, whatever the number of entries (`--memory 4K` on
//! 200k records held 1,556 before, past `ulimit -n 256`). Memory is the
//! budget plus one read buffer per merged run.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::fs::File;
use std::io::{self, BufReader, BufWriter, Read, Seek, Write};
use std::path::{Path, PathBuf};

use rayon::slice::ParallelSliceMut;

/// Runs of one round merged into one run of the next (read buffers of a
/// merge: 16 x 64 KiB).
const FAN_IN: usize = 16;
/// Most run files a collection holds open: past it, all are merged into
/// one. With `dedupe`'s two collections and `overlap`'s three, a run stays
/// far within the common `ulimit -n` of 256 and 1,024.
const MAX_OPEN: usize = 32;
/// Read and write buffer of a run file.
const BUF: usize = 64 << 10;

/// Entries of `W` bytes, sorted as byte strings, spilled past a budget.
pub struct Runs<const W: usize> {
    mem: Vec<[u8; W]>,
    /// Entries held in memory before a spill.
    cap: usize,
    /// Where spill files go.
    dir: PathBuf,
    /// The run files, with their merge round (0: spilled from memory),
    /// rounds never increasing along the list.
    files: Vec<(u32, File)>,
    /// Runs spilled from memory so far.
    runs: usize,
    /// Entries pushed so far.
    pub len: u64,
}

impl<const W: usize> Runs<W> {
    /// A collection that keeps at most `budget` bytes of entries in memory
    /// (at least a few hundred entries) and spills to files in `dir`.
    pub fn new(budget: u64, dir: &Path) -> Runs<W> {
        let cap = (budget / W as u64).clamp(256, usize::MAX as u64 / 2) as usize;
        Runs {
            mem: Vec::new(),
            cap,
            dir: dir.to_path_buf(),
            files: Vec::new(),
            runs: 0,
            len: 0,
        }
    }

    /// Adds one entry (sorting and spilling the entries held when the
    /// budget is reached).
    pub fn push(&mut self, entry: [u8; W]) -> io::Result<()> {
        if self.mem.len() >= self.cap {
            self.spill()?;
        }
        if self.mem.len() == self.mem.capacity() {
            // Grow by doubling, as a Vec does, but never past the budget
            // (a doubling at 0.6 of it would take 1.2 of it); and not
            // straight to it: most inputs are far smaller than 1 GiB.
            let more = self.mem.capacity().max(1 << 12);
            self.mem.reserve_exact(more.min(self.cap - self.mem.len()));
        }
        self.mem.push(entry);
        self.len += 1;
        Ok(())
    }

    /// Runs written to disk so far.
    pub fn spilled(&self) -> usize {
        self.runs
    }

    /// Run files open now.
    #[cfg(test)]
    fn open_files(&self) -> usize {
        self.files.len()
    }

    fn spill(&mut self) -> io::Result<()> {
        self.mem.par_sort_unstable();
        let file = write_run(&self.dir, self.mem.drain(..))?;
        self.files.push((0, file));
        self.runs += 1;
        // Merge rounds: FAN_IN runs of the last round make one of the
        // next, as often as that applies.
        loop {
            let round = self.files.last().map_or(0, |f| f.0);
            let same = self.files.iter().rev().take_while(|f| f.0 == round).count();
            if same < FAN_IN {
                break;
            }
            self.merge_tail(FAN_IN, round + 1)?;
        }
        if self.files.len() >= MAX_OPEN {
            let top = self.files.first().map_or(0, |f| f.0) + 1;
            self.merge_tail(self.files.len(), top)?;
        }
        Ok(())
    }

    /// Merges the last `n` run files into one of round `round`.
    fn merge_tail(&mut self, n: usize, round: u32) -> io::Result<()> {
        let at = self.files.len() - n;
        let group: Vec<File> = self.files.drain(at..).map(|f| f.1).collect();
        let merged = write_run_fallible(&self.dir, Merge::<W>::new(group)?)?;
        self.files.push((round, merged));
        Ok(())
    }

    /// Every entry, in sorted order.
    pub fn sorted(mut self) -> io::Result<Sorted<W>> {
        if self.files.is_empty() {
            self.mem.par_sort_unstable();
            return Ok(Sorted::Mem(self.mem.into_iter()));
        }
        if !self.mem.is_empty() {
            self.spill()?;
        }
        self.mem = Vec::new();
        let mut files: Vec<File> = self.files.into_iter().map(|f| f.1).collect();
        while files.len() > FAN_IN {
            let rest = files.split_off(FAN_IN);
            let merged = Merge::<W>::new(files)?;
            let file = write_run_fallible(&self.dir, merged)?;
            files = rest;
            files.push(file);
        }
        Ok(Sorted::Merge(Merge::new(files)?))
    }
}

/// Writes `entries` (already sorted) to a new unnamed file, rewound.
fn write_run<const W: usize>(
    dir: &Path,
    entries: impl Iterator<Item = [u8; W]>,
) -> io::Result<File> {
    write_run_fallible(dir, entries.map(Ok))
}

fn write_run_fallible<const W: usize>(
    dir: &Path,
    entries: impl Iterator<Item = io::Result<[u8; W]>>,
) -> io::Result<File> {
    let file = crate::cleanup::spill_file(dir)?;
    let mut w = BufWriter::with_capacity(BUF, file);
    for e in entries {
        w.write_all(&e?)?;
    }
    let mut file = w.into_inner().map_err(|e| e.into_error())?;
    file.rewind()?;
    Ok(file)
}

/// The sorted entries of a [`Runs`].
pub enum Sorted<const W: usize> {
    /// All in memory.
    Mem(std::vec::IntoIter<[u8; W]>),
    /// Merged from run files.
    Merge(Merge<W>),
}

impl<const W: usize> Iterator for Sorted<W> {
    type Item = io::Result<[u8; W]>;
    fn next(&mut self) -> Option<Self::Item> {
        match self {
            Sorted::Mem(it) => it.next().map(Ok),
            Sorted::Merge(m) => m.next(),
        }
    }
}

/// A k-way merge of sorted run files.
pub struct Merge<const W: usize> {
    readers: Vec<BufReader<File>>,
    heap: BinaryHeap<Reverse<([u8; W], usize)>>,
    failed: bool,
}

impl<const W: usize> Merge<W> {
    fn new(files: Vec<File>) -> io::Result<Merge<W>> {
        let mut m = Merge {
            readers: files
                .into_iter()
                .map(|f| BufReader::with_capacity(BUF, f))
                .collect(),
            heap: BinaryHeap::new(),
            failed: false,
        };
        for k in 0..m.readers.len() {
            if let Some(e) = read_entry(&mut m.readers[k])? {
                m.heap.push(Reverse((e, k)));
            }
        }
        Ok(m)
    }
}

/// The next entry of a run, `None` at its end.
fn read_entry<const W: usize>(r: &mut impl Read) -> io::Result<Option<[u8; W]>> {
    let mut e = [0u8; W];
    let mut got = 0;
    while got < W {
        match r.read(&mut e[got..]) {
            Ok(0) if got == 0 => return Ok(None),
            Ok(0) => {
                return Err(io::Error::new(
                    io::ErrorKind::UnexpectedEof,
                    "a spill file ends inside an entry",
                ))
            }
            Ok(n) => got += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(Some(e))
}

impl<const W: usize> Iterator for Merge<W> {
    type Item = io::Result<[u8; W]>;
    fn next(&mut self) -> Option<Self::Item> {
        if self.failed {
            return None;
        }
        let Reverse((e, k)) = self.heap.pop()?;
        match read_entry(&mut self.readers[k]) {
            Ok(Some(next)) => self.heap.push(Reverse((next, k))),
            Ok(None) => {}
            Err(err) => {
                self.failed = true;
                return Some(Err(err));
            }
        }
        Some(Ok(e))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Spilled or not, with one merge level or two, the stream is the
    /// sorted input (checked against `sort` of a copy).
    #[test]
    fn spilled_runs_merge_into_the_sorted_input() {
        let dir = tempfile::tempdir().unwrap();
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        let entries: Vec<[u8; 5]> = (0..100_000)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                // Few distinct values: many equal entries.
                let b = (x % 3000).to_be_bytes();
                [b[4], b[5], b[6], b[7], (x >> 60) as u8]
            })
            .collect();
        let mut want = entries.clone();
        want.sort();
        // 256 entries a run: 390 runs, past FAN_IN x FAN_IN (three
        // rounds) and MAX_OPEN.
        for budget in [1u64, 5 * 1000, 1 << 30] {
            let mut runs = Runs::<5>::new(budget, dir.path());
            let mut most_open = 0;
            for &e in &entries {
                runs.push(e).unwrap();
                most_open = most_open.max(runs.open_files());
            }
            let spilled = runs.spilled();
            assert!(most_open < MAX_OPEN, "{most_open} files open");
            let got: Vec<[u8; 5]> = runs.sorted().unwrap().map(Result::unwrap).collect();
            assert_eq!(got, want, "budget {budget} ({spilled} runs)");
            if budget == 1 {
                assert!(spilled > FAN_IN * FAN_IN, "{spilled}");
            }
        }
        // Unnamed files: nothing is left in the directory, even before
        // the process ends.
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    }
}
