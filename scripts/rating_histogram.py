#!/usr/bin/env python3
"""ER/EP/ED distribution of a `sudoku-bulk rate` output (`PUZZLE ER/EP/ED`
lines): a Markdown table on stdout and, with --svg FILE, a bar chart of the
three ratings per tenth (plain SVG, no plotting library needed).

    sudoku-bulk rate sample.txt -o sample.rate
    scripts/rating_histogram.py sample.rate --svg docs/rating_11plus.svg \\
        [--title "forum hardest 11+, every 97th of 48,766"]
"""
import argparse
import collections


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("rated")
    ap.add_argument("--svg")
    ap.add_argument("--title", default="")
    a = ap.parse_args()
    counts = {k: collections.Counter() for k in ("ER", "EP", "ED")}
    other = collections.Counter()
    n = 0
    for line in open(a.rated):
        f = line.split()
        if len(f) != 2 or f[1].count("/") != 2:
            other[line.split(" ", 1)[-1].strip()[:40]] += 1
            continue
        n += 1
        for k, v in zip(("ER", "EP", "ED"), f[1].split("/")):
            counts[k][v] += 1
    keys = sorted(set().union(*counts.values()), key=lambda v: (v == "unrated", float(v) if v != "unrated" else 0))
    print("| rating | ER | EP | ED |")
    print("|---|---|---|---|")
    for v in keys:
        print("| %s | %s |" % (v, " | ".join(str(counts[k][v]) for k in ("ER", "EP", "ED"))))
    print("\n%d puzzles rated%s" % (n, "; other lines: %s" % dict(other) if other else ""))
    if not a.svg:
        return
    W, H, pad, top = 760, 320, 50, 40
    peak = max(max(c.values()) for c in counts.values())
    slot = (W - 2 * pad) / max(len(keys), 1)
    bar = slot / 4
    colours = {"ER": "#1f77b4", "EP": "#ff7f0e", "ED": "#2ca02c"}
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif" font-size="11">' % (W, H),
           '<rect width="100%" height="100%" fill="white"/>',
           '<text x="%d" y="20" font-size="13">%s (%d puzzles)</text>' % (pad, a.title, n)]
    base = H - pad
    for i, v in enumerate(keys):
        x0 = pad + i * slot + bar / 2
        for j, k in enumerate(("ER", "EP", "ED")):
            h = (base - top) * counts[k][v] / peak
            out.append('<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="%s"><title>%s %s: %d</title></rect>'
                       % (x0 + j * bar, base - h, bar - 1, h, colours[k], k, v, counts[k][v]))
        out.append('<text x="%.1f" y="%d" text-anchor="middle">%s</text>' % (x0 + 1.5 * bar, base + 15, v))
    out.append('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="black"/>' % (pad, base, W - pad, base))
    out.append('<text x="%d" y="%d">0</text><text x="%d" y="%d">%d</text>' % (pad - 15, base, pad - 30, top + 4, peak))
    for j, k in enumerate(("ER", "EP", "ED")):
        out.append('<rect x="%d" y="%d" width="10" height="10" fill="%s"/><text x="%d" y="%d">%s</text>'
                   % (W - pad - 150 + j * 50, 12, colours[k], W - pad - 136 + j * 50, 21, k))
    out.append('<text x="%d" y="%d" text-anchor="middle">rating (serate scale)</text>' % (W / 2, H - 12))
    out.append("</svg>")
    with open(a.svg, "w") as f:
        f.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
