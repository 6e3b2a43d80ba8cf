#!/usr/bin/env python3
"""Helper of scripts/bench_big.sh (see its header for usage and the environment
variables): makes the fixed-seed big-grid sets, runs ours and the anchors on
each set back to back, prints the Markdown table and writes results.jsonl.
Run with the python of target/satenv (it imports bench_sat.py, i.e. python-sat).
"""
import json
import math
import os
import random
import selectors
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import bench_sat  # noqa: E402

# (size, blank %) of the random sets, and the default puzzles per set by size.
# 200 for 16x16 and 25x25: a nearest-rank p99 of fewer than 101 puzzles is
# the slowest puzzle, and about one 25x25 puzzle in 300 at 50% blanks takes
# 20-100x our median (and is as hard for CaDiCaL: the README's big-grid
# section), so a 50-puzzle set's "p99" was such a puzzle or not by the luck
# of the draw. The max column keeps the slowest in view.
RANDOM_SETS = [(16, 55), (16, 68), (16, 75), (25, 40), (25, 45), (25, 50), (25, 55), (25, 60),
               (36, 40), (36, 45), (36, 50), (36, 60), (49, 40), (64, 40)]
DEFAULT_PUZZLES = {16: 200, 25: 200, 36: 20, 49: 10, 64: 10}
DEFAULT_UNIQUE = {16: 30, 25: 15}


def env_int(name, default):
    v = os.environ.get(name, "")
    return int(v) if v else default


def log(msg):
    print(msg, file=sys.stderr, flush=True)


# ---------------------------------------------------------------- full grids

def pattern_grid(n):
    b = math.isqrt(n)
    return [((r % b) * b + r // b + c) % n + 1 for r in range(n) for c in range(n)]


def transform(grid, n, rng):
    """A random validity-preserving transform: digit relabel, bands, rows within
    bands, stacks, columns within stacks, transpose."""
    b = math.isqrt(n)

    def order():
        bands = list(range(b))
        rng.shuffle(bands)
        out = []
        for band in bands:
            inner = list(range(b))
            rng.shuffle(inner)
            out += [band * b + i for i in inner]
        return out

    rows, cols = order(), order()
    digits = list(range(1, n + 1))
    rng.shuffle(digits)
    transpose = rng.random() < 0.5
    out = []
    for r in range(n):
        for c in range(n):
            rr, cc = (cols[c], rows[r]) if transpose else (rows[r], cols[c])
            out.append(digits[grid[rr * n + cc] - 1])
    return out


def grid_pool(n, seed, count, cache_dir):
    """The pattern grid plus `count` grids that CaDiCaL completes from a random
    first row (deterministic: seeded first row, deterministic solver), cached."""
    path = os.path.join(cache_dir, f"grids{n}-seed{seed}-g{count}.txt")
    if os.path.exists(path):
        with open(path) as f:
            return [list(map(int, l.split())) for l in f if l.strip()]
    pool = [pattern_grid(n)]
    for g in range(count):
        rng = random.Random(f"grid/{seed}/{n}/{g}")
        first = list(range(1, n + 1))
        rng.shuffle(first)
        t = time.time()
        grid = bench_sat.solve_grid(first + [0] * (n * n - n), n)
        if grid is None or not bench_sat.valid(n, math.isqrt(n), grid, first + [0] * (n * n - n)):
            raise SystemExit(f"bench_big.py: no full {n}x{n} grid from first row {first}")
        log(f"  grid {n}x{n} #{g + 1}/{count} from a random first row: {time.time() - t:.1f}s")
        pool.append(grid)
    os.makedirs(cache_dir, exist_ok=True)
    with open(path + ".tmp", "w") as f:
        for grid in pool:
            f.write(" ".join(map(str, grid)) + "\n")
    os.replace(path + ".tmp", path)
    return pool


def random_set(n, pct, count, seed, grids, out_dir):
    """`count` puzzles: a transformed pool grid each, exactly round(pct% of the
    cells) blanked at random. Mostly multi-solution."""
    name = f"r{n}-{pct}"
    path = os.path.join(out_dir, f"{name}-seed{seed}-n{count}.txt")
    if not os.path.exists(path):
        pool = grid_pool(n, seed, grids, os.path.join(out_dir, "grids"))
        blanks = round(n * n * pct / 100)
        with open(path + ".tmp", "w") as f:
            for i in range(count):
                rng = random.Random(f"puzzle/{seed}/{n}/{pct}/{i}")
                grid = pool[i % len(pool)]
                for _ in range(3):
                    grid = transform(grid, n, rng)
                for cell in rng.sample(range(n * n), blanks):
                    grid[cell] = 0
                f.write(" ".join(map(str, grid)) + "\n")
        os.replace(path + ".tmp", path)
    return name, path


def source_version():
    """The commit the binary is built from (with "+mod" when the work tree
    differs from it): `generate`'s output for a seed changes with the solver,
    so unique sets are cached per version, never reused from another one."""
    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], check=True,
                              capture_output=True, text=True).stdout.strip()
        clean = subprocess.run(["git", "diff", "--quiet", "HEAD"]).returncode == 0
        return head if clean else head + "+mod"
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def unique_set(n, count, seed, binary, out_dir):
    """`count` unique puzzles from our `generate` (letters, `.` blank), converted
    to the numbers layout; cached per source version (see source_version)."""
    name = f"u{n}"
    path = os.path.join(out_dir, f"{name}-seed{seed}-n{count}-{source_version()}.txt")
    if not os.path.exists(path):
        t = time.time()
        log(f"  generate -n {count} --size {n} --seed {seed} (25x25: 5-30 s a puzzle a core) ...")
        out = subprocess.run([binary, "generate", "-n", str(count), "--size", str(n), "--seed", str(seed),
                              "--no-progress"], check=True, capture_output=True, text=True).stdout
        lines = [l.strip() for l in out.splitlines() if l.strip()]
        if len(lines) != count:
            raise SystemExit(f"bench_big.py: generate printed {len(lines)} puzzles, not {count}")
        with open(path + ".tmp", "w") as f:
            for l in lines:
                if len(l) != n * n:
                    raise SystemExit(f"bench_big.py: a generated {n}x{n} puzzle of {len(l)} cells")
                vals = [0 if ch in ".-0" else ord(ch) - ord("A") + 1 for ch in l]
                if any(not 0 <= v <= n for v in vals):
                    raise SystemExit(f"bench_big.py: unexpected symbol in generated puzzle {l}")
                f.write(" ".join(map(str, vals)) + "\n")
        os.replace(path + ".tmp", path)
        log(f"  generated in {time.time() - t:.0f}s")
    return name, path


def read_puzzles(path):
    with open(path) as f:
        return [l.rstrip("\n") for l in f if l.strip() and not l.startswith("#")]


# ---------------------------------------------------------------- statistics

def stats(times_ms):
    """total s, median, p90, p99, max ms. p90/p99: nearest rank (the
    ceil(q*n)-th smallest), so with 50 puzzles p99 is the largest."""
    if not times_ms:
        return {"total_s": None, "median_ms": None, "p90_ms": None, "p99_ms": None, "max_ms": None}
    v = sorted(times_ms)

    def rank(q):
        return v[max(0, math.ceil(q * len(v)) - 1)]

    return {"total_s": round(sum(v) / 1000, 6), "median_ms": round(statistics.median(v), 3),
            "p90_ms": round(rank(0.90), 3), "p99_ms": round(rank(0.99), 3), "max_ms": round(v[-1], 3)}


# ---------------------------------------------------------------- ours

def run_ours(binary, path, mode, split):
    cmd = [binary, "bench", path, "-j", "1", "--json", "--seconds", "0"]
    if mode == "count2":
        cmd += ["--mode", "unique"]
    res = {"solver": "ours", "cmd": " ".join(cmd)}
    # Ours has no per-puzzle cap of its own: the whole set gets the anchors'
    # cap per puzzle, and a set that runs past it is reported, not waited on.
    limit = float(os.environ.get("CAP_SECONDS", "60")) * len(read_puzzles(path)) + 30
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=limit)
    except subprocess.TimeoutExpired:
        res["error"] = f"over {limit:.0f} s for the set (CAP_SECONDS per puzzle)"
        return res
    try:
        j = json.loads(p.stdout)
        j = j[0] if isinstance(j, list) else j
    except (ValueError, IndexError):
        first = (p.stderr.strip().splitlines() or [""])[0]
        res["stderr"] = p.stderr.strip()[:2000]
        res["error"] = f"exit {p.returncode}: {first[:90]}{'...' if len(first) > 90 else ''}"
        return res
    res["raw"] = j
    n = j.get("puzzles", 0)
    res["puzzles"] = n
    res["total_s"] = j.get("seconds")
    for k in ("median_ms", "p90_ms", "p99_ms", "max_ms"):
        res[k] = j.get(k)
    failures = n - j.get("verified", 0)
    if mode == "count2" and "unique" in j:
        failures = max(failures, n - j["unique"])  # the unique sets hold only unique puzzles
    res["failures"] = failures + j.get("bad_records", 0)
    res["capped"] = 0
    if p.returncode not in (0, 1):
        res["error"] = f"exit {p.returncode}"
    if split and res.get("p99_ms") is None:
        # per-puzzle times from one bench run per puzzle (bench times only the solver)
        times = []
        with tempfile.TemporaryDirectory() as d:
            one = os.path.join(d, "one.txt")
            for line in read_puzzles(path):
                with open(one, "w") as f:
                    f.write(line + "\n")
                q = subprocess.run(cmd[:2] + [one] + cmd[3:], capture_output=True, text=True)
                jj = json.loads(q.stdout)
                jj = jj[0] if isinstance(jj, list) else jj
                times.append(jj["seconds"] * 1000)
        s = stats(times)
        for k in ("median_ms", "p90_ms", "p99_ms", "max_ms"):
            res[k] = s[k]
        res["percentiles_from"] = "one bench run per puzzle (OURS_SPLIT=1)"
    return res


# ---------------------------------------------------------------- anchors

def run_anchor(label, argv, path, mode, cap, slack):
    """Runs `argv FILE mode` (prints `COUNT MS [SOLUTION]` per puzzle, flushed);
    a puzzle with no line within cap + slack seconds is counted as capped, the
    program killed and restarted on the puzzles after it."""
    puzzles = read_puzzles(path)
    lines = []  # (count, ms, solution or None, note)
    env = dict(os.environ, CAP_SECONDS=str(cap))
    with tempfile.TemporaryDirectory() as d:
        while len(lines) < len(puzzles):
            rest = os.path.join(d, "rest.txt")
            with open(rest, "w") as f:
                f.write("\n".join(puzzles[len(lines):]) + "\n")
            proc = subprocess.Popen(argv + [rest, mode], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                    env=env, start_new_session=True)
            sel = selectors.DefaultSelector()
            sel.register(proc.stdout, selectors.EVENT_READ)
            buf = b""
            deadline = time.monotonic() + cap + slack
            stuck = False
            while len(lines) < len(puzzles):
                if b"\n" in buf:
                    l, buf = buf.split(b"\n", 1)
                    f = l.decode().split()
                    if len(f) < 2:
                        continue
                    lines.append((int(f[0]), float(f[1]), f[2] if len(f) > 2 and f[2] != "-" else None, ""))
                    deadline = time.monotonic() + cap + slack
                    continue
                left = deadline - time.monotonic()
                if left <= 0 or not sel.select(timeout=left):
                    if time.monotonic() >= deadline:
                        stuck = True
                        break
                    continue
                chunk = os.read(proc.stdout.fileno(), 1 << 20)
                if not chunk:
                    break  # exited
                buf += chunk
            sel.close()
            if proc.poll() is None:
                os.killpg(proc.pid, 9)
            err = proc.stderr.read().decode(errors="replace").strip()
            proc.wait()
            if len(lines) < len(puzzles):
                if stuck:
                    lines.append((-1, cap * 1000.0, None, "killed"))
                    log(f"  {label}: puzzle {len(lines)} ran past {cap}+{slack} s; killed, restarting")
                else:
                    lines.append((-3, 0.0, None, "crashed"))
                    log(f"  {label}: exited (status {proc.returncode}) at puzzle {len(lines)}: {err[:300]}")
    return lines


def check_anchor(label, lines, path, mode, cap):
    puzzles = read_puzzles(path)
    times, failures, capped, unverified = [], 0, 0, 0
    for (count, ms, sol, _), line in zip(lines, puzzles):
        n, givens = bench_sat.parse(line)
        if count == -1 or ms >= cap * 1000:
            capped += 1
            times.append(max(ms, cap * 1000.0))
            continue
        times.append(ms)
        ok = count == 1 or (count == 2 and mode == "count2" and not label_unique(path))
        if ok and sol is not None:
            grid = [int(x) for x in sol.split(",")]
            ok = bench_sat.valid(n, math.isqrt(n), grid, givens)
        elif ok:
            unverified += 1
        failures += not ok
    res = {"solver": label, "puzzles": len(puzzles), **stats(times), "failures": failures, "capped": capped}
    if unverified:
        res["unverified"] = unverified
    return res


def label_unique(path):
    return os.path.basename(path).startswith("u")


# ---------------------------------------------------------------- table

def fmt(v):
    """About 3 significant digits, no exponent."""
    if v is None:
        return "-"
    if v == 0:
        return "0"
    digits = max(0, 2 - math.floor(math.log10(abs(v))))
    return f"{v:.{digits}f}"


def ratio(a, b):
    return "-" if a is None or not b else f"{a / b:.2f}"


def main():
    root = os.path.dirname(HERE)
    os.chdir(root)
    binary = os.environ.get("BIN", "target/release/sudoku-bulk")
    out_dir = os.environ.get("OUT", "target/bench-big")
    seed = env_int("SEED", 1)
    cap = float(os.environ.get("CAP_SECONDS", "60"))
    slack = float(os.environ.get("ANCHOR_SLACK", "30"))
    grids = env_int("GRIDS", 4)
    split = os.environ.get("OURS_SPLIT", "0") == "1"
    sizes = [int(s) for s in os.environ.get("SIZES", "16 25 36 49 64").split()]
    only = os.environ.get("SETS", "").split()
    dlx = os.environ.get("DLX", "")
    sat_name, _ = bench_sat.solver_class()
    sat = [sys.executable, os.path.join(HERE, "bench_sat.py")]
    os.makedirs(os.path.join(out_dir, "sets"), exist_ok=True)

    def puzzles_for(n):
        return env_int(f"PUZZLES_{n}", env_int("PUZZLES", DEFAULT_PUZZLES[n]))

    sets = []  # (name, path, mode)
    log("sets:")
    for n, pct in RANDOM_SETS:
        if n in sizes and (not only or f"r{n}-{pct}" in only):
            name, path = random_set(n, pct, puzzles_for(n), seed, grids, os.path.join(out_dir, "sets"))
            sets.append((name, path, "first"))
    for n, k in DEFAULT_UNIQUE.items():
        if n in sizes and (not only or f"u{n}" in only):
            name, path = unique_set(n, env_int(f"UNIQUE_{n}", k), seed, binary, os.path.join(out_dir, "sets"))
            sets.append((name, path, "count2"))

    results = []
    rows = []
    for name, path, mode in sets:
        label = f"{name} {'count 2' if mode == 'count2' else 'first'}"
        log(f"{label}: ours ...")
        ours = run_ours(binary, path, mode, split)
        per = [ours]
        log(f"{label}: CaDiCaL ...")
        per.append(check_anchor("cadical", run_anchor("cadical", sat, path, mode, cap, slack), path, mode, cap))
        if dlx:
            log(f"{label}: DLX ...")
            per.append(check_anchor("dlx", run_anchor("dlx", [dlx], path, mode, cap, slack), path, mode, cap))
        for r in per:
            r.update({"set": name, "mode": mode, "file": path, "seed": seed})
            results.append(r)
        anchors = [r for r in per[1:] if r.get("total_s") is not None]
        best_total = min((r["total_s"] for r in anchors), default=None)
        best_p99 = min((r["p99_ms"] for r in anchors), default=None)
        notes = []
        for r in per:
            if r.get("error"):
                notes.append(f"{r['solver']}: {r['error']}")
            if r.get("failures"):
                notes.append(f"{r['solver']}: {r['failures']} wrong")
            if r.get("capped"):
                notes.append(f"{r['solver']}: {r['capped']} capped at {cap:g} s")
        cells = [label, str(ours.get("puzzles") or len(read_puzzles(path)))]
        for r in per + ([] if dlx else [{}]):
            cells += [fmt(r.get("total_s")), fmt(r.get("median_ms")), fmt(r.get("p99_ms")), fmt(r.get("max_ms"))]
        p99_med = ratio(ours.get("p99_ms"), ours.get("median_ms"))
        cells += [ratio(ours.get("total_s"), best_total), ratio(ours.get("p99_ms"), best_p99), p99_med,
                  "; ".join(notes)]
        rows.append(cells)

    with open(os.path.join(out_dir, "results.jsonl"), "w") as f:
        for r in results:
            f.write(json.dumps(r) + "\n")

    head = ["set", "puzzles"]
    for who in ("ours", f"CaDiCaL ({sat_name})", "DLX"):
        head += [f"{who} total s", "median ms", "p99 ms", "max ms"]
    head += ["total ours/best", "p99 ours/best", "ours p99/median", "notes"]
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for cells in rows:
        print("| " + " | ".join(cells) + " |")
    print()
    print(f"Raw results: {os.path.join(out_dir, 'results.jsonl')}; sets in {os.path.join(out_dir, 'sets')}.")


if __name__ == "__main__":
    main()
