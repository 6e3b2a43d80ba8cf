//! The fuzzers' findings on Parquet, Arrow IPC and `.npy`, kept as
//! regressions: clean errors, never a panic or an abort.

use super::*;

/// Inputs the fuzzers found (kept in fuzz/seeds), each bad input that once
/// panicked, aborted, ran for minutes or took gigabytes: now an error (exit
/// 2) naming the file, no output file, no panic, in bounded memory. Which
/// check refuses each (ours in src/columnar/guard.rs and ipc.rs, or the
/// parquet/arrow crates') and its wording are theirs: only the kind of
/// error (`bad Parquet file`, `bad Arrow IPC stream`, `.npy`) is asserted.
#[test]
fn fuzz_findings_are_clean_errors() {
    let seeds = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/seeds");
    for (file, says) in [
        // arrow-ipc 57 panicked on type NONE; a 20 TB body claim aborted.
        ("tables/regress-type-none.arrows", "bad Arrow IPC stream"),
        ("tables/regress-huge-body.arrows", "bad Arrow IPC stream"),
        ("npy/regress-multibyte-descr.npy", "is not understood"),
        // Footers claiming huge lists (parquet 57 aborted on the
        // allocation; parquet 60 bounds lists by the bytes left).
        (
            "tables/regress-parquet-huge-list.parquet",
            "bad Parquet file",
        ),
        (
            "tables/regress-parquet-field-type.parquet",
            "bad Parquet file",
        ),
        (
            "tables/regress-parquet-set-type.parquet",
            "bad Parquet file",
        ),
        // Minutes of CPU with parquet 57: a page header's list skipped
        // past the end.
        (
            "tables/regress-parquet-skip-past-end.parquet",
            "bad Parquet file",
        ),
        // 2.1 GB, even with parquet 60.1: a dictionary page claiming
        // 541098246 values in 0 bytes (its size field mistyped, then
        // well-formed).
        (
            "tables/regress-parquet-huge-dictionary.parquet",
            "bad Parquet file",
        ),
        (
            "tables/regress-parquet-huge-dictionary-clean.parquet",
            "bad Parquet file",
        ),
        // A snappy page claiming 1 MiB from 2057 bytes (read, padded with
        // zeros, exit 0 with parquet 60.1).
        (
            "tables/regress-parquet-snappy-size.parquet",
            "bad Parquet file",
        ),
        // 2 GB and 986 MB made and filled with parquet 60.1: delta pages
        // of 4 values whose lengths claim 500 and 250 million.
        (
            "tables/regress-parquet-delta-length-count.parquet",
            "bad Parquet file",
        ),
        (
            "tables/regress-parquet-delta-suffix-count.parquet",
            "bad Parquet file",
        ),
        // ZSTD pages of RLE blocks: 173 MB from 5.3 KB claiming 8004 bytes
        // (parquet 60 refuses it at the claim), and 237 MB from 7.3 KB
        // claiming as much (read whole by parquet 60.1, 241 MB).
        (
            "tables/regress-parquet-zstd-more-than-claimed.parquet",
            "bad Parquet file",
        ),
        (
            "tables/regress-parquet-zstd-bomb.parquet",
            "bad Parquet file",
        ),
    ] {
        let path = seeds.join(file);
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("out");
        let o = solve_to(&path, &out).note(file).code(2);
        let err = o.stderr();
        assert!(err.contains(says) && err.contains(file), "{err}");
        assert!(!err.contains("panicked"), "{err}");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
        // `check` reads the same way.
        let o = sb(["check"])
            .arg(&path)
            .note(format!("check {file}"))
            .code(2);
        let err = o.stderr();
        assert!(err.contains(says) && err.contains(file), "{err}");
        // From stdin: the same error, the input named as such.
        let o = sb(["solve"])
            .stdin(std::fs::read(&path).unwrap())
            .note(format!("{file} on stdin"))
            .code(2);
        let err = o.stderr();
        assert!(err.contains(says) && err.contains("<stdin>"), "{err}");
        assert!(!err.contains("panicked"), "{err}");
    }
}
