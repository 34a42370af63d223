#!/usr/bin/env python3
"""The report table of the CPU baselines from the raw outputs of benchmarks/run cpu-temporal-blocking
(or of a local bench_cpu_tvl1 run): cpu_bench.json (Google Benchmark JSON of
tests/bench/bench_cpu_tvl1.cpp) and, where present, host_dse.txt (`tune` output of the
host DSE's most accurate point). Usage: python3 -m benchmarks.summarise cpu-bench FOLDER. Python standard
library only. Figures are the medians the benchmark reports (ns_per_px counter: median of
the timed calls of 10 iterations at 2048^2); spread: min-max of the timed calls is not in the
JSON, so each row gives the number of timed calls."""
import json, os, re, sys

folder = sys.argv[1] if len(sys.argv) > 1 else "device-out"
bench = json.load(open(os.path.join(folder, "cpu_bench.json")))
ctx = bench["context"]
rows = {b["name"].split("/min_time")[0]: b for b in bench["benchmarks"] if "error_occurred" not in b}

print(f"Host: {ctx.get('flowtune_cpus')} CPUs, SIMD targets {ctx.get('flowtune_simd_targets')} "
      f"(dispatched: {ctx.get('flowtune_simd_dispatched')}), L2 {int(ctx.get('flowtune_l2_bytes', 0)) >> 10} KiB, "
      f"L3 {int(ctx.get('flowtune_l3_bytes', 0)) >> 20} MiB; load average {ctx.get('load_avg')}.\n")

copy = {}
for name, b in rows.items():
    m = re.match(r"copy/threads:(\d+)", name)
    if m:
        copy[int(m.group(1))] = b["GB_per_s"]
print("| threads | copy GB/s (read + write) |")
print("|---|---|")
for t in sorted(copy):
    print(f"| {t} | {copy[t]:.1f} |")
print()

kokkos = next((b for n, b in rows.items() if n.startswith("kokkos_global/")), None)
k_ns = kokkos["ns_per_px"] if kokkos else None
print("2048^2, monoscale, 1 warping, 10 iterations. Floor = model bytes (60 B/px/iteration f32, "
      "30 binary16) x 10 / copy bandwidth at the same thread count.\n")
print("| variant | precision | band_rows | threads | ns/px (10 it.) | timed calls | GB/s (model) | x floor | "
      "speed-up vs kokkos_global f32 (1 core) | scaling efficiency (vs 1 thread) |")
print("|---|---|---|---|---|---|---|---|---|---|")
if kokkos:
    print(f"| kokkos_global | f32 | tile 32x4 | 1 | {k_ns:.2f} | {kokkos['iterations']} | "
          f"{kokkos['GB_per_s']:.2f} | {k_ns / (600 / copy.get(1, float('nan'))):.1f} | 1.00 | - |")
simd = {}
for name, b in rows.items():
    m = re.match(r"simd_fused/(\w+)/band_rows:(\d+)/threads:(\d+)/(\d+)", name)
    if m:
        simd[(m.group(1), int(m.group(2)), int(m.group(3)))] = b
for (prec, band, t), b in sorted(simd.items()):
    ns = b["ns_per_px"]
    bytes_px = 600 if prec == "f32" else 300
    floor = bytes_px / copy[t] if t in copy else float("nan")
    one = simd.get((prec, band, 1))
    eff = (one["ns_per_px"] / ns) / t if one else float("nan")
    speed = k_ns / ns if k_ns else float("nan")
    print(f"| simd_fused | {prec} | {band} | {t} | {ns:.2f} | {b['iterations']} | {b['GB_per_s']:.1f} | "
          f"{ns / floor:.1f} | {speed:.2f} | {eff:.2f} |")
print()

# The targets, read off the rows above.
def best(prec, t):
    c = [b["ns_per_px"] for (p, _, tt), b in simd.items() if p == prec and tt == t]
    return min(c) if c else None
threads = sorted({t for (_, _, t) in simd})
if threads and k_ns:
    f1 = best("f32", 1)
    print(f"- Per core: simd_fused f32 (best band_rows, 1 thread) is {k_ns / f1:.2f}x kokkos_global f32 (target >= 4).")
    tmax = threads[-1]
    f, h = best("f32", tmax), best("mixed", tmax)
    if f and h:
        print(f"- binary16 storage on {tmax} threads: mixed is {f / h:.2f}x f32 (target >= 1.5 where memory-bound).")
    for prec in ("f32", "mixed"):
        b1 = best(prec, 1)
        parts = [f"{t}: {b1 / best(prec, t) / t:.2f}" for t in threads if best(prec, t)]
        print(f"- Scaling efficiency, {prec} (speed-up / threads, best band_rows): " + ", ".join(parts) + " (target >= 0.8 up to the floor).")

dse = os.path.join(folder, "host_dse.txt")
if os.path.exists(dse):
    print("\nHost DSE's most accurate point (n_warpings 5, iterations 300), `tune` mean time per frame over Grove2 and RubberWhale:\n")
    print("| config | time ms/frame | AEPE |")
    print("|---|---|---|")
    for line in open(dse):
        m = re.match(r"\[\d+/\d+\] +\d+% (simd_fused \S+ band_rows=\d+ threads=\d+) .*: ([0-9.]+) ms, .*aepe ([0-9.]+)", line)
        if m:
            print(f"| {m.group(1)} | {float(m.group(2)):.0f} | {float(m.group(3)):.4f} |")
