//! Fuzz target for the whole `solve` path: detect -> chunks -> pipeline ->
//! answers. Slice and reader chunks of two sizes, on 1 and 2 threads, must
//! give byte-identical output; every answer must complete its puzzle (checked
//! here, without a solver); and `check` must agree with `solve` on which
//! records are bad. Input: a byte for the chunk size, a byte for the
//! `--size`/`--box` flags (see `common::forced`), then the file.

#![no_main]

mod common;

use std::borrow::Cow;
use std::io;
use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use sudoku_bulk::check::check_files;
use sudoku_bulk::text::detect::detect;
use sudoku_bulk::text::{Item, Layout, RecordError, Records, Shape};
use sudoku_bulk::pipeline::{self, Observer, OnError, Options, Summary, Task};

/// The 2-thread pool every parallel run shares: a pool made per run (two
/// an input) took 0.3-0.6 ms to make and end, against 0.07 ms for a run on
/// a shared pool (rayon, the loaded 2-core machine): the target ran 3-4.5k
/// inputs a second.
fn pool() -> &'static rayon::ThreadPool {
    static POOL: OnceLock<rayon::ThreadPool> = OnceLock::new();
    POOL.get_or_init(|| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .expect("a 2-thread pool")
    })
}

struct Quiet;
impl Observer for Quiet {
    fn bad_record(&mut self, _: sudoku_bulk::record::At, _: &RecordError) {}
    fn progress(&mut self, _: u64, _: u64) {}
}

fn run(
    layout: &Layout,
    data: &[u8],
    chunk: usize,
    threads: usize,
    from_reader: bool,
) -> (Summary, Vec<u8>) {
    let opts = Options {
        threads,
        chunk_bytes: chunk,
        on_error: OnError::Mark,
        line_offset: 0,
        stats: false,
        overwrite: false,
        keep_lines: false,
        crlf: false,
        fields_at: &[],
    };
    let task = Task::Solve { unique: false };
    let mut out = Vec::new();
    let summary = if from_reader {
        let chunks = pipeline::reader_chunks(data, layout, chunk);
        pipeline::run_on(Some(pool()), task, &opts, layout, chunks, &mut out, &mut Quiet)
    } else {
        let chunks = pipeline::slice_chunks(data, layout, chunk)
            .map(|c| c.map(|s| Cow::Owned(s.into_owned())))
            .collect::<Vec<io::Result<Cow<[u8]>>>>();
        pipeline::run_on(
            Some(pool()),
            task,
            &opts,
            layout,
            pipeline::Ready(chunks.into_iter()),
            &mut out,
            &mut Quiet,
        )
    }
    .expect("writing to memory cannot fail");
    (summary, out)
}

fuzz_target!(|input: &[u8]| {
    let [k, f, data @ ..] = input else {
        return;
    };
    let k = *k;
    let forced = common::forced(*f);
    let Ok(found) = detect(data, &forced) else {
        return;
    };
    let layout = &found.layout;
    // Big grids make slow inputs without finding more; 9x9 and 4x4 cover
    // every code path of the pipeline.
    if layout.boxes.side() > 9 {
        return;
    }
    let body = &data[found.skip_bytes.min(data.len())..];
    let small = 1 + usize::from(k % 64);
    let (base, out) = run(layout, body, 1 << 20, 1, false);
    for (chunk, threads, reader) in [(small, 1, true), (small, 2, false), (7, 2, true)] {
        let (s, o) = run(layout, body, chunk, threads, reader);
        assert_eq!(o, out, "chunk {chunk}, {threads} threads, reader {reader}");
        assert_eq!(s.tally, base.tally);
    }
    // One-line layouts: output line i answers record i.
    if layout.shape == Shape::Line {
        let records: Vec<&[u8]> = Records::new(layout, body)
            .map_while(|item| match item {
                Item::Record { raw, .. } => Some(raw),
                Item::End => None,
            })
            .collect();
        let lines: Vec<&[u8]> = out
            .split(|&b| b == b'\n')
            .filter(|l| !l.is_empty())
            .collect();
        assert_eq!(lines.len(), records.len());
        let n = layout.cells();
        let (mut puzzle, mut answer) = (vec![0u8; n], vec![0u8; n]);
        let mut marked = 0u64;
        for (raw, line) in records.iter().zip(&lines) {
            if line.starts_with(b"error:") {
                marked += 1;
                continue;
            }
            layout
                .parse(raw, &mut puzzle)
                .expect("an answered record parses");
            layout.parse(line, &mut answer).expect("an answer parses");
            assert!(common::valid(
                layout.boxes.rows(),
                layout.boxes.cols(),
                &puzzle,
                &answer
            ));
        }
        assert_eq!(marked, base.tally.bad);
        // `check` of the puzzles against the answers agrees.
        let mut puzzles = data[..found.skip_bytes.min(data.len())].to_vec();
        puzzles.extend_from_slice(body);
        if let Ok(report) = check_files(&puzzles, &out, &forced) {
            if report.count_mismatch.is_none() {
                assert_eq!(report.bad, base.tally.bad);
            }
        }
    }
});
