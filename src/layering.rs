//! A test-only check of the crate's shape: no file imports one that imports
//! it back, directly or around a circle. Each file's imports are its
//! `crate::…` and `super::…` paths (in `use` lines, groups and inline
//! paths, outside comments and the unit tests at its end); a parent's
//! `mod child;` and calls through it are not imports. Circles are how a
//! second command layer crept in before (issue 30: `args`, `cmd`, `output`
//! and five `columnar` files in one); this keeps the data path one-way.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// A file's module path: `columnar/mod.rs` is `["columnar"]`.
fn module_of(rel: &str) -> Vec<String> {
    let mut parts: Vec<String> = rel
        .trim_end_matches(".rs")
        .split('/')
        .map(str::to_string)
        .collect();
    if matches!(
        parts.last().map(String::as_str),
        Some("mod" | "lib" | "main")
    ) {
        parts.pop();
    }
    parts
}

/// The text that counts: comments and the trailing unit tests removed.
fn code_of(text: &str) -> String {
    let body = match text.find("#[cfg(test)]\nmod tests") {
        Some(i) => &text[..i],
        None => text,
    };
    body.lines()
        .map(|l| match l.find("//") {
            Some(i) => &l[..i],
            None => l,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn is_ident_start(b: u8) -> bool {
    b.is_ascii_alphabetic() || b == b'_'
}

fn is_ident(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// Module paths named after each `prefix` (`crate::` or `super::`) in
/// `code`: `a::b::Item` gives `[a, b, Item]`; a group `{a, b::c}` gives
/// each member.
fn paths_after(code: &str, prefix: &str) -> Vec<Vec<String>> {
    let bytes = code.as_bytes();
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(i) = code[from..].find(prefix) {
        let at = from + i;
        from = at + prefix.len();
        if at > 0 && (is_ident(bytes[at - 1]) || bytes[at - 1] == b':') {
            continue;
        }
        let mut j = from;
        let mut path = Vec::new();
        loop {
            if j < bytes.len() && bytes[j] == b'{' {
                let end = code[j..].find('}').map_or(bytes.len(), |k| j + k);
                for member in code[j + 1..end].split(',') {
                    let member: Vec<String> = member
                        .trim()
                        .split("::")
                        .map(|s| s.trim().to_string())
                        .filter(|s| s.bytes().next().is_some_and(is_ident_start))
                        .collect();
                    let mut full = path.clone();
                    full.extend(member);
                    out.push(full);
                }
                break;
            }
            let start = j;
            while j < bytes.len() && is_ident(bytes[j]) {
                j += 1;
            }
            if start == j {
                out.push(path);
                break;
            }
            path.push(code[start..j].to_string());
            if code[j..].starts_with("::") {
                j += 2;
            } else {
                out.push(path);
                break;
            }
        }
    }
    out
}

/// The file-level import graph of the crate under `src`: file → files.
fn graph(src: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let mut files = BTreeMap::new();
    let mut stack = vec![src.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).expect("src is readable") {
            let path = entry.expect("a directory entry").path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let rel = path.strip_prefix(src).expect("under src");
                let rel = rel.to_string_lossy().replace('\\', "/");
                let text = std::fs::read_to_string(&path).expect("a source file");
                files.insert(rel, code_of(&text));
            }
        }
    }
    let by_module: BTreeMap<Vec<String>, String> =
        files.keys().map(|f| (module_of(f), f.clone())).collect();
    let resolve = |path: &[String]| -> Option<String> {
        (1..=path.len())
            .rev()
            .find_map(|k| by_module.get(&path[..k]).cloned())
    };
    let mut edges = BTreeMap::new();
    for (file, code) in &files {
        let here = module_of(file);
        let parent = &here[..here.len().saturating_sub(1)];
        let mut to = BTreeSet::new();
        let crate_paths = paths_after(code, "crate::");
        let super_paths = paths_after(code, "super::").into_iter().map(|p| {
            let mut full = parent.to_vec();
            full.extend(p);
            full
        });
        for path in crate_paths.into_iter().chain(super_paths) {
            if let Some(target) = resolve(&path).filter(|t| t != file) {
                to.insert(target);
            }
        }
        edges.insert(file.clone(), to);
    }
    edges
}

/// One import circle of `edges`, as a list of files, if there is any.
fn find_circle(edges: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    // Depth-first search with the path on a stack: a back edge to a file on
    // the path closes a circle.
    fn visit(
        file: &str,
        edges: &BTreeMap<String, BTreeSet<String>>,
        done: &mut BTreeSet<String>,
        path: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        if let Some(i) = path.iter().position(|p| p == file) {
            return Some(path[i..].to_vec());
        }
        if done.contains(file) {
            return None;
        }
        path.push(file.to_string());
        for next in edges.get(file).into_iter().flatten() {
            if let Some(circle) = visit(next, edges, done, path) {
                return Some(circle);
            }
        }
        path.pop();
        done.insert(file.to_string());
        None
    }
    let mut done = BTreeSet::new();
    edges
        .keys()
        .find_map(|f| visit(f, edges, &mut done, &mut Vec::new()))
}

#[test]
fn the_crate_has_no_import_circle() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let edges = graph(&src);
    assert!(edges.len() > 20, "read {} files", edges.len());
    // The reader sees real imports: the command layer uses the pipeline.
    assert!(
        edges["cmd.rs"].contains("pipeline.rs"),
        "{:?}",
        edges["cmd.rs"]
    );
    if let Some(circle) = find_circle(&edges) {
        panic!(
            "import circle: {} -> {} (each imports the next; move what they share \
             into a module below them)",
            circle.join(" -> "),
            circle[0]
        );
    }
}

#[test]
fn a_circle_is_found_and_groups_and_super_paths_count() {
    let code = "use crate::{a::X, b};\nfn f() { super::c::g(); crate::d::h(); }\n// crate::e\n";
    let paths = paths_after(&code_of(code), "crate::");
    assert_eq!(
        paths,
        vec![
            vec!["a".to_string(), "X".into()],
            vec!["b".into()],
            vec!["d".into(), "h".into()]
        ]
    );
    assert_eq!(
        paths_after(code, "super::"),
        vec![vec!["c".to_string(), "g".into()]]
    );
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    edges.insert("a.rs".into(), ["b.rs".to_string()].into());
    edges.insert("b.rs".into(), ["c.rs".to_string()].into());
    edges.insert("c.rs".into(), BTreeSet::new());
    assert_eq!(find_circle(&edges), None);
    edges.get_mut("c.rs").unwrap().insert("a.rs".into());
    assert_eq!(
        find_circle(&edges),
        Some(vec!["a.rs".to_string(), "b.rs".into(), "c.rs".into()])
    );
}
