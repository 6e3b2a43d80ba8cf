//! The docs' examples as tests: every ```console block of README.md,
//! docs/guide.md and docs/workbench.md (the walkthrough) runs through trycmd against the shipped `data/`, so a stale
//! output, a changed message or a file the repository does not ship fails
//! `cargo test`. Blocks that cannot run here (Spark, reference tools) are
//! marked ```console,ignore in the docs, which trycmd skips.
//!
//! Each document runs in a sandbox of its own (trycmd's `NAME.in/` template,
//! copied to a temporary directory, with an empty `NAME.out/` to ask for the
//! sandbox): a copy of `data/`, where the examples' outputs (`-o
//! answers.txt`) land and later examples of the same document read them.
//! `[..]` in a block stands for what varies from run to run (times, rates).
//!
//! trycmd reads the last line end of each example's output as layout (so a
//! case can expect output without one) and wants a blank line after every
//! output; the docs show a terminal as it is, so the copies trycmd reads
//! get that blank line (`spaced`), nothing else changed.

use std::fs;
use std::path::Path;

/// `doc` with a blank line after the output of each example of its
/// ```console blocks (before the next `$ ` line and before the closing
/// fence), as trycmd's format has it.
fn spaced(doc: &str) -> String {
    let mut out = String::with_capacity(doc.len() + 1024);
    let mut in_console = false;
    let mut prev_blank = true;
    for line in doc.lines() {
        let fence = line.starts_with("```");
        if in_console && !prev_blank && (fence || line.starts_with("$ ")) {
            out.push('\n');
        }
        if fence {
            in_console = !in_console && line.trim_start_matches('`').starts_with("console");
        }
        out.push_str(line);
        out.push('\n');
        // The line after a fence or a command needs no blank line before
        // the next command.
        prev_blank = line.is_empty() || fence;
    }
    out
}

/// Copies the files of `from` (not recursive: `data/` is flat) into `to`.
fn copy_dir(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap();
    for entry in fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        if entry.file_type().unwrap().is_file() {
            fs::copy(entry.path(), to.join(entry.file_name())).unwrap();
        }
    }
}

#[test]
fn readme_and_guide_examples_run_as_written() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let tmp = tempfile::tempdir().unwrap();
    let cases = tmp.path();
    for (doc, name) in [
        ("README.md", "readme"),
        ("docs/guide.md", "guide"),
        ("docs/workbench.md", "workbench"),
    ] {
        let text = fs::read_to_string(root.join(doc)).unwrap();
        assert!(
            text.contains("```console\n$ "),
            "{doc}: no console block left to run"
        );
        fs::write(cases.join(format!("{name}.md")), spaced(&text)).unwrap();
        copy_dir(&root.join("data"), &cases.join(format!("{name}.in/data")));
        fs::create_dir_all(cases.join(format!("{name}.out"))).unwrap();
    }
    let tool = |name: &str| {
        ["/bin", "/usr/bin"]
            .into_iter()
            .map(|d| Path::new(d).join(name))
            .find(|p| p.exists())
            .unwrap_or_else(|| panic!("{name}"))
    };
    trycmd::TestCases::new()
        .register_bin("sudoku-bulk", assert_cmd::cargo::cargo_bin("sudoku-bulk"))
        .register_bin("cat", tool("cat"))
        .register_bin("head", tool("head"))
        .register_bin("cmp", tool("cmp"))
        .case(cases.join("*.md"));
}
