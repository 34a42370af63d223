#!/usr/bin/env python3
"""The accuracy front of TV-L1 on the GPU before and after the accuracy parameters (paper
table 2's question, Romera et al. 2023: the best accuracy within a time per frame), from the
raw CSV of bench_accuracy_additions run with ACC_GRID (one row per grid point and sequence;
points are named "iterations=10 n_warpings=1 ... warping_interp=bicubic").

Prints Markdown:
 1. per budget (1, 2, 5, 10 ms per frame): the lowest mean AEPE over the 8 Middlebury
    sequences among the points whose time per frame (mean over the 8 sequences of each
    sequence's median ms) is within the budget, for
      before   = median_window 0, texture_alpha 0, warping_interp bicubic, nl_median_window 0
                 (IPOL's space),
      after    = every point (the new parameters as dimensions),
      bicubic / bilinear = the points with that warping_interp;
    when some point has nl_median_window > 0 (the weighted non-local median, Sun, Roth,
    Black 2010, sec. 4), also `no nl` = the points with nl_median_window 0 (the first
    additions only), and `nl on` = those with it > 0;
 2. the held-out protocol: per budget the point chosen on the training 4 (Dimetrodon,
    Grove3, RubberWhale, Urban3; lowest training mean among the points whose training-4
    time is within the budget), reported on the held-out 4 (Grove2, Hydrangea, Urban2,
    Venus), before and after;
 3. paired effects: for each parameter change (warping_interp bicubic -> bilinear,
    median_window 0 -> 5, texture_alpha 0 -> 0.95), over the pairs of complete points that
    differ only in it: the number of pairs, the median change of the mean AEPE (all 8, and
    held-out 4), the pairs where it improved the held-out mean, the median change of ms/frame.
A point measured on fewer than 8 sequences (ACC_SKIP_MS skipped it: beyond the budgets, or
the run ended) counts as beyond every budget; their number is printed.
Usage: python3 -m benchmarks.summarise accuracy-front accuracy_front.csv [--budgets 1,2,5,10] > front.md
"""
import csv
import statistics
import sys

TRAIN = ["Dimetrodon", "Grove3", "RubberWhale", "Urban3"]
HELD = ["Grove2", "Hydrangea", "Urban2", "Venus"]
ALL = TRAIN + HELD
NEW = {"median_window": "0", "texture_alpha": "0", "warping_interp": "bicubic",
       "nl_median_window": "0"}


def parse_name(name):
    return dict(item.split("=", 1) for item in name.split())


def load(path):
    points = {}
    order = []
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            key = (r["variant"], r["config"])
            if key not in points:
                points[key] = {}
                order.append(key)
            points[key][r["sequence"]] = r
    return points, order


def stats(seqs):
    aepe = {s: float(seqs[s]["aepe"]) for s in ALL}
    ms = {s: float(seqs[s]["ms_median"]) for s in ALL}
    return {
        "all": statistics.mean(aepe.values()),
        "train": statistics.mean(aepe[s] for s in TRAIN),
        "held": statistics.mean(aepe[s] for s in HELD),
        "ms": statistics.mean(ms.values()),
        "ms_train": statistics.mean(ms[s] for s in TRAIN),
    }


def is_before(p):
    return all(p.get(k, v) == v for k, v in NEW.items())


def short(name):
    """The point's name without the new parameters at their defaults."""
    p = parse_name(name)
    return " ".join(f"{k}={v}" for k, v in p.items() if NEW.get(k) != v)


def best(rows, key, ms_key, budget):
    fit = [r for r in rows if r[ms_key] <= budget]
    return min(fit, key=lambda r: r[key]) if fit else None


def main(argv):
    if not argv or argv[0].startswith("-"):
        sys.exit(__doc__)
    budgets = [1.0, 2.0, 5.0, 10.0]
    if "--budgets" in argv:
        budgets = [float(b) for b in argv[argv.index("--budgets") + 1].split(",")]
    points, order = load(argv[0])
    rows, partial = [], 0
    for key in order:
        seqs = points[key]
        if not all(s in seqs for s in ALL):
            partial += 1
            continue
        r = stats(seqs)
        r["name"] = key[1]
        r["variant"] = key[0]
        r["p"] = parse_name(key[1])
        rows.append(r)
    variants = sorted({r["variant"] for r in rows})
    print(f"{len(rows)} points measured on the 8 sequences ({', '.join(variants)}); {partial} "
          "skipped after their first sequence (slower than ACC_SKIP_MS) or incomplete.\n")
    groups = [
        ("before", [r for r in rows if is_before(r["p"])]),
        ("after", rows),
        ("after, bicubic", [r for r in rows if r["p"].get("warping_interp", "bicubic") == "bicubic"]),
        ("after, bilinear", [r for r in rows if r["p"].get("warping_interp") == "bilinear"]),
    ]
    nl_values = sorted({r["p"].get("nl_median_window", "0") for r in rows} - {"0"}, key=float)
    if nl_values:
        groups = groups[:2] + [
            ("no nl", [r for r in rows if r["p"].get("nl_median_window", "0") == "0"]),
            ("nl on", [r for r in rows if r["p"].get("nl_median_window", "0") != "0"]),
        ] + groups[2:]
    print("Best mean AEPE over the 8 sequences within a time per frame (mean of the per-sequence "
          "median ms); `before` = median_window 0, texture 0, bicubic.\n")
    print("| budget (ms) | " + " | ".join(g for g, _ in groups) + " |")
    print("|---:|" + "---|" * len(groups))
    for b in budgets:
        cells = []
        for _, g in groups:
            r = best(g, "all", "ms", b)
            cells.append(f"{r['all']:.4f} ({r['ms']:.2f} ms: {short(r['name'])})" if r else "-")
        print(f"| {b:g} | " + " | ".join(cells) + " |")

    print("\nHeld out: the point with the lowest training-4 mean within the budget (training-4 "
          "time), reported on the held-out 4.\n")
    print("| budget (ms) | set | chosen point | ms/frame (8) | AEPE train 4 | AEPE held-out 4 "
          "| AEPE all 8 |")
    print("|---:|---|---|---:|---:|---:|---:|")
    for b in budgets:
        for gname, g in groups[:4 if nl_values else 2]:
            r = best(g, "train", "ms_train", b)
            if not r:
                print(f"| {b:g} | {gname} | - | | | | |")
                continue
            print(f"| {b:g} | {gname} | {short(r['name'])} | {r['ms']:.2f} | {r['train']:.4f} | "
                  f"{r['held']:.4f} | {r['all']:.4f} |")

    print("\nPaired effects (points that differ only in the parameter):\n")
    print("| change | pairs | median dAEPE all 8 | median dAEPE held-out 4 | held-out better "
          "| median d ms/frame |")
    print("|---|---:|---:|---:|---:|---:|")
    index = {r["name"]: r for r in rows}
    changes = [("warping_interp", "bicubic", "bilinear"), ("median_window", "0", "5"),
               ("texture_alpha", "0", "0.95")] + [("nl_median_window", "0", v) for v in nl_values]
    for param, a, b in changes:
        d_all, d_held, d_ms, better = [], [], [], 0
        for r in rows:
            if r["p"].get(param, NEW.get(param)) != a:
                continue
            q = dict(r["p"])
            q[param] = b
            other = index.get(" ".join(f"{k}={v}" for k, v in q.items()))
            if not other:
                continue
            d_all.append(other["all"] - r["all"])
            d_held.append(other["held"] - r["held"])
            d_ms.append(other["ms"] - r["ms"])
            better += other["held"] < r["held"]
        if not d_all:
            print(f"| {param} {a} -> {b} | 0 | | | | |")
            continue
        print(f"| {param} {a} -> {b} | {len(d_all)} | {statistics.median(d_all):+.4f} | "
              f"{statistics.median(d_held):+.4f} | {better}/{len(d_all)} | "
              f"{statistics.median(d_ms):+.2f} |")


if __name__ == "__main__":
    main(sys.argv[1:])
