#!/usr/bin/env python3
"""Tables of a main-job record (results/main-job/<board>/<date>/summary.md) from the raw outputs of
benchmarks/run main-job in that folder (the DBs and logs it wrote on the GPU machine): one row per
run tag (cold, warm, eight: the 8 Middlebury sequences), its throughput from the DB's measurement
times, and the picks of the main job's requests. Python standard library only.
Usage: python3 -m benchmarks.summarise main-job [folder]   (default results/main-job/h200/2026-11-24)"""
import json, lzma, re, sys

from benchmarks.summarise import _store

folder = sys.argv[1] if len(sys.argv) > 1 else "results/main-job/h200/2026-11-24"


def open_db(tag):
    return _store.open_db(folder, tag)


def points(db):
    """(time_ms, aepe, label, params) of every measured config."""
    q = """select m.time_ms_median, x.value, c.label, c.params_json from measurements m
           join configs c on c.id = m.config_id
           join metrics x on x.measurement_id = m.id and x.item = '' and x.name = 'aepe'"""
    return [(t, a, l, json.loads(p)) for t, a, l, p in db.execute(q)]


def params_text(p):
    # The accuracy additions (default dimensions) where a run's configs have them.
    keys = ("n_scales", "zoom", "n_warpings", "iterations", "median_window", "nl_median_window",
            "texture_alpha")
    return " ".join(f"{k}={p[k]}" for k in keys if k in p)


def timeline(tag):
    cache = open(f"{folder}/cache_{tag}.txt").read().split()
    compiled = int(cache[cache.index("compiled") + 1])
    try:
        log = lzma.open(f"{folder}/main_job_{tag}.log.xz", "rt").read().splitlines()
    except FileNotFoundError:  # the benchmark run did not bring this log back: the DB and cache
        n = open_db(tag).execute("select count(*) from measurements").fetchone()[0]
        wall = float(cache[cache.index("wall_s") + 1])
        return float("nan"), n, wall, None, float("nan"), compiled
    stamps = [float(m.group(1)) for l in log if (m := re.search(r"\s([\d.]+) s elapsed", l))]
    n = open_db(tag).execute("select count(*) from measurements").fetchone()[0]
    wall = checks = None
    for l in log:
        if m := re.search(r"([\d.]+) s wall; constraint checks .*: (\d+) configs, ([\d.]+) s", l):
            wall, n_checked, checks = float(m.group(1)), int(m.group(2)), float(m.group(3))
    return stamps[0], n, wall, n_checked, checks, compiled


print("| run | first point measured after | points measured | wall s | configs checked | build threads' time s | kernels compiled |")
print("|---|---|---|---|---|---|---|")
import os
tags = [t for t in ("cold", "warm", "eight") if os.path.exists(f"{folder}/cache_{t}.txt")]
for tag in tags:
    first, n, wall, n_checked, checks, compiled = timeline(tag)
    na = lambda x, f: "n/a" if x != x else f.format(x)  # NaN: not in the raw outputs
    print(f"| {tag} | {na(first, '{:.1f} s')} | {n} | {wall:.1f} | {n_checked if n_checked else 'n/a'} | {na(checks, '{:.1f}')} | {compiled} |")
print()
# Peak memory of the run (time_TAG.txt, /usr/bin/time -v, in runs that record it
# default dimensions where the machine has /usr/bin/time).
for tag in tags:
    try:
        text = open(f"{folder}/time_{tag}.txt").read()
    except FileNotFoundError:
        continue
    if m := re.search(r"Maximum resident set size \(kbytes\): (\d+)", text):
        print(f"- {tag}: peak memory of `tune` {int(m.group(1)) / 1024 / 1024:.2f} GiB")
print()
# The runs' own counts of their kernel builds (logs of runs that print them:
# "kernel builds of run N: this process ... compiled ..., ... local cache hits, ... fetched").
for tag in tags:
    try:
        log = lzma.open(f"{folder}/main_job_{tag}.log.xz", "rt").read().splitlines()
    except FileNotFoundError:
        continue
    for l in log:
        if ("kernel builds of run" in l or re.match(r"worker \d+ .*: kernel builds: ", l)
                or l.startswith("where the measuring time went: ")
                or l.startswith("the tuner's own work: ")):
            print(f"- {tag}: {l.strip()}")
print()


seconds_of = _store.seconds_of


# Throughput: points measured in the first minute of the run and after it (measurement times
# against the run's start, both from the DB), and the wall clock's shares the run printed last.
print("| run | points in the first minute | points/s in it | points after it | points/s after it | wall clock |")
print("|---|---|---|---|---|---|")
for tag in tags:
    db = open_db(tag)
    start = seconds_of(db.execute("select min(started_at) from runs").fetchone()[0])
    times = [seconds_of(t) - start for (t,) in db.execute("select measured_at from measurements")]
    end = max(times) if times else 0
    first = sum(1 for t in times if t <= 60)
    later = len(times) - first
    shares = "n/a"
    try:
        for l in lzma.open(f"{folder}/main_job_{tag}.log.xz", "rt"):
            if m := re.search(r"the wall clock: (.*)$", l):
                shares = m.group(1).strip()
    except FileNotFoundError:
        pass
    rate_after = later / (end - 60) if end > 60 else float("nan")
    print(f"| {tag} | {first} | {first / 60:.1f} | {later} | {rate_after:.1f} | {shares} |")
print()
hand = (2.02, 0.1805)
for tag in tags:
    pts = points(open_db(tag))
    print(f"**{tag}** ({len(pts)} measured):")
    print()
    print("| request | config | params | time ms | AEPE |")
    print("|---|---|---|---|---|")
    for name, ok, key in (
        ("fastest", lambda t, a: True, lambda x: (x[0], x[1])),
        ("fastest with AEPE <= 0.1807 (OpenCV's accuracy)", lambda t, a: a <= 0.1807, lambda x: (x[0], x[1])),
        ("fastest with AEPE <= 0.25", lambda t, a: a <= 0.25, lambda x: (x[0], x[1])),
        ("lowest AEPE within 0.6 ms", lambda t, a: t <= 0.6, lambda x: (x[1], x[0])),
        ("lowest AEPE within 1.5 ms", lambda t, a: t <= 1.5, lambda x: (x[1], x[0])),
        ("lowest AEPE within 2 ms", lambda t, a: t <= 2.0, lambda x: (x[1], x[0])),
        ("lowest AEPE within 2.02 ms (the hand-chosen point's time)", lambda t, a: t <= hand[0], lambda x: (x[1], x[0])),
        ("lowest AEPE within 10 ms", lambda t, a: t <= 10, lambda x: (x[1], x[0])),
        ("lowest AEPE", lambda t, a: True, lambda x: (x[1], x[0])),
    ):
        feasible = [x for x in pts if ok(x[0], x[1])]
        if not feasible:
            print(f"| {name} | none measured | | | |")
            continue
        best = min(feasible, key=key)
        print(f"| {name} | {best[2]} | {params_text(best[3])} | {best[0]:.3f} | {best[1]:.4f} |")
    dominated = any(t <= hand[0] and a <= hand[1] for t, a, _, _ in pts)
    print()
    print(f"A measured point at <= {hand[0]} ms and AEPE <= {hand[1]} (dominating the hand-chosen point): {'yes' if dominated else 'no'}")
    print()
