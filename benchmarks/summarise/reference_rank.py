#!/usr/bin/env python3
"""Spearman's rank correlation between ranking configs by ref_aepe (the endpoint error to the
reference flow) and by the true AEPE (against the ground truth), and between photometric and
the true AEPE, from benchmarks/host/reference-rank's DIR/metrics.tsv (columns measurement_id,
label, params_json, item, name, value; item "" = the mean over the sequences): over the
configs' means, and per sequence. Ties get their average rank (Spearman's rho is then the
Pearson correlation of the ranks). The target: rho(ref_aepe, aepe) >= 0.9 over the means.
Usage: python3 -m benchmarks.summarise reference-rank DIR. Python standard library only."""
import csv
import json
import math
import os
import sys


def ranks(values):
    """1-based ranks of values, ties sharing their average rank."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    out = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            out[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return out


def pearson(a, b):
    n = len(a)
    ma, mb = sum(a) / n, sum(b) / n
    cov = sum((x - ma) * (y - mb) for x, y in zip(a, b))
    va = sum((x - ma) ** 2 for x in a)
    vb = sum((y - mb) ** 2 for y in b)
    return cov / math.sqrt(va * vb) if va > 0 and vb > 0 else float("nan")


def spearman(a, b):
    """Spearman's rho of the paired lists a, b (at least 2 pairs)."""
    return pearson(ranks(a), ranks(b))


def load(folder):
    """{item: {measurement_id: {metric: value}}} and {measurement_id: (label, params)}."""
    table, configs = {}, {}
    with open(os.path.join(folder, "metrics.tsv")) as f:
        for r in csv.DictReader(f, delimiter="\t"):
            if r["value"] == "":
                continue
            configs[r["measurement_id"]] = (r["label"], json.loads(r["params_json"]))
            table.setdefault(r["item"], {}).setdefault(r["measurement_id"], {})[r["name"]] = float(
                r["value"])
    return table, configs


def pairs(rows, x, y):
    keep = [m for m in rows.values() if x in m and y in m]
    return [m[x] for m in keep], [m[y] for m in keep]


def main(folder):
    table, configs = load(folder)
    means = table.get("", {})
    if len(means) < 2:
        print(f"reference-rank: fewer than 2 configs with figures in {folder}/metrics.tsv")
        return 1
    a, r = pairs(means, "aepe", "ref_aepe")
    rho = spearman(a, r)
    rho_photo = spearman(*pairs(means, "aepe", "photometric"))
    print(f"configs measured with both figures: {len(a)}")
    print()
    print("| ranking by | Spearman rho with the true AEPE (mean over the sequences) |")
    print("|---|---|")
    print(f"| ref_aepe (endpoint error to the reference flow) | {rho:.4f} |")
    print(f"| photometric (warped-frame error, visible pixels) | {rho_photo:.4f} |")
    print()
    items = sorted(k for k in table if k != "")
    if items:
        print("| sequence | configs | rho(ref_aepe, aepe) | rho(photometric, aepe) |")
        print("|---|---|---|---|")
        for item in items:
            ia, ir = pairs(table[item], "aepe", "ref_aepe")
            pa, pp = pairs(table[item], "aepe", "photometric")
            print(f"| {item} | {len(ia)} | {spearman(ia, ir):.4f} | {spearman(pa, pp):.4f} |")
        print()
    best_true = min(means, key=lambda m: means[m]["aepe"])
    best_ref = min(means, key=lambda m: means[m].get("ref_aepe", math.inf))
    for what, m in (("lowest true AEPE", best_true), ("lowest ref_aepe", best_ref)):
        label, params = configs[m]
        knobs = " ".join(f"{k}={params[k]:g}" for k in ("iterations", "n_warpings", "median_window")
                         if k in params)
        print(f"- {what}: {knobs}: AEPE {means[m]['aepe']:.4f}, ref_aepe "
              f"{means[m].get('ref_aepe', math.nan):.4f}")
    ok = rho >= 0.9
    print(f"- rho(ref_aepe, aepe) >= 0.9: {rho:.4f} -> {'met' if ok else '**missed**'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "results/reference-rank/host/2026-12-02"))
