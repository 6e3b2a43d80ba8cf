//! NumPy `.npy` arrays in and out: the header is parsed and written here
//! (the format is one small Python-literal dict, see
//! <https://numpy.org/doc/stable/reference/generated/numpy.lib.format.html>);
//! the array itself is read straight from the memory-mapped input, a step of
//! rows at a time, and answers are written as an array of the same shape
//! and dtype. A bad row's answer is all zeros.
//!
//! ```text
//! \x93NUMPY 01 00 <u16 len> {'descr': '<i8', 'fortran_order': False, 'shape': (N, 9, 9), } <pad> \n
//! <N·81 little-endian integers, row-major>
//! ```

use crate::solver::Boxes;
use std::fmt::Write as _;

use anyhow::Context;

use super::{Job, Kind, Run, Solved, Target};
use crate::check::Report;
use crate::output::Output;
use crate::pipeline::{Tally, Task};
use crate::record::{Label, Verdict};
use crate::text::RecordError;

/// The first bytes of every `.npy` file.
pub const MAGIC: &[u8] = crate::input::NPY_MAGIC;

/// Element types accepted: little-endian integers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dtype {
    /// `|u1`
    U8,
    /// `|i1`
    I8,
    /// `<u2`
    U16,
    /// `<i2`
    I16,
    /// `<u4`
    U32,
    /// `<i4`
    I32,
    /// `<u8`
    U64,
    /// `<i8`
    I64,
}

impl Dtype {
    /// Bytes per element.
    pub fn size(self) -> usize {
        match self {
            Dtype::U8 | Dtype::I8 => 1,
            Dtype::U16 | Dtype::I16 => 2,
            Dtype::U32 | Dtype::I32 => 4,
            Dtype::U64 | Dtype::I64 => 8,
        }
    }

    /// The `descr` string NumPy writes for it.
    pub fn descr(self) -> &'static str {
        match self {
            Dtype::U8 => "|u1",
            Dtype::I8 => "|i1",
            Dtype::U16 => "<u2",
            Dtype::I16 => "<i2",
            Dtype::U32 => "<u4",
            Dtype::I32 => "<i4",
            Dtype::U64 => "<u8",
            Dtype::I64 => "<i8",
        }
    }

    fn parse(descr: &str) -> Result<Dtype, String> {
        // The byte-order mark is one ASCII byte; anything else is no dtype
        // we know (and may not split at byte 1: found by fuzz/npy).
        let Some((order, code)) = descr.split_at_checked(1) else {
            return Err(format!("dtype {descr:?} is not understood"));
        };
        let dtype = match code {
            "u1" => Dtype::U8,
            "i1" => Dtype::I8,
            "u2" => Dtype::U16,
            "i2" => Dtype::I16,
            "u4" => Dtype::U32,
            "i4" => Dtype::I32,
            "u8" => Dtype::U64,
            "i8" => Dtype::I64,
            "b1" => return Err("dtype bool: expected integers (0 = blank)".into()),
            _ => {
                return Err(format!(
                "dtype {descr:?}: expected an integer array (u1, i1, i2, i4, i8, ...; 0 = blank)"
            ))
            }
        };
        match order {
            "<" | "|" => Ok(dtype),
            "=" if cfg!(target_endian = "little") => Ok(dtype),
            ">" if dtype.size() == 1 => Ok(dtype),
            ">" => Err(format!(
                "dtype {descr:?} is big-endian; convert it with arr.astype('<{code}')"
            )),
            _ => Err(format!("dtype {descr:?} is not understood")),
        }
    }

    /// Element `i` of `data` as a number.
    #[inline]
    fn get(self, data: &[u8], i: usize) -> i128 {
        let s = self.size();
        let b = &data[i * s..(i + 1) * s];
        match self {
            Dtype::U8 => b[0] as i128,
            Dtype::I8 => b[0] as i8 as i128,
            Dtype::U16 => u16::from_le_bytes([b[0], b[1]]) as i128,
            Dtype::I16 => i16::from_le_bytes([b[0], b[1]]) as i128,
            Dtype::U32 => u32::from_le_bytes(b.try_into().expect("4 bytes")) as i128,
            Dtype::I32 => i32::from_le_bytes(b.try_into().expect("4 bytes")) as i128,
            Dtype::U64 => u64::from_le_bytes(b.try_into().expect("8 bytes")) as i128,
            Dtype::I64 => i64::from_le_bytes(b.try_into().expect("8 bytes")) as i128,
        }
    }

    /// Appends `v` (a cell value or count, never negative) in this type.
    #[inline]
    pub fn put(self, v: u64, out: &mut Vec<u8>) {
        match self.size() {
            1 => out.push(v as u8),
            2 => out.extend_from_slice(&(v as u16).to_le_bytes()),
            4 => out.extend_from_slice(&(v as u32).to_le_bytes()),
            _ => out.extend_from_slice(&v.to_le_bytes()),
        }
    }
}

/// A parsed `.npy` header.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// Element type.
    pub dtype: Dtype,
    /// The array's shape.
    pub shape: Vec<usize>,
    /// Bytes before the array data.
    pub data_offset: usize,
}

impl Header {
    /// Elements in the array.
    pub fn len(&self) -> usize {
        self.shape.iter().product()
    }

    /// True for an array without elements (the tests and the fuzz targets).
    #[cfg(any(test, feature = "internals"))]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }


    /// The grid of each row: (boxes, cells per row, leading dimensions
    /// that count rows). `(N, 81)`, `(N, 9, 9)` and their other-size
    /// twins; a lone `(81,)` or `(9, 9)` is one puzzle. A lone `(16, 16)`,
    /// `(36, 36)` or `(64, 64)` fits both readings and needs the flags.
    /// `forced` (`--box`, `--size`) gives the boxes, and the shape must fit
    /// them.
    pub fn grid(&self, forced: Option<Boxes>) -> Result<(Boxes, usize, usize), String> {
        let s = &self.shape;
        let pick = |cells: usize| match forced {
            Some(f) => (f.cells() == cells).then_some(f),
            None => super::box_of_cells(cells),
        };
        if s.len() >= 2 {
            let (a, b) = (s[s.len() - 2], s[s.len() - 1]);
            // (16, 16) is 16 rows of 4x4 puzzles or one 16x16 puzzle (so
            // are (36, 36) and (64, 64)): only the flags can tell.
            if s.len() == 2 && a == b && pick(a * a).is_some() && pick(b).is_some() {
                let (big, small) = (a, b.isqrt());
                return Err(format!(
                    "shape {}: one {big}x{big} puzzle or {a} {small}x{small} puzzles? \
                     Give --size {big} or --size {small} (or save one puzzle as \
                     (1, {big}, {big}))",
                    shape_text(s)
                ));
            }
            if let (true, Some(boxes)) = (a == b, pick(a * a)) {
                return Ok((boxes, a * a, s.len() - 2));
            }
        }
        match s.last().and_then(|&c| pick(c)) {
            Some(b) => Ok((b, s[s.len() - 1], s.len() - 1)),
            None => Err(match forced {
                Some(f) => format!(
                    "shape {}: --box/--size ask for {n}x{n} grids ({f} boxes): expected \
                     (N, {}) or (N, {n}, {n})",
                    shape_text(s),
                    f.cells(),
                    n = f.side(),
                ),
                None => format!(
                    "shape {}: expected (N, S*S) or (N, S, S) for a grid side S from 4 to 64 \
                     (81 or 9, 9 for 9x9; 36 or 6, 6 for 6x6 ...)",
                    shape_text(s)
                ),
            }),
        }
    }
}

fn shape_text(shape: &[usize]) -> String {
    match shape {
        [one] => format!("({one},)"),
        _ => format!(
            "({})",
            shape
                .iter()
                .map(usize::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// Parses the header at the start of `data`.
pub fn parse_header(data: &[u8]) -> Result<Header, String> {
    if !data.starts_with(MAGIC) {
        return Err("not a .npy file (no \\x93NUMPY magic)".into());
    }
    if data.len() < 10 {
        return Err("truncated .npy header".into());
    }
    let (len, start) = match data[6] {
        1 => (u16::from_le_bytes([data[8], data[9]]) as usize, 10),
        2 | 3 if data.len() >= 12 => (
            u32::from_le_bytes([data[8], data[9], data[10], data[11]]) as usize,
            12,
        ),
        v => {
            return Err(format!(
                ".npy format version {v}.{} is not supported",
                data[7]
            ))
        }
    };
    let text = data
        .get(start..start + len)
        .ok_or_else(|| format!("truncated .npy header ({len} bytes announced)"))?;
    let text = std::str::from_utf8(text)
        .map_err(|_| "the .npy header is not text".to_string())?
        .trim();
    let descr = dict_value(text, "descr")?;
    let descr = descr
        .strip_prefix('\'')
        .and_then(|d| d.strip_suffix('\''))
        .ok_or_else(|| format!("descr {descr} is not a simple dtype (a structured array?)"))?;
    let dtype = Dtype::parse(descr)?;
    match dict_value(text, "fortran_order")? {
        "False" => {}
        "True" => {
            return Err(
                "the array is in Fortran order; save it with np.ascontiguousarray(arr)".into(),
            )
        }
        v => return Err(format!("fortran_order {v} is not understood")),
    }
    let shape = dict_value(text, "shape")?;
    let inner = shape
        .strip_prefix('(')
        .and_then(|s| s.strip_suffix(')'))
        .ok_or_else(|| format!("shape {shape} is not a tuple"))?;
    let shape = inner
        .split(',')
        .map(str::trim)
        .filter(|d| !d.is_empty())
        .map(|d| {
            d.trim_end_matches('L')
                .parse::<usize>()
                .map_err(|_| format!("shape ({inner}) is not a tuple of sizes"))
        })
        .collect::<Result<Vec<usize>, String>>()?;
    // As NumPy refuses such an array ("array is too big"): the element
    // count (zero dimensions aside) times the element size must fit. A
    // product that wrapped would otherwise pass for a small array that
    // matches the data (`(9223372036854775809, 2, 81)` read as 2 rows)
    // and be written back with the lying shape.
    shape
        .iter()
        .filter(|&&d| d != 0)
        .try_fold(dtype.size(), |n, &d| n.checked_mul(d))
        .ok_or_else(|| {
            format!(
                "shape {} of {} is too large for any array (its size overflows)",
                shape_text(&shape),
                dtype.descr()
            )
        })?;
    Ok(Header {
        dtype,
        shape,
        data_offset: start + len,
    })
}

/// The text of `key`'s value in the header dict (a quoted string, a word,
/// or a parenthesised tuple).
fn dict_value<'a>(dict: &'a str, key: &str) -> Result<&'a str, String> {
    let missing = || format!("the .npy header has no {key:?}");
    let at = [format!("'{key}'"), format!("\"{key}\"")]
        .iter()
        .find_map(|k| dict.find(k.as_str()).map(|i| i + k.len()))
        .ok_or_else(missing)?;
    let rest = dict[at..].trim_start();
    let rest = rest.strip_prefix(':').ok_or_else(missing)?.trim_start();
    let end = if rest.starts_with('(') {
        rest.find(')').map(|i| i + 1)
    } else if let Some(q) = rest.strip_prefix('\'') {
        q.find('\'').map(|i| i + 2)
    } else {
        rest.find([',', '}'])
    }
    .ok_or_else(|| format!("the .npy header's {key:?} is not closed"))?;
    Ok(rest[..end].trim())
}

/// A version 1.0 header (2.0 when the dict is too long) for `dtype` and
/// `shape`, padded so the data starts on a 64-byte boundary as NumPy does.
pub fn write_header(dtype: Dtype, shape: &[usize]) -> Vec<u8> {
    let mut dict = String::new();
    let _ = write!(
        dict,
        "{{'descr': '{}', 'fortran_order': False, 'shape': {}, }}",
        dtype.descr(),
        shape_text(shape)
    );
    let (version, prefix) = if dict.len() + 11 < 65535 {
        (1u8, 10)
    } else {
        (2u8, 12)
    };
    let total = (prefix + dict.len() + 1).div_ceil(64) * 64;
    let len = total - prefix;
    let mut out = Vec::with_capacity(total);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&[version, 0]);
    if version == 1 {
        out.extend_from_slice(&(len as u16).to_le_bytes());
    } else {
        out.extend_from_slice(&(len as u32).to_le_bytes());
    }
    out.extend_from_slice(dict.as_bytes());
    out.resize(total - 1, b' ');
    out.push(b'\n');
    out
}

/// A `.npy` input, checked: header plus exactly the data it announces.
#[derive(Debug)]
pub struct Array<'a> {
    /// The header.
    pub header: Header,
    /// Box size of each grid.
    pub boxes: Boxes,
    /// Cells per row.
    pub cells: usize,
    /// Rows (puzzles).
    pub rows: usize,
    /// Dimensions of the shape that count rows.
    pub lead: usize,
    /// The raw array data.
    pub data: &'a [u8],
}

impl<'a> Array<'a> {
    /// Parses and checks `data` (a whole `.npy` file); `forced`: the
    /// boxes `--box`/`--size` ask for, else those of the shape's side.
    pub fn open(data: &'a [u8], forced: Option<Boxes>) -> Result<Array<'a>, String> {
        let header = parse_header(data)?;
        let (boxes, cells, lead) = header.grid(forced)?;
        let rows = header.shape[..lead].iter().product::<usize>();
        let want = header
            .len()
            .checked_mul(header.dtype.size())
            .ok_or("the shape is too large")?;
        let have = data.len() - header.data_offset.min(data.len());
        if have < want {
            return Err(format!(
                "truncated: shape {} of {} needs {want} bytes of data, the file has {have}",
                shape_text(&header.shape),
                header.dtype.descr()
            ));
        }
        if have > want {
            return Err(format!(
                "{} bytes after the array's {want} (not a single .npy array?)",
                have - want
            ));
        }
        Ok(Array {
            data: &data[header.data_offset..],
            header,
            boxes,
            cells,
            rows,
            lead,
        })
    }

    /// Decodes row `row` into `cells` (0 blank): values outside
    /// `0..=side` make the row bad.
    pub fn row(&self, row: usize, cells: &mut [u8]) -> Result<(), RecordError> {
        let side = self.boxes.side();
        let base = row * self.cells;
        let dtype = self.header.dtype;
        if dtype == Dtype::U8 {
            // The common case: the row is the cells; one pass checks them.
            let raw = &self.data[base..base + self.cells];
            cells[..self.cells].copy_from_slice(raw);
            if raw.iter().all(|&v| v as usize <= side) {
                return Ok(());
            }
        }
        for (k, c) in cells.iter_mut().enumerate().take(self.cells) {
            let v = dtype.get(self.data, base + k);
            if !(0..=side as i128).contains(&v) {
                return Err(RecordError::BadNumber {
                    cell: k + 1,
                    token: v.to_string(),
                });
            }
            *c = v as u8;
        }
        Ok(())
    }
}

/// Solves (or counts) every row of a `.npy` input and writes the answers.
pub fn run(job: &Job<'_>, data: &[u8], target: Target, out: &mut Output) -> anyhow::Result<Run> {
    let arr =
        Array::open(data, job.asked.boxes).map_err(|e| anyhow::anyhow!("{}: {e}", job.name))?;
    if let Ok(mut r) = job.reporter.lock() {
        r.set_total(arr.rows as u64);
    }
    let text = match target {
        Target::Text => true,
        Target::Columnar(Kind::Npy) => false,
        Target::Columnar(k) => anyhow::bail!(
            "{}: writing {} from a .npy input is not supported; use .npy or .txt",
            job.name,
            k.name()
        ),
    };
    if job.stats && !text {
        anyhow::bail!(
            "{}: --stats needs a table (Parquet/Arrow) or text output (-o FILE.txt)",
            job.name
        );
    }
    if let Task::Analyse(a) = job.task {
        // An array holds cells: the grid an analysis makes fits the input's
        // shape, its text fields do not.
        if !text && (a.grid_column().is_none() || !a.columns().is_empty()) {
            anyhow::bail!(
                "{}: {} writes text fields ({}), which a .npy array cannot hold; \
                 write them as text (-o FILE.txt)",
                job.name,
                a.name(),
                a.columns().join(", ")
            );
        }
    }
    let layout = crate::text::Layout::one_line(arr.boxes);
    let counting = matches!(job.task, Task::Count { .. });
    let w = out.writer();
    if !text {
        // Counts: one int64 per row, in the shape of the rows.
        let header = if counting {
            write_header(Dtype::I64, &arr.header.shape[..arr.lead])
        } else {
            write_header(arr.header.dtype, &arr.header.shape)
        };
        w.write_all(&header)
            .with_context(|| crate::output::write_what(job.output))?;
    }
    let mut tally = Tally::default();
    let mut buf = Vec::new();
    let step = if job.threads > 1 {
        PARALLEL_STEP
    } else {
        super::ROWS_PER_STEP
    };
    let solve = |first: usize| {
        let rows = (arr.rows - first).min(step);
        super::solve_step(
            job,
            arr.boxes,
            rows,
            |r, cells| arr.row(first + r, cells),
            |_, _| Label::Absent,
        )
    };
    let mut write = |first: usize, solved: &Solved| -> anyhow::Result<bool> {
        if !super::account(job, first as u64, solved, &mut tally) {
            return Ok(false);
        }
        super::write_side(job, solved)?;
        buf.clear();
        if text {
            super::write_text(job, &layout, solved, &mut buf);
        } else {
            encode(arr.header.dtype, job.task, solved, &mut buf);
        }
        w.write_all(&buf)
            .with_context(|| crate::output::write_what(job.output))?;
        Ok(true)
    };
    let firsts = (0..arr.rows).step_by(step);
    if job.threads <= 1 {
        for first in firsts {
            if !write(first, &solve(first))? {
                return Ok(Run::Failed);
            }
        }
        return Ok(Run::Done(tally));
    }
    // With several threads, steps are solved as tasks while this thread
    // writes earlier ones in order, as text chunks are: a step solved
    // across all threads waited for its slowest row before the next began,
    // and the writing was serial (.npy ran at 0.80 of plain lines at -j 2).
    let window = job.threads * 4;
    let (tx, rx) = std::sync::mpsc::channel::<(usize, Option<Solved>)>();
    let mut done = std::collections::BTreeMap::new();
    let ok = job.pool.in_place_scope(|scope| -> anyhow::Result<bool> {
        let (mut spawned, mut next) = (0, 0);
        let mut firsts = firsts.peekable();
        while next < spawned || firsts.peek().is_some() {
            while spawned - next < window {
                let Some(first) = firsts.next() else { break };
                let (tx, solve) = (tx.clone(), &solve);
                scope.spawn(move |_| {
                    // A panic still reports, so this thread never waits
                    // for a step that will not come.
                    let solved =
                        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| solve(first)));
                    let _ = tx.send((first, solved.ok()));
                });
                spawned += 1;
            }
            let (first, solved) = rx.recv().context("the worker threads stopped")?;
            let solved = solved.context("a worker thread panicked")?;
            done.insert(first, solved);
            while let Some(solved) = done.remove(&(next * step)) {
                if !write(next * step, &solved)? {
                    return Ok(false);
                }
                next += 1;
            }
        }
        Ok(true)
    })?;
    Ok(if ok { Run::Done(tally) } else { Run::Failed })
}

/// Rows a task solves with several threads: a few steps in flight per
/// thread stay a few MiB (81 bytes of answers and an outcome a row).
const PARALLEL_STEP: usize = 1 << 12;

/// Appends a step's answers (or counts, as int64) as array data.
fn encode(dtype: Dtype, task: Task, solved: &Solved, out: &mut Vec<u8>) {
    match task {
        Task::Count { .. } => {
            for o in &solved.outcomes {
                // A bad row (clashing givens) counts 0: it has no solution.
                let c = match o.verdict {
                    Verdict::Answered(c) => c as u64,
                    _ => 0,
                };
                Dtype::I64.put(c, out);
            }
        }
        // A bad row is all zeros (a blank grid), as for `solve`.
        Task::Solve { .. } | Task::Analyse(_) => {
            out.reserve(solved.answers.len() * dtype.size());
            if dtype.size() == 1 {
                out.extend_from_slice(&solved.answers);
            } else {
                for &v in &solved.answers {
                    dtype.put(v as u64, out);
                }
            }
        }
    }
}

/// `check` for `.npy`: the puzzles array against an answers array of the
/// same grid size and row count.
pub fn check(
    forced: Option<Boxes>,
    pname: &str,
    data: &[u8],
    answers: Option<(&str, super::Data<'_>)>,
) -> anyhow::Result<Report> {
    let p = Array::open(data, forced).map_err(|e| anyhow::anyhow!("{pname}: {e}"))?;
    let Some((aname, adata)) = answers else {
        anyhow::bail!("{pname}: a .npy array holds no solutions; give the answers array too");
    };
    let adata = match &adata {
        super::Data::File(_, d) => *d,
        _ => unreachable!("check reads files"),
    };
    let a = Array::open(adata, forced).map_err(|e| anyhow::anyhow!("{aname}: {e}"))?;
    if a.boxes != p.boxes {
        anyhow::bail!("{pname} / {aname}: puzzles and answers have different grid sizes");
    }
    let mut report = Report::default();
    let (mut pc, mut ac) = (vec![0u8; p.cells], vec![0u8; p.cells]);
    for row in 0..p.rows.min(a.rows) {
        let pr = p
            .row(row, &mut pc)
            .map(|()| &pc[..])
            .map_err(|e| e.to_string());
        let ar = a
            .row(row, &mut ac)
            .map(|()| &ac[..])
            .map_err(|e| e.to_string());
        super::record(&mut report, row as u64, super::check_row(p.boxes, pr, ar));
    }
    if p.rows != a.rows {
        report.count_mismatch = Some((p.rows as u64, a.rows as u64));
    }
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_round_trip_and_alignment() {
        for (dtype, shape) in [
            (Dtype::U8, vec![3, 81]),
            (Dtype::I64, vec![0, 9, 9]),
            (Dtype::I16, vec![81]),
        ] {
            let h = write_header(dtype, &shape);
            assert_eq!(h.len() % 64, 0);
            assert_eq!(*h.last().unwrap(), b'\n');
            let parsed = parse_header(&h).unwrap();
            assert_eq!(parsed.dtype, dtype);
            assert_eq!(parsed.shape, shape);
            assert_eq!(parsed.data_offset, h.len());
        }
        assert_eq!(shape_text(&[81]), "(81,)");
    }

    #[test]
    fn headers_numpy_writes_and_ones_it_refuses() {
        let h = |dict: &str| {
            let mut v = MAGIC.to_vec();
            v.extend_from_slice(&[1, 0]);
            v.extend_from_slice(&(dict.len() as u16).to_le_bytes());
            v.extend_from_slice(dict.as_bytes());
            v
        };
        let ok = parse_header(&h(
            "{'descr': '<i4', 'fortran_order': False, 'shape': (2, 9, 9), }   \n",
        ))
        .unwrap();
        assert_eq!(ok.dtype, Dtype::I32);
        assert_eq!(ok.grid(None).unwrap(), (Boxes::NINE, 81, 1));
        let err = |dict: &str| parse_header(&h(dict)).unwrap_err();
        assert!(
            err("{'descr': '>i4', 'fortran_order': False, 'shape': (2, 81), }")
                .contains("big-endian")
        );
        assert!(
            err("{'descr': '<i4', 'fortran_order': True, 'shape': (2, 81), }").contains("Fortran")
        );
        assert!(
            err("{'descr': '<f8', 'fortran_order': False, 'shape': (2, 81), }").contains("integer")
        );
        // A multi-byte first character (found by fuzz/npy), and none at all.
        assert!(
            err("{'descr': '\u{119}8', 'fortran_order': False, 'shape': (81,), }")
                .contains("not understood")
        );
        assert!(err("{'descr': '', 'fortran_order': False, 'shape': (81,), }").contains("dtype"));
        let odd = parse_header(&h(
            "{'descr': '|u1', 'fortran_order': False, 'shape': (2, 80), }",
        ))
        .unwrap();
        assert!(odd.grid(None).unwrap_err().contains("(2, 80)"));
        // A shape whose size wraps around: 2 rows of 81 by the wrapped
        // product, and a lone (2^63 + 9)^2 grid that wraps to 81 cells.
        for shape in [
            "(9223372036854775809, 2, 81)",
            "(1, 9223372036854775817, 9223372036854775817)",
        ] {
            let dict = format!("{{'descr': '|u1', 'fortran_order': False, 'shape': {shape}, }}");
            assert!(err(&dict).contains("too large"), "{shape}");
        }
        // Zero rows of a big grid are no overflow (NumPy makes them too).
        let none = parse_header(&h(
            "{'descr': '<i8', 'fortran_order': False, 'shape': (0, 64, 64), }",
        ))
        .unwrap();
        assert!(none.is_empty());
        assert!(parse_header(&MAGIC[..4]).is_err());
        assert!(parse_header(&h("{'descr': '<i4'")[..14]).is_err());
    }

    #[test]
    fn rows_decode_and_name_bad_values() {
        let mut file = write_header(Dtype::I16, &[2, 81]);
        for r in 0..2i16 {
            for k in 0..81i16 {
                let v = if r == 1 && k == 4 { -3 } else { k % 10 };
                file.extend_from_slice(&v.to_le_bytes());
            }
        }
        let arr = Array::open(&file, None).unwrap();
        assert_eq!((arr.rows, arr.cells, arr.boxes), (2, 81, Boxes::NINE));
        let mut cells = [0u8; 81];
        arr.row(0, &mut cells).unwrap();
        assert_eq!(&cells[..11], &[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0]);
        assert_eq!(
            arr.row(1, &mut cells).unwrap_err().to_string(),
            "cell 5: invalid number -3"
        );
        let cut = &file[..file.len() - 1];
        assert!(Array::open(cut, None).unwrap_err().starts_with("truncated"));
    }
}
