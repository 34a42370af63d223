#!/usr/bin/env python3
"""Tables of a buffer-reuse record (results/buffer-reuse/<board>/<date>/summary.md) from the
raw outputs of `benchmarks/run buffer-reuse`: per run (before: a build that frees a point's GPU
buffers and page locks; after: this build, which keeps them for the next point) the points
measured, points/s in the first minute and after it (measurement times from the DB against the
run's start), and the measuring time per point by phase (the shares `tune` printed times the
measuring share of its wall clock, over the points). Python standard library only.
Usage: python3 -m benchmarks.summarise buffer-reuse FOLDER"""
import lzma, os, re, sys

from benchmarks.summarise._store import open_db as open_store, seconds_of

folder = sys.argv[1]


tags = [t for t in ("before", "after") if os.path.exists(f"{folder}/main_job_{t}.log.xz")]
print("| run | points | points in the first minute | points/s in it | points/s after it | wall s | measuring | ms a point measuring | tuner's own work ms a point |")
print("|---|---|---|---|---|---|---|---|---|")
phases = {}
for tag in tags:
    db = open_store(folder, tag)
    start = seconds_of(db.execute("select min(started_at) from runs").fetchone()[0])
    times = [seconds_of(t) - start for (t,) in db.execute("select measured_at from measurements")]
    end = max(times) if times else 0
    first = sum(1 for t in times if t <= 60)
    later = len(times) - first
    text = lzma.open(f"{folder}/main_job_{tag}.log.xz", "rt").read()
    wall = float(re.search(r"run 1: ([\d.]+) s wall", text).group(1))
    measuring = float(re.search(r"the wall clock: measuring (\d+)%", text).group(1)) / 100
    own = re.search(r"the tuner's own work: (\d+) ms a point", text)
    per_point_ms = wall * measuring / len(times) * 1000 if times else float("nan")
    shares = re.search(r"where the measuring time went: (.*)$", text, re.M).group(1)
    phases[tag] = {name.strip(): int(p) / 100 * per_point_ms
                   for name, p in re.findall(r"([a-z()' -]+?) (\d+)%", shares)}
    after_rate = later / (end - 60) if end > 60 else float("nan")
    print(f"| {tag} | {len(times)} | {first} | {first / 60:.1f} | {after_rate:.1f} | {wall:.1f} | "
          f"{measuring:.0%} | {per_point_ms:.1f} | {own.group(1) if own else 'n/a'} |")
print()
names = list(dict.fromkeys(n for t in tags for n in phases[t]))
print("| phase, ms a point | " + " | ".join(tags) + " |")
print("|---|" + "---|" * len(tags))
for n in names:
    print(f"| {n} | " + " | ".join(f"{phases[t].get(n, 0):.1f}" for t in tags) + " |")
