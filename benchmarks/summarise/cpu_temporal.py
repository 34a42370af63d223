#!/usr/bin/env python3
"""The report tables of the temporal blocking and CPU-vs-GPU comparison from the raw
outputs of benchmarks/run cpu-temporal-blocking (or of a local bench_cpu_tvl1 run): cpu_bench.json (Google
Benchmark JSON of tests/bench/bench_cpu_tvl1.cpp), and where present gpu_bench.json,
cpu_energy.json, gpu_energy.json (bench_tvl1_iterations), samples_{cpu,gpu}.txt and
windows.txt (the energy sampler). Usage: python3 -m benchmarks.summarise cpu-temporal FOLDER. Python standard
library only.

Figures: ns_per_px is the median over the timed calls (each 10 iterations at 2048^2) that
the benchmark reports; the spread column gives the number of timed calls (the JSON keeps no
per-call times). Energy per pixel = mean power over the sampled window x time per pixel of
the same run: GPU power from NVML's total-energy counter (difference over the window; the
board's power draw where the counter is unavailable), CPU from the RAPL package counters
(all packages, wraps corrected); the window skips the first 1.5 s (process start, field
generation, warm-up) and the last 0.2 s of the run."""
import json, os, re, statistics, sys

folder = sys.argv[1] if len(sys.argv) > 1 else "device-out"


def load(name):
    path = os.path.join(folder, name)
    return json.load(open(path)) if os.path.exists(path) else None


def base(name):
    return name.split("/min_time")[0].split("/manual_time")[0]


bench = load("cpu_bench.json")
rows = {base(b["name"]): b for b in bench["benchmarks"] if "error_occurred" not in b}
ctx = bench["context"]
l2 = int(ctx.get("flowtune_l2_bytes", 0))
print(f"Host: {ctx.get('flowtune_cpus')} CPUs, dispatched SIMD target {ctx.get('flowtune_simd_dispatched')}, "
      f"L2 {l2 >> 10} KiB shared by {ctx.get('flowtune_l2_shared_cpus', '?')} CPU(s), "
      f"L3 {int(ctx.get('flowtune_l3_bytes', 0)) >> 20} MiB; load average {ctx.get('load_avg')}.\n")

copy = {}
runs = {}  # (precision, rows, depth, cols, threads) -> benchmark
for name, b in rows.items():
    m = re.match(r"copy/threads:(\d+)$", name)
    if m:
        copy[int(m.group(1))] = b["GB_per_s"]
        continue
    m = re.match(r"simd_fused/(\w+)/band_rows:(\d+)(?:/depth:(\d+)/tile_cols:(\d+))?/threads:(\d+)/2048$", name)
    if m:
        key = (m.group(1), int(m.group(2)), int(m.group(3) or 1), int(m.group(4) or 0), int(m.group(5)))
        runs[key] = b
threads = sorted({k[4] for k in runs})
tmax = threads[-1] if threads else 1


def floor_ns(prec, t):
    # Model bytes of one sweep per iteration (60 B/px f32, 30 binary16) x 10 / copy bandwidth.
    return (600 if prec == "f32" else 300) / copy[t] if t in copy else float("nan")


def shape(k):
    return f"band {k[1]}" if k[2] == 1 else f"tile {k[1]}x{k[3]}"


print("2048^2, monoscale, 1 warping, 10 iterations (paper protocol). x floor: time / (model bytes of "
      "one sweep per iteration / copy bandwidth at the same threads); < 1 = faster than streaming "
      "every iteration from memory.\n")
print("### Temporal depth, per core and on all cores\n")
print("| precision | threads | schedule | temporal_depth | ns/px | timed calls | x floor | speed-up vs depth 1 (best band) |")
print("|---|---|---|---|---|---|---|---|")
best_cfg = {}
for prec in ("f32", "mixed"):
    for t in sorted({1, tmax}):
        d1 = [b["ns_per_px"] for k, b in runs.items() if k[0] == prec and k[4] == t and k[2] == 1]
        if not d1:
            continue
        ref = min(d1)
        for k in sorted(k for k in runs if k[0] == prec and k[4] == t):
            b = runs[k]
            ns = b["ns_per_px"]
            print(f"| {prec} | {t} | {shape(k)} | {k[2]} | {ns:.2f} | {b['iterations']} | "
                  f"{ns / floor_ns(prec, t):.2f} | {ref / ns:.2f} |")
        deeper = [(b["ns_per_px"], k) for k, b in runs.items() if k[0] == prec and k[4] == t and k[2] > 1]
        if deeper:
            ns, k = min(deeper)
            best_cfg[(prec, t)] = (ref, ns, k)
print()
for (prec, t), (ref, ns, k) in sorted(best_cfg.items()):
    print(f"- {prec}, {t} thread(s): best depth > 1 is {shape(k)} depth {k[2]}, {ref / ns:.2f}x the best band sweep.")
print()

print("### Scaling (speed-up over 1 thread of the same schedule) against the copy floor\n")
print("| threads | copy GB/s | schedule | precision | ns/px | speed-up | efficiency (speed-up / threads) | x floor |")
print("|---|---|---|---|---|---|---|---|")
for prec in ("f32", "mixed"):
    for sched in sorted({k[1:4] for k in runs if k[0] == prec}):
        series = {k[4]: runs[k] for k in runs if k[0] == prec and k[1:4] == sched}
        if len(series) < 3 or 1 not in series:
            continue
        one = series[1]["ns_per_px"]
        for t in sorted(series):
            ns = series[t]["ns_per_px"]
            k = (prec,) + sched + (t,)
            print(f"| {t} | {copy.get(t, float('nan')):.1f} | {shape(k)} depth {sched[1]} | {prec} | {ns:.2f} | "
                  f"{one / ns:.2f} | {one / ns / t:.2f} | {ns / floor_ns(prec, t):.2f} |")
print()


def window(name):
    path = os.path.join(folder, "windows.txt")
    if not os.path.exists(path):
        return None
    for line in open(path):
        p = line.split()
        if p and p[0] == name:
            return float(p[1]) + 1.5, float(p[2]) - 0.2
    return None


def samples(name):
    path = os.path.join(folder, f"samples_{name}.txt")
    w = window(name)
    if not os.path.exists(path) or not w:
        return []
    out = []
    for line in open(path):
        p = line.split()
        try:
            t = float(p[0])
        except (ValueError, IndexError):
            continue
        if w[0] <= t <= w[1]:
            out.append(p)
    return out


def num(x):
    try:
        return float(x)
    except ValueError:
        return None


def gpu_power():
    s = samples("gpu")
    e = [(float(p[0]), num(p[1])) for p in s if len(p) > 1 and num(p[1]) is not None]
    if len(e) >= 2 and e[-1][0] > e[0][0] and e[-1][1] > e[0][1]:
        return (e[-1][1] - e[0][1]) * 1e-3 / (e[-1][0] - e[0][0]), f"NVML energy counter, {len(e)} samples"
    w = [num(p[2]) for p in s if len(p) > 2 and num(p[2]) is not None]
    if w:
        return statistics.mean(w), f"NVML power draw, mean of {len(w)} samples"
    return None, "unavailable (no NVML reading)"


def cpu_power():
    s = samples("cpu")
    ranges = []
    src = os.path.join(folder, "energy_sources.txt")
    if os.path.exists(src):
        ranges = [float(m) for m in re.findall(r"max_energy_range_uj=(\d+)", open(src).read())]
    rows_ = [(float(p[0]), [num(x) for x in p[3:]]) for p in s]
    rows_ = [(t, v) for t, v in rows_ if v and all(x is not None for x in v)]
    if len(rows_) < 2:
        return None, "unavailable (RAPL energy_uj not readable)"
    total = 0.0
    for (t0, a), (t1, b) in zip(rows_, rows_[1:]):
        for i, (x, y) in enumerate(zip(a, b)):
            d = y - x
            if d < 0 and i < len(ranges):
                d += ranges[i]
            total += d
    return total * 1e-6 / (rows_[-1][0] - rows_[0][0]), f"RAPL, {len(rows_[0][1])} package zone(s), {len(rows_)} samples"


def energy_run(name):
    j = load(f"{name}_energy.json")
    if not j:
        return None
    b = [r for r in j["benchmarks"] if "error_occurred" not in r and "ns_per_px" in r]
    return b[0] if b else None


gpu = load("gpu_bench.json")
print("### CPU vs GPU on this machine (2048^2, 10 iterations, best config of each)\n")
best_c = min(((b["ns_per_px"], k) for k, b in runs.items()), default=None)
best_g = None
gpu_name = "(none)"
if gpu:
    gb = [(r["ns_per_px"], base(r["name"])) for r in gpu["benchmarks"] if "error_occurred" not in r and "ns_per_px" in r]
    best_g = min(gb, default=None)
    m = re.search(r"## TV-L1 inner iterations, (.*?) \(", open(os.path.join(folder, "gpu_bench.log")).read()) \
        if os.path.exists(os.path.join(folder, "gpu_bench.log")) else None
    gpu_name = m.group(1) if m else "GPU"
print("| device | config | ns/px (sweep) | ns/px (energy run) | power W | nJ/px | power source |")
print("|---|---|---|---|---|---|---|")
result = {}
for label, best, run, power in (("CPU", best_c, energy_run("cpu"), cpu_power()),
                                ("GPU " + gpu_name, best_g, energy_run("gpu"), gpu_power())):
    if not best:
        print(f"| {label} | not measured | | | | | |")
        continue
    cfg = best[1] if isinstance(best[1], str) else f"simd_fused {best[1][0]} {shape(best[1])} depth {best[1][2]} threads {best[1][4]}"
    ns_e = run["ns_per_px"] if run else None
    watts, source = power
    nj = watts * ns_e if (watts is not None and ns_e) else None
    result[label[:3]] = (best[0], nj)
    print(f"| {label} | {cfg} | {best[0]:.4f} | {'-' if ns_e is None else f'{ns_e:.4f}'} | "
          f"{'-' if watts is None else f'{watts:.0f}'} | {'unavailable' if nj is None else f'{nj:.2f}'} | {source} |")
if "CPU" in result and "GPU" in result:
    (tc, ec), (tg, eg) = result["CPU"], result["GPU"]
    print(f"\n- GPU / CPU: {tc / tg:.1f}x faster per pixel"
          + (f", {ec / eg:.1f}x less energy per pixel" if ec and eg else ", energy ratio unavailable")
          + " (paper, AGX Xavier: 7.4x faster, 6.4x more energy-efficient than Neon.F16).")
print("\nEnergy per pixel = mean power over the window x ns/px of the energy run; the CPU figure is the "
      "package(s), the GPU figure the board (NVML), idle power included in both.")
