#!/usr/bin/env python3
"""The check of a new default against the rule, from the committed raw rows of
tests/bench/bench_accuracy_additions (one CSV row per config and sequence): for the config
of the old defaults (BASE) and of the candidate (NEW), the AEPE (px) and AAE (deg) of each of
the 8 Middlebury sequences and their change, the means on the training 4 (Dimetrodon,
Grove3, RubberWhale, Urban3), the held-out 4 (Grove2, Hydrangea, Urban2, Venus) and all 8,
and the verdict: a new default counts when the held-out mean improves, the 8-sequence mean
improves and no sequence's AEPE is worse than BASE's by more than 0.02 px.
Usage: python3 -m benchmarks.summarise default-change FILE.csv BASE NEW > check.md
(e.g. results/accuracy-additions/host/2026-11-24/accuracy_cpu.csv defaults defaults+median5).
Exit status 0 when the rule holds, 1 when it does not, 2 for bad input.
"""
import csv
import sys

TRAIN = ["Dimetrodon", "Grove3", "RubberWhale", "Urban3"]
HELD = ["Grove2", "Hydrangea", "Urban2", "Venus"]
ALL = TRAIN + HELD
LIMIT = 0.02  # px: "no sequence worse than today's defaults by more than 0.02"


def rows_of(path, config):
    out = {}
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            if r["config"] == config:
                out[r["sequence"]] = (float(r["aepe"]), float(r["aae_deg"]), r["target"],
                                      r["variant"])
    missing = [s for s in ALL if s not in out]
    if missing:
        sys.exit(f"{path}: config '{config}' has no row for {', '.join(missing)}")
    return out


def mean(values):
    return sum(values) / len(values)


def main():
    if len(sys.argv) != 4:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    path, base, new = sys.argv[1:]
    b, n = rows_of(path, base), rows_of(path, new)
    target, variant = b[ALL[0]][2], b[ALL[0]][3]
    print(f"Check of `{new}` as the new default against `{base}` ({target}, {variant}; "
          f"raw rows: `{path}`; `python3 -m benchmarks.summarise default-change {path} {base} {new}`).\n")
    print(f"| sequence | set | AEPE {base} | AEPE {new} | change | AAE {base} | AAE {new} | "
          "change |")
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    worst = None
    for s in ALL:
        d = n[s][0] - b[s][0]
        if worst is None or d > worst[1]:
            worst = (s, d)
        print(f"| {s} | {'training' if s in TRAIN else 'held-out'} | {b[s][0]:.5f} | "
              f"{n[s][0]:.5f} | {d:+.5f} | {b[s][1]:.4f} | {n[s][1]:.4f} | "
              f"{n[s][1] - b[s][1]:+.4f} |")
    means = {}
    for name, seqs in [("training 4", TRAIN), ("held-out 4", HELD), ("all 8", ALL)]:
        mb, mn = mean([b[s][0] for s in seqs]), mean([n[s][0] for s in seqs])
        ab, an = mean([b[s][1] for s in seqs]), mean([n[s][1] for s in seqs])
        means[name] = (mb, mn)
        print(f"| **mean {name}** | | {mb:.4f} | {mn:.4f} | {mn - mb:+.4f} | {ab:.3f} | "
              f"{an:.3f} | {an - ab:+.3f} |")
    held_ok = means["held-out 4"][1] < means["held-out 4"][0]
    mean_ok = means["all 8"][1] < means["all 8"][0]
    worst_ok = worst[1] <= LIMIT
    aae_worse = [s for s in ALL if n[s][1] > b[s][1]]
    print()
    print(f"- held-out 4 mean AEPE {means['held-out 4'][0]:.4f} -> "
          f"{means['held-out 4'][1]:.4f}: {'improves' if held_ok else 'does NOT improve'}")
    print(f"- 8-sequence mean AEPE {means['all 8'][0]:.4f} -> {means['all 8'][1]:.4f}: "
          f"{'better' if mean_ok else 'NOT better'}")
    print(f"- largest per-sequence AEPE change {worst[0]} {worst[1]:+.5f} px (rule: at most "
          f"+{LIMIT} px): {'holds' if worst_ok else 'FAILS'}")
    print(f"- AAE worse on {len(aae_worse)} of 8 sequences"
          + (f" ({', '.join(aae_worse)}; the rule is on AEPE)" if aae_worse else ""))
    ok = held_ok and mean_ok and worst_ok
    print(f"- verdict: {'the rule holds' if ok else 'the rule does NOT hold'}")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
