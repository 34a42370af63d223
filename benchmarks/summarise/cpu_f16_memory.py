#!/usr/bin/env python3
"""Prints the tables of results/cpu-f16-memory/h200-host/2026-11-25/summary.md from benchmarks/run cpu-f16-memory's raw
outputs (a folder: cpu_mem.json, perf*.txt, samples_gpu.txt, windows.txt, gpu_energy.json,
rapl.txt, cpu.txt).

Table 1: per frame size, simd_fused f32 and mixed (binary16 storage) at all threads, the best
band of each by median ns/px over 10 iterations, [min, max] over the repetitions; the model's
GB/s (60 B/px per iteration in f32, 30 in binary16) against the OpenMP copy floor; the speed-up
of binary16 storage (f32 median / mixed median; the issue's target is >= 1.5 where
memory-bound). Table 2: the GPU's energy per pixel = mean NVML power over the benchmark's
window x its ns/px (the same formula as results/cpu-temporal-blocking/h200-host/2026-11-25/summary.md)."""
import json
import re
import sys
from pathlib import Path


def aggregates(path):
    rows = json.load(open(path))["benchmarks"]
    out = {}
    for r in rows:
        if r.get("run_type") != "aggregate" or "error_occurred" in r:
            continue
        name = r["run_name"].split("/min_time")[0].split("/manual_time")[0]
        out.setdefault(name, {})[r["aggregate_name"]] = r
    reps = {}
    for r in rows:
        if r.get("run_type") == "iteration" and "error_occurred" not in r:
            name = r["run_name"].split("/min_time")[0].split("/manual_time")[0]
            reps.setdefault(name, []).append(r)
    return out, reps


def main():
    d = Path(sys.argv[1])
    agg, reps = aggregates(d / "cpu_mem.json")
    cpu = (d / "cpu.txt").read_text() if (d / "cpu.txt").exists() else ""
    model = re.search(r"Model name:\s*(.*)", cpu)
    l3 = re.search(r"L3 cache:\s*(.*)", cpu)
    print(f"CPU: {model.group(1) if model else '?'}; L3 {l3.group(1) if l3 else '?'}; "
          f"{cpu.splitlines()[0] if cpu else '?'} CPUs\n")
    copies = sorted((int(k.split(":")[1]), v["median"]["GB_per_s"]) for k, v in agg.items()
                    if k.startswith("copy/threads:") and "median" in v)
    copy = copies[-1][1] if copies else None
    print(f"OpenMP copy floor, {copies[-1][0]} threads: {copy:.1f} GB/s (read + written)\n"
          if copy else "copy floor: not measured\n")
    print("| size | fields (f32) MiB | precision | best band | ns/px median [min, max] "
          "| model GB/s | x copy floor | speed-up of binary16 storage |")
    print("|---|---|---|---|---|---|---|---|")
    sizes = sorted({int(k.rsplit("/", 1)[1]) for k in agg if k.startswith("simd_fused/")})
    for n in sizes:
        best = {}
        for p in ("f32", "mixed"):
            cands = [(v["median"]["ns_per_px"], k) for k, v in agg.items()
                     if k.startswith(f"simd_fused/{p}/") and k.endswith(f"/{n}") and "median" in v]
            if cands:
                best[p] = min(cands)
        for p in ("f32", "mixed"):
            if p not in best:
                continue
            ns, k = best[p]
            vals = [r["ns_per_px"] for r in reps.get(k, [])]
            gbs = agg[k]["median"]["GB_per_s"]
            bpp = 600.0 if p == "f32" else 300.0  # bytes per px over 10 iterations
            floor_ns = bpp / copy if copy else float("nan")
            band = re.search(r"band_rows:(\d+)", k).group(1)
            sp = (f"**{best['f32'][0] / best['mixed'][0]:.2f}x**"
                  if p == "mixed" and "f32" in best else "")
            print(f"| {n}^2 | {n * n * 4 * 15 / 2**20:.0f} | {p} | {band} | {ns:.3f} "
                  f"[{min(vals):.3f}, {max(vals):.3f}] | {gbs:.1f} | {ns / floor_ns:.2f} | {sp} |")
    conv = [(k, v["median"]) for k, v in agg.items() if k.startswith("binary16_conversion")]
    for k, v in sorted(conv):
        print(f"\nbinary16 conversions per warping ({k}): {v['ns_per_px']:.3f} ns/px per call")
    print()
    perf = d / "perf.txt"
    if perf.exists():
        print(" ".join(perf.read_text().split()))
        for p in ("f32", "mixed"):
            f = d / f"perf_{p}.txt"
            if f.exists():
                ev = {}
                for line in f.read_text().splitlines():
                    parts = line.split(",")
                    if len(parts) > 2 and parts[0] and not line.startswith("#"):
                        ev[parts[2]] = parts[0]
                print(f"- {p}: " + ", ".join(f"{k} {v}" for k, v in ev.items()))
    print()
    # GPU energy.
    win = [l.split() for l in (d / "windows.txt").read_text().splitlines() if l.strip()]
    samples = []
    for line in (d / "samples_gpu.txt").read_text().splitlines():
        parts = line.split()
        if line.startswith("#") or len(parts) < 3 or parts[1] == "NA":
            continue
        samples.append((float(parts[0]), float(parts[1]), parts[2]))
    g = json.load(open(d / "gpu_energy.json"))["benchmarks"]
    g = [r for r in g if "ns_per_px" in r and "error_occurred" not in r]
    if not samples or not win or not g:
        print("GPU energy: no NVML energy samples" if not samples else "GPU energy: no run")
    else:
        _, s, e = win[0]
        s, e = float(s), float(e)
        inside = [x for x in samples if s <= x[0] <= e]
        (t0, e0, _), (t1, e1, _) = inside[0], inside[-1]
        watts = (e1 - e0) / 1000.0 / (t1 - t0)
        ns = g[0]["ns_per_px"]
        print("| device | config | ns/px | mean power W (NVML energy counter) | nJ/px |")
        print("|---|---|---|---|---|")
        print(f"| GPU | {g[0]['name'].split('/min_time')[0]} | {ns:.4f} | {watts:.1f} "
              f"({len(inside)} samples over {t1 - t0:.1f} s) | {watts * ns:.2f} |")
    rapl = (d / "rapl.txt").read_text().strip() if (d / "rapl.txt").exists() else ""
    print(f"\nRAPL probe: {' | '.join(rapl.splitlines()[:4]) or 'no powercap zones'}")


if __name__ == "__main__":
    main()
