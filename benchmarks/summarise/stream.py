#!/usr/bin/env python3
"""The time per frame on a stream and what warm start buys, from benchmarks/run stream's outputs
in FOLDER: for each header (native, at_size) cold and warm (<header>_<cold|warm>.txt, the output
of `tune stream`), the steady-state median per frame with p10 and p90, the frames per second,
the mean ref_aepe and photometric error over the pairs; then per header the warm run against
the cold one (time ratio, ref_aepe change) and, cold, the header tuned at the size against the
native one (time ratio).
Usage: python3 -m benchmarks.summarise stream FOLDER. Python standard library only."""
import os
import re
import sys

STEADY = re.compile(r"^steady state \(passes 2-(\d+), (\d+) frames\): median ([0-9.e+-]+) ms "
                    r"per frame \[p10 ([0-9.e+-]+) ms, p90 ([0-9.e+-]+) ms\], ([0-9.e+-]+) frames/s")
METRIC = re.compile(r"^(ref_aepe|photometric|aepe) ([0-9.e+-]+) \(mean over the (\d+) pairs\)")
STREAM = re.compile(r"^stream: (\d+) pairs?, .*? of (\d+x\d+) frames")
RESAMPLED = re.compile(r"resampled to (\d+x\d+)")
HEADERS = (("native", "tuned at Middlebury's sizes"), ("at_size", "tuned at the size"))


def parse(path):
    """{'label', 'pairs', 'size', 'median', 'p10', 'p90', 'fps', 'frames', metric: value} of a
    `tune stream` output, or None when PATH is missing or holds no steady-state line."""
    if not os.path.exists(path) and not os.path.exists(path + ".xz"):
        return None
    out = {}
    with open(path) as f:
        lines = f.read().splitlines()
    if lines:
        out["label"] = lines[0].split(" (")[0]
    for line in lines:
        if m := STREAM.match(line):
            out["pairs"], out["size"] = int(m.group(1)), m.group(2)
            if r := RESAMPLED.search(line):  # --resolution: the size measured at
                out["size"] = r.group(1)
        elif m := STEADY.match(line):
            out["frames"] = int(m.group(2))
            out["median"], out["p10"], out["p90"], out["fps"] = map(float, m.groups()[2:])
        elif m := METRIC.match(line):
            out[m.group(1)] = float(m.group(2))
    return out if "median" in out else None


def main(folder):
    runs = {(h, w): parse(os.path.join(folder, f"{h}_{w}.txt"))
            for h, _ in HEADERS for w in ("cold", "warm")}
    print("# Time per frame on a stream, cold and warm\n")
    any_run = next((r for r in runs.values() if r), None)
    if any_run:
        print(f"{any_run.get('pairs', '?')} consecutive pairs at {any_run.get('size', '?')}, "
              f"{any_run['frames']} timed frames per run (median [p10, p90] per frame in steady "
              "state; accuracy: mean over the pairs against the reference flow).\n")
    print("| header | start | median ms [p10, p90] | frames/s | ref_aepe | photometric | config |")
    print("|---|---|---|---|---|---|---|")
    for h, what in HEADERS:
        for w in ("cold", "warm"):
            r = runs[(h, w)]
            if not r:
                print(f"| {what} | {w} | (no output) | | | | |")
                continue
            print(f"| {what} | {w} | {r['median']:.3f} [{r['p10']:.3f}, {r['p90']:.3f}] | "
                  f"{r['fps']:.0f} | {r.get('ref_aepe', float('nan')):.4f} | "
                  f"{r.get('photometric', float('nan')):.3f} | `{r.get('label', '?')}` |")
    print()
    for h, what in HEADERS:
        c, w = runs[(h, "cold")], runs[(h, "warm")]
        if c and w and "ref_aepe" in c and "ref_aepe" in w:
            change = 100.0 * (w["ref_aepe"] - c["ref_aepe"]) / c["ref_aepe"]
            print(f"- {what}: warm start {w['median'] / c['median']:.2f}x the cold time per frame, "
                  f"ref_aepe {change:+.1f}%")
    n, s = runs[("native", "cold")], runs[("at_size", "cold")]
    if n and s:
        print(f"- cold, the header tuned at the size against the native one: "
              f"{n['median'] / s['median']:.2f}x faster per frame, ref_aepe "
              f"{s.get('ref_aepe', float('nan')):.4f} vs {n.get('ref_aepe', float('nan')):.4f}")
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print("usage: python3 -m benchmarks.summarise stream FOLDER", file=sys.stderr)
        sys.exit(2)
    sys.exit(main(sys.argv[1]))
