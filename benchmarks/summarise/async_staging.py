#!/usr/bin/env python3
"""shared_pipeline's ring staging (staging=1: cp.async straight into the ring; staging=0 or
absent: through registers) config by config, from one benchmark run's raw outputs (a folder, its
$OUT, or a committed copy with .xz files):
  iterations.json   bench_tvl1_iterations at 2048^2 (paper protocol: 1 scale, 1 warping, 10
                    iterations), repetitions (median/min/max aggregates, or the runs);
  test_staging.log  test_cuda *PipelineStaging* (bit for bit against staging 0, occupancy model
                    against the driver), optional.
Prints Markdown: the tests' verdicts; per precision x strip (the tunables without staging) the
ns/px median [min, max] of both stagings and registers / cp.async (> 1: cp.async faster); the
count of strips where cp.async is faster with non-overlapping [min, max]. Standard library only.
Usage: python3 -m benchmarks.summarise async-staging FOLDER"""
import os
import re
import sys

from benchmarks.summarise.google_benchmark import ns_per_px_stats, read_text

folder = sys.argv[1] if len(sys.argv) > 1 else "device-out"


def cell(a):
    return f"{a['median']:.4f} [{a['min']:.4f}, {a['max']:.4f}]"


print(f"## shared_pipeline ring staging: registers (staging 0) against cp.async (staging 1) ({folder})\n")
log = read_text(os.path.join(folder, "test_staging.log"))
if log:
    bitwise = re.findall(r"^\[staging bitwise\] .*: (\d+) of \d+ bytes differ", log, re.M)
    occ = re.findall(r"^\[staging occupancy\] .*model (\d+), driver (\d+)", log, re.M)
    failed = len(re.findall(r"^\[  FAILED  \] \S+\.\S+ \(", log, re.M))
    print(f"Tests: {len(bitwise)} bitwise comparisons, {sum(d != '0' for d in bitwise)} with bytes "
          f"differing; occupancy model = driver {sum(m == d for m, d in occ)} of {len(occ)}; "
          f"{failed} failed.\n")

pairs = {}
for key, a in ns_per_px_stats(os.path.join(folder, "iterations.json"))[1].items():
    words = key.split(" ")
    if words[0] != "shared_pipeline" or words[-1] != "2048":
        continue
    tun = dict(w.split("=", 1) for w in words[2:-1])
    staging = int(tun.pop("staging", "0"))
    strip = " ".join(f"{k}={v}" for k, v in sorted(tun.items()))
    pairs.setdefault((words[1], strip), {})[staging] = a

rows = [(p, s, v) for (p, s), v in pairs.items() if 0 in v and 1 in v]
if not rows:
    print("No shared_pipeline config at 2048^2 measured with both stagings.")
    sys.exit(0)
print("| precision | strip | registers ns/px | cp.async ns/px | registers / cp.async |")
print("|---|---|---|---|---|")
faster = slower = 0
for p, s, v in sorted(rows, key=lambda r: (["f32", "f16", "mixed"].index(r[0]), r[1])):
    r, c = v[0], v[1]
    faster += c["max"] < r["min"]
    slower += c["min"] > r["max"]
    print(f"| {p} | {s} | {cell(r)} | {cell(c)} | {r['median'] / c['median']:.3f} |")
print(f"\ncp.async faster on {faster} of {len(rows)} strips, slower on {slower} "
      "(ranges [min, max] apart; the rest overlap).")
