#!/usr/bin/env python3
"""Before/after tables of the pipelines' register blocking (rows_per_thread)
from the raw outputs of benchmarks/run register-blocking (one folder, its $OUT, or a committed copy
with .xz files):
  tests_*.log       test_cuda's *PipelineRows* tests (bit for bit against rows_per_thread 1,
                    occupancy model against the driver);
  iterations.json   bench_tvl1_iterations at 2048^2 (paper protocol: 1 scale, 1 warping, 10
                    iterations), repetitions with median/min/max aggregates.
Prints Markdown: the tests' verdicts; per scheme x precision x strip (the tunables without
rows_per_thread) ns/px median [min, max] for rows_per_thread 1 (absent: the old kernel), 2
and 4 with the speed-up of the best over 1; the best old and best blocked config per scheme x
precision with x the copy floor (copy bandwidth of the same run) and the issue's targets.
`--best-rows PRECISION` prints only the label of the fastest blocked shared/global pipeline
config of that precision (benchmarks/run register-blocking's ncu step). Python standard library only.
Usage: python3 -m benchmarks.summarise kernel-rows FOLDER [--best-rows f16|f32|mixed]"""
import glob, json, lzma, os, re, statistics, sys
from benchmarks.summarise.google_benchmark import ns_per_px_stats, read_text

folder = sys.argv[1] if len(sys.argv) > 1 else "device-out"
best_rows = sys.argv[3] if len(sys.argv) > 3 and sys.argv[2] == "--best-rows" else None
TARGET_NS = {"f16": 0.025, "f32": 0.040}  # the paper-protocol targets (ns/px)
BYTES_PER_PX = {"f32": 60.0, "f16": 30.0, "mixed": 30.0}  # ARCHITECTURE.md's count


def read(path):
    """The text of path or path.xz, else None."""
    return read_text(path)


def parse(key):
    """'shared_pipeline f16 depth=5 ... w=128 2048' -> (scheme, precision, strip, rows, size)."""
    words = key.split(" ")
    tun = dict(w.split("=", 1) for w in words[2:-1])
    rows = int(tun.pop("rows_per_thread", "1"))
    strip = " ".join(f"{k}={v}" for k, v in sorted(tun.items()))
    return words[0], words[1], strip, rows, words[-1]


def cell(a):
    return f"{a['median']:.4f} [{a['min']:.4f}, {a['max']:.4f}]" if a else "-"


ctx, it = ns_per_px_stats(os.path.join(folder, "iterations.json"))
results = {}
for key, a in it.items():
    if "pipeline" not in key:
        continue
    scheme, precision, strip, rows, size = parse(key)
    if size == "2048":
        results[(scheme, precision, strip, rows)] = dict(a, label=" ".join(key.split(" ")[:-1]))

if best_rows:
    blocked = [(a["median"], a["label"]) for (s, p, _, r), a in results.items() if p == best_rows and r > 1]
    if blocked:
        print(min(blocked)[1])
        sys.exit(0)
    sys.exit(1)

gpu = (read(os.path.join(folder, "gpu.txt")) or "").splitlines()
print(f"## Register blocking (rows_per_thread) ({gpu[1] if len(gpu) > 1 else 'unknown GPU'}; {folder})\n")
if len(gpu) > 2:
    print("; ".join(gpu[2:]) + "\n")

# Tests.
logs = sorted(glob.glob(os.path.join(folder, "tests_*.log")) + glob.glob(os.path.join(folder, "tests_*.log.xz")))
if logs:
    print("### Tests (test_cuda *PipelineRows*)\n")
    print("| log | passed | failed | skipped | bitwise comparisons (bytes differing > 0) | occupancy model = driver |")
    print("|---|---|---|---|---|---|")
    for path in logs:
        text = read(path[:-3] if path.endswith(".xz") else path) or ""
        ok = len(re.findall(r"^\[       OK \]", text, re.M))
        failed = len(re.findall(r"^\[  FAILED  \] \S+\.\S+ \(", text, re.M))
        skipped = len(re.findall(r"^\[  SKIPPED \] \S+\.\S+ \(", text, re.M))
        bitwise = re.findall(r"^\[rows bitwise\] .*: (\d+) of \d+ bytes differ", text, re.M)
        occ = re.findall(r"model (\d+), driver (\d+)", text)
        print(f"| {os.path.basename(path)} | {ok} | {failed} | {skipped} | {len(bitwise)} "
              f"({sum(1 for d in bitwise if d != '0')}) | "
              f"{sum(1 for m, d in occ if m == d)} of {len(occ)} |")
    print()

if not results:
    print(f"No pipeline results at 2048^2 in {folder}/iterations.json.")
    sys.exit(0)
copy = float(ctx["copy_GB_per_s"]) if "copy_GB_per_s" in ctx else None
reps = sorted({a["n"] for a in results.values()})
print(f"### Paper protocol 2048^2 (1 scale, 1 warping, 10 iterations): ns/px median [min, max] over "
      f"{'/'.join(map(str, reps))} repetitions; copy bandwidth {copy:.0f} GB/s\n" if copy else
      f"### Paper protocol 2048^2: ns/px median [min, max] over {'/'.join(map(str, reps))} repetitions\n")
print("| scheme | precision | strip | rows_per_thread 1 (old kernel) | 2 | 4 | speed-up (1 / best blocked) |")
print("|---|---|---|---|---|---|---|")
strips = sorted({(s, p, st) for (s, p, st, r) in results}, key=lambda x: (x[0], ["f32", "f16", "mixed"].index(x[1]), x[2]))
for s, p, st in strips:
    by = {r: results.get((s, p, st, r)) for r in (1, 2, 4)}
    if not by[2] and not by[4]:
        continue
    one = by[1]["median"] if by[1] else None
    blocked = [by[r]["median"] for r in (2, 4) if by[r]]
    ratio = f"{one / min(blocked):.2f}x" if one and blocked else "-"
    print(f"| {s} | {p} | {st} | {cell(by[1])} | {cell(by[2])} | {cell(by[4])} | {ratio} |")
print()

print("### Best per scheme x precision: before (rows_per_thread 1) and after (any rows_per_thread)\n")
print("| scheme | precision | before: config | ns/px | after: config | ns/px | x copy floor | speed-up | target |")
print("|---|---|---|---|---|---|---|---|---|")
for s in ("shared_pipeline", "global_pipeline"):
    for p in ("f32", "f16", "mixed"):
        old = [a for (s2, p2, _, r), a in results.items() if s2 == s and p2 == p and r == 1]
        new = [a for (s2, p2, _, r), a in results.items() if s2 == s and p2 == p]
        if not old or not new:
            continue
        b0 = min(old, key=lambda a: a["median"])
        b1 = min(new, key=lambda a: a["median"])
        floor = BYTES_PER_PX[p] / copy if copy else None
        tgt = TARGET_NS.get(p)
        m0, m1 = b0["median"], b1["median"]
        verdict = "-"
        if tgt is not None and s == "shared_pipeline":
            verdict = f"<= {tgt}: " + ("met" if m1 <= tgt else f"missed ({m1 / tgt:.1f}x)")
        x_floor = f"{m1 / floor:.1f}" if floor else "-"
        c0, c1 = b0["label"].split(" ", 2)[2], b1["label"].split(" ", 2)[2]
        print(f"| {s} | {p} | {c0} | {cell(b0)} | {c1} | {cell(b1)} | {x_floor} | {m0 / m1:.2f}x | {verdict} |")
print()
print("Spread: [min, max] over the repetitions of one process; a speed-up whose intervals overlap is noise.")
