#!/usr/bin/env python3
"""Turns the raw CSV rows of bench_accuracy_additions (one per config and sequence) into the
accuracy-additions table, after Sun, Roth, Black 2010 (table 1): per config the mean AEPE on the
training 4 (Dimetrodon, Grove3, RubberWhale, Urban3), on the held-out 4 (Grove2, Hydrangea,
Urban2, Venus) and on all 8, the mean AAE, the time per frame (median over the 8 sequences of
each sequence's median, with min-max), the change of the held-out mean against the config's
base (the part of its name before '+', or 'defaults' for defaults_* and for a base that was
not measured), and whether a
sequence got worse than the base by more than 0.02 px (the issue's rule for a new default).
With --base CONFIG every row is compared with that config instead (e.g. the grid point
without the weighted median); rows of a config found in several files (a training-4 run and a
held-out-4 run) are joined by sequence.
Usage: python3 -m benchmarks.summarise accuracy-additions [--base CONFIG] FILE.csv [FILE.csv ...] > table.md
"""
import csv
import statistics
import sys

TRAIN = ["Dimetrodon", "Grove3", "RubberWhale", "Urban3"]
HELD = ["Grove2", "Hydrangea", "Urban2", "Venus"]


def base_of(config):
    if "+" in config:
        return config.split("+")[0]
    if config.startswith("defaults_") and config != "defaults":
        return "defaults"
    return config


def main(paths):
    forced_base = None
    if paths and paths[0] == "--base":
        forced_base, paths = paths[1], paths[2:]
    rows = {}
    order = []
    for path in paths:
        with open(path, newline="") as f:
            for r in csv.DictReader(f):
                key = (r["target"], r["variant"], r["config"])
                if key not in rows:
                    rows[key] = {}
                    order.append(key)
                rows[key][r["sequence"]] = r
    print("| target | variant | config | AEPE train 4 | AEPE held-out 4 | AEPE all 8 | AAE all 8 (deg)"
          " | ms/frame median (min-max) | held-out vs base | worst sequence vs base |")
    print("|---|---|---|---:|---:|---:|---:|---|---:|---|")
    for key in order:
        seqs = rows[key]
        if not all(s in seqs for s in TRAIN + HELD):
            missing = [s for s in TRAIN + HELD if s not in seqs]
            if all(s in seqs for s in TRAIN):  # a tuning row: the training 4 only
                train = statistics.mean(float(seqs[s]["aepe"]) for s in TRAIN)
                print(f"| {key[0]} | {key[1]} | {key[2]} | {train:.4f} | not measured "
                      f"(training only) ||||||")
                continue
            print(f"| {key[0]} | {key[1]} | {key[2]} | incomplete: missing {', '.join(missing)} |||||||")
            continue
        aepe = {s: float(seqs[s]["aepe"]) for s in TRAIN + HELD}
        train = statistics.mean(aepe[s] for s in TRAIN)
        held = statistics.mean(aepe[s] for s in HELD)
        all8 = statistics.mean(aepe.values())
        aae = statistics.mean(float(seqs[s]["aae_deg"]) for s in TRAIN + HELD)
        ms = [float(seqs[s]["ms_median"]) for s in TRAIN + HELD]
        time = f"{statistics.median(ms):.2f} ({min(ms):.2f}-{max(ms):.2f})"
        base = (key[0], key[1], forced_base or base_of(key[2]))
        if base not in rows:  # e.g. zoom0.8_k10+median5: against the defaults
            base = (key[0], key[1], "defaults")
        vs, worst = "", ""
        if base != key and base in rows and all(s in rows[base] for s in TRAIN + HELD):
            b = {s: float(rows[base][s]["aepe"]) for s in TRAIN + HELD}
            vs = f"{held - statistics.mean(b[s] for s in HELD):+.4f}"
            s_worst = max(TRAIN + HELD, key=lambda s: aepe[s] - b[s])
            d = aepe[s_worst] - b[s_worst]
            worst = f"{s_worst} {d:+.4f}" + (" (> 0.02)" if d > 0.02 else "")
        print(f"| {key[0]} | {key[1]} | {key[2]} | {train:.4f} | {held:.4f} | {all8:.4f} | {aae:.3f}"
              f" | {time} | {vs} | {worst} |")
    print()
    print("Per sequence AEPE (px):")
    print()
    print("| target | config | " + " | ".join(TRAIN + HELD) + " |")
    print("|---|---|" + "---:|" * 8)
    for key in order:
        seqs = rows[key]
        cells = [f"{float(seqs[s]['aepe']):.4f}" if s in seqs else "" for s in TRAIN + HELD]
        print(f"| {key[0]} | {key[2]} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])
