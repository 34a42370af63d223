#!/usr/bin/env python3
"""Report of the occlusion factor in the weighted median (nl_occlusion; Sun, Roth, Black
2010, sec. 4, eq. 10) from a bench_accuracy_additions CSV (benchmarks/run accuracy-occlusion on the
GPU, or a CPU reference's runs).

Prints Markdown:
 1. the paired table: every point measured with nl_occlusion 1 (the paper's sigmas 0.3 / 20)
    and its partner with nl_occlusion 0 (same other parameters): AEPE per sequence off -> on,
    the mean of the 8, the held-out 4 (Grove2, Hydrangea, Urban2, Venus), the training 4
    (Dimetrodon, Grove3, RubberWhale, Urban3), ms per frame (median of the sequences' medians)
    off -> on; then the count of pairs where the factor lowers the mean / the held-out 4 and
    the per-sequence wins;
 2. the front: the best mean AEPE within 1, 2, 5, 10 ms per frame with the factor off, on,
    and the held-out / training split of each;
 3. the sigmas (points with nl_occlusion 1 and other sigma_d / sigma_e than the paper's);
 4. with --committed CSV (default results/accuracy-front-fast-median/h200/2026-11-25/accuracy_front.csv when it exists):
    the nl_occlusion 0 rows against the committed run's rows of the same parameters and
    sequence (the off path should be unchanged: equal AEPE);
 5. the issue's targets (<= 0.33 within 2 ms, <= 0.30 within 10 ms, held-out not worse than
    training by more than 0.03), met or missed, with the numbers.
Usage: python3 -m benchmarks.summarise occlusion CSV [CSV ...] [--committed CSV]
"""
import csv
import os
import statistics
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TRAIN = ["Dimetrodon", "Grove3", "RubberWhale", "Urban3"]
HELD = ["Grove2", "Hydrangea", "Urban2", "Venus"]
ALL = TRAIN + HELD
NEW = ("nl_occlusion", "nl_sigma_divergence", "nl_sigma_residual")
SIGMA_DEFAULTS = {"nl_sigma_divergence": "0.3", "nl_sigma_residual": "20"}
BUDGETS = [1, 2, 5, 10]


def params_of(text):
    out = {}
    for item in text.split():
        if "=" in item:
            k, v = item.split("=", 1)
            out[k] = v
    return out


def load(paths):
    """{params key: {sequence: (aepe, ms)}}, params dicts, order of first appearance."""
    points, dicts, order = {}, {}, []
    rows = []
    for path in [paths] if isinstance(paths, str) else paths:
        with open(path) as f:
            rows += list(csv.DictReader(f))
    if True:
        for row in rows:
            p = params_of(row["params"])
            key = tuple(sorted(p.items()))
            if key not in points:
                points[key] = {}
                dicts[key] = p
                order.append(key)
            points[key][row["sequence"]] = (float(row["aepe"]), float(row["ms_median"]))
    return points, dicts, order


def stats(seqs):
    mean = lambda names: sum(seqs[s][0] for s in names) / len(names)
    return {
        "all": mean(ALL),
        "held": mean(HELD),
        "train": mean(TRAIN),
        "ms": statistics.median(seqs[s][1] for s in ALL),
        "ms_min": min(seqs[s][1] for s in ALL),
        "ms_max": max(seqs[s][1] for s in ALL),
    }


def occl_on(p):
    return p.get("nl_occlusion", "0") == "1"


def paper_sigmas(p):
    return all(p.get(k, v) == v for k, v in SIGMA_DEFAULTS.items())


def base_key(p):
    """The parameters without the factor's: the pairing key."""
    return tuple(sorted((k, v) for k, v in p.items() if k not in NEW))


def label(p):
    keys = ["iterations", "n_warpings", "zoom", "n_scales", "texture_alpha", "nl_median_window"]
    short = {"iterations": "it", "n_warpings": "w", "zoom": "z", "n_scales": "s",
             "texture_alpha": "tex", "nl_median_window": "nl"}
    return " ".join(f"{short[k]}{p.get(k, '?')}" for k in keys)


def fmt_ms(r):
    return f"{r['ms']:.2f}"


def main(argv):
    if not argv or argv[0].startswith("-"):
        sys.exit(__doc__)
    paths = []
    for a in argv:
        if a.startswith("--"):
            break
        paths.append(a)
    committed = os.path.join(ROOT, "results", "accuracy-front-fast-median", "h200", "2026-11-25", "accuracy_front.csv")
    if "--committed" in argv:
        committed = argv[argv.index("--committed") + 1]
    points, dicts, order = load(paths)
    complete = [k for k in order if all(s in points[k] for s in ALL)]
    names = ", ".join(os.path.relpath(p, ROOT) if p.startswith(ROOT) else p for p in paths)
    print(f"# Occlusion factor in the weighted median (nl_occlusion): {names}\n")
    print(f"{len(complete)} complete points of {len(order)} (8 sequences each).\n")

    off = {base_key(dicts[k]): k for k in complete if not occl_on(dicts[k])}
    pairs = []
    for k in complete:
        p = dicts[k]
        if occl_on(p) and paper_sigmas(p) and base_key(p) in off:
            pairs.append((off[base_key(p)], k))

    print("## Paired: nl_occlusion 0 -> 1 (sigma_d 0.3, sigma_e 20)\n")
    print("AEPE per sequence (off -> on), mean of 8, held-out 4, training 4, ms per frame "
          "(median over the sequences of the median frame) off -> on.\n")
    print("| point | " + " | ".join(ALL) + " | mean 8 | held-out 4 | training 4 | ms |")
    print("|---|" + "---|" * (len(ALL) + 4))
    better_all = better_held = 0
    wins = {s: 0 for s in ALL}
    deltas = []
    for a, b in pairs:
        ra, rb = stats(points[a]), stats(points[b])
        cells = []
        for s in ALL:
            x, y = points[a][s][0], points[b][s][0]
            cells.append(f"{x:.4f} -> {y:.4f}")
            wins[s] += y < x
        d = rb["all"] - ra["all"]
        deltas.append((d, rb["held"] - ra["held"], rb["train"] - ra["train"], rb["ms"] - ra["ms"]))
        better_all += d < 0
        better_held += rb["held"] < ra["held"]
        print(f"| {label(dicts[a])} | " + " | ".join(cells) +
              f" | {ra['all']:.4f} -> {rb['all']:.4f} ({d:+.4f}) | {ra['held']:.4f} -> "
              f"{rb['held']:.4f} | {ra['train']:.4f} -> {rb['train']:.4f} | "
              f"{fmt_ms(ra)} -> {fmt_ms(rb)} |")
    if pairs:
        n = len(pairs)
        med = lambda i: statistics.median(x[i] for x in deltas)
        print(f"\nThe factor lowers the mean of 8 in {better_all} of {n} pairs and the held-out 4 "
              f"in {better_held} of {n}; median change: mean 8 {med(0):+.4f} (range "
              f"{min(x[0] for x in deltas):+.4f} .. {max(x[0] for x in deltas):+.4f}), held-out 4 "
              f"{med(1):+.4f}, training 4 {med(2):+.4f}, ms per frame {med(3):+.3f}.")
        print("Pairs where it lowers each sequence's AEPE: " +
              ", ".join(f"{s} {wins[s]}/{n}" for s in ALL) + ".\n")
    else:
        print("\n(no complete pair)\n")

    print("## Front: best mean AEPE within a time per frame\n")
    print("| budget (ms) | nl_occlusion 0 | nl_occlusion 1 (paper's sigmas) |")
    print("|---|---|---|")
    best = {}
    for budget in BUDGETS:
        row = []
        for on in (False, True):
            cands = [k for k in complete if occl_on(dicts[k]) == on and
                     (not on or paper_sigmas(dicts[k])) and stats(points[k])["ms"] <= budget]
            if not cands:
                row.append("-")
                continue
            k = min(cands, key=lambda k: stats(points[k])["all"])
            r = stats(points[k])
            best[(budget, on)] = r
            row.append(f"{r['all']:.4f} (held-out {r['held']:.4f}, training {r['train']:.4f}; "
                       f"{r['ms']:.2f} ms: {label(dicts[k])})")
        print(f"| {budget} | " + " | ".join(row) + " |")
    print()

    sig = [k for k in complete if occl_on(dicts[k]) and not paper_sigmas(dicts[k])]
    if sig:
        print("## Sigmas of the factor (nl_occlusion 1)\n")
        print("| point | sigma_d | sigma_e | mean 8 | held-out 4 | training 4 | off: mean 8 |")
        print("|---|---|---|---|---|---|---|")
        for k in complete:
            p = dicts[k]
            if not occl_on(p) or not (k in sig or paper_sigmas(p)):
                continue
            same = [j for j in sig if base_key(dicts[j]) == base_key(p)]
            if not same and k not in sig:
                continue
            r = stats(points[k])
            o = off.get(base_key(p))
            ro = f"{stats(points[o])['all']:.4f}" if o else "-"
            print(f"| {label(p)} | {p.get('nl_sigma_divergence', '0.3')} | "
                  f"{p.get('nl_sigma_residual', '20')} | {r['all']:.4f} | {r['held']:.4f} | "
                  f"{r['train']:.4f} | {ro} |")
        print()

    if os.path.exists(committed):
        cpoints, cdicts, _ = load(committed)
        cindex = {base_key(cdicts[k]): k for k in cpoints}
        n = worst = 0
        for k in order:
            if occl_on(dicts[k]):
                continue
            c = cindex.get(base_key(dicts[k]))
            if not c:
                continue
            for s, (aepe, _) in points[k].items():
                if s in cpoints[c]:
                    n += 1
                    worst = max(worst, abs(aepe - cpoints[c][s][0]))
        rel = os.path.relpath(committed, ROOT)
        print(f"nl_occlusion 0 vs committed {rel}: {n} (point, sequence) rows with the same "
              f"parameters, largest |AEPE difference| {worst:.5f}.\n")

    print("## Targets\n")
    for budget, goal in ((2, 0.33), (10, 0.30)):
        for on in (False, True):
            r = best.get((budget, on))
            if not r:
                continue
            met = r["all"] <= goal and r["held"] - r["train"] <= 0.03
            print(f"- nl_occlusion {int(on)}: mean AEPE <= {goal} within {budget} ms: best "
                  f"{r['all']:.4f} at {r['ms']:.2f} ms (held-out {r['held']:.4f}, training "
                  f"{r['train']:.4f}): **{'met' if met else 'missed'}**.")


if __name__ == "__main__":
    main(sys.argv[1:])
