#!/usr/bin/env python3
"""The accuracy table of simd_fused's precisions (f32, mixed, f16) on the Middlebury
sequences from benchmarks/host/simd-f16-accuracy's DIR/aepe.tsv: AEPE per sequence and precision,
the mean, and the f16 / mixed differences to f32 against the target (mean AEPE within 0.005 px
of f32). Usage: python3 -m benchmarks.summarise cpu-f16-accuracy DIR. Python standard library only."""
import csv, os, sys

folder = sys.argv[1] if len(sys.argv) > 1 else "results/cpu-f16-accuracy/host/2026-11-25"
rows = list(csv.DictReader(open(os.path.join(folder, "aepe.tsv")), delimiter="\t"))
host = open(os.path.join(folder, "host.txt")).read() if os.path.exists(os.path.join(folder, "host.txt")) else ""
for line in host.splitlines():
    if "f16 arithmetic" in line or "SIMD targets" in line:
        print(f"- {line.strip()}")
print()
ok = True
for schedule in ("default", "fixed"):
    sel = [r for r in rows if r["schedule"] == schedule]
    if not sel:
        continue
    seqs = list(dict.fromkeys(r["sequence"] for r in sel))
    aepe = {(r["sequence"], r["precision"]): float(r["aepe"]) for r in sel if r["aepe"]}
    print(f"### Schedule `{schedule}`"
          + (" (variant defaults: 5 warpings, up to 300 iterations, epsilon 0.005)" if schedule == "default"
             else " (4 scales, 1 warping, 50 iterations, epsilon 0)"))
    print()
    print("| sequence | AEPE f32 | AEPE mixed | AEPE f16 | f16 - f32 | mixed - f32 |")
    print("|---|---|---|---|---|---|")
    for s in seqs:
        a = [aepe.get((s, p)) for p in ("f32", "mixed", "f16")]
        if None in a:
            print(f"| {s} | missing run | | | | |")
            ok = False
            continue
        print(f"| {s} | {a[0]:.6f} | {a[1]:.6f} | {a[2]:.6f} | {a[2] - a[0]:+.6f} | {a[1] - a[0]:+.6f} |")
    complete = [s for s in seqs if all((s, p) in aepe for p in ("f32", "mixed", "f16"))]
    mean = {p: sum(aepe[(s, p)] for s in complete) / len(complete) for p in ("f32", "mixed", "f16")}
    d = mean["f16"] - mean["f32"]
    print(f"| **mean ({len(complete)})** | {mean['f32']:.6f} | {mean['mixed']:.6f} | {mean['f16']:.6f} "
          f"| {d:+.6f} | {mean['mixed'] - mean['f32']:+.6f} |")
    print()
    verdict = "met" if abs(d) <= 0.005 else "**missed**"
    ok = ok and abs(d) <= 0.005
    print(f"- f16 mean AEPE within 0.005 px of f32 on {len(complete)} sequences: |{d:+.6f}| -> {verdict}.")
    print()
sys.exit(0 if ok else 1)
