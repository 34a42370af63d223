#!/usr/bin/env python3
"""The report tables of bm_simd and lk_simd (local flow) from the raw outputs of
benchmarks/run cpu-simd-localflow (or of a local run of tests/bench/bench_cpu_localflow.cpp with
--benchmark_out=FOLDER/localflow_bench.json): per-frame times of the scalar variants (bm_cpu,
lk_cpu: one thread) and of the SIMD ones at every thread count, as medians over the
repetitions with their min-max; the speed-up over the scalar variant on one core and on all
of them, and the scaling efficiency t(1) / (n t(n)). Also the verdict lines of
test_simd_localflow.log and tune_{bm,lk}.txt where present.
Usage: python3 -m benchmarks.summarise cpu-localflow FOLDER [JSON] (JSON: the benchmark file in FOLDER, default
localflow_bench.json). Python standard library only."""
import json, os, re, statistics, sys

folder = sys.argv[1] if len(sys.argv) > 1 else "device-out"
bench = json.load(open(os.path.join(folder, sys.argv[2] if len(sys.argv) > 2 else "localflow_bench.json")))
ctx = bench["context"]
times = {}  # (case, frame, variant, threads) -> [ms per repetition]
errors = []
for b in bench["benchmarks"]:
    if b.get("run_type", "iteration") != "iteration":
        continue
    m = re.match(r"(\w+)/(\w+)/(\w+)/threads:(\d+)", b.get("run_name", b["name"]))
    if not m:
        continue
    key = (m.group(1), m.group(2), m.group(3), int(m.group(4)))
    if b.get("error_occurred"):
        errors.append(f"{b['name']}: {b.get('error_message')}")
        continue
    scale = {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1e3}[b.get("time_unit", "ns")]
    times.setdefault(key, []).append(b["real_time"] * scale)

cpus = ctx.get("cpus", ctx.get("num_cpus"))
print(f"Host: {cpus} CPUs ({ctx.get('num_cpus')} online, {ctx.get('mhz_per_cpu')} MHz), SIMD target "
      f"{ctx.get('simd_target')}; load average during the run {ctx.get('load_avg')}; "
      f"{ctx.get('date')}.\n")
for e in errors:
    print(f"**error**: {e}\n")


def med(key):
    v = times.get(key)
    return statistics.median(v) if v else None


def cell(key):
    v = times.get(key)
    if not v:
        return "-"
    return f"{statistics.median(v):.2f} [{min(v):.2f}-{max(v):.2f}] ({len(v)})"


cases = sorted({(c, f) for (c, f, _, _) in times}, key=lambda k: (k[0], k[1]))
names = {"bm_ncc": "bm, defaults (NCC)", "bm_sad": "bm, SAD", "lk": "lk, defaults"}
print("Per-frame time in ms: median [min-max] (repetitions). Speed-up = scalar median / SIMD "
      "median.\n")
print("| workload | frame | scalar (1 thread) | SIMD, 1 thread | speed-up per core | "
      "SIMD, all threads | threads | speed-up, all threads |")
print("|---|---|---|---|---|---|---|---|")
for c, f in cases:
    scalar = [k for k in times if k[0] == c and k[1] == f and k[2].endswith("_cpu")]
    simd = sorted(k for k in times if k[0] == c and k[1] == f and k[2].endswith("_simd"))
    if not scalar or not simd:
        continue
    s, one, top = scalar[0], simd[0], simd[-1]
    print(f"| {names.get(c, c)} | {f} | {cell(s)} | {cell(one)} | {med(s) / med(one):.2f} | "
          f"{cell(top)} | {top[3]} | {med(s) / med(top):.2f} |")
print()
threads = sorted({k[3] for k in times if k[2].endswith("_simd")})
print("Scaling of the SIMD variants: median ms per frame at n threads (efficiency t(1) / (n t(n))).\n")
print("| workload | frame | " + " | ".join(f"{t} thr." for t in threads) + " |")
print("|---|---|" + "---|" * len(threads))
for c, f in cases:
    var = "bm_simd" if c.startswith("bm") else "lk_simd"
    t1 = med((c, f, var, 1))
    row = []
    for t in threads:
        m = med((c, f, var, t))
        row.append("-" if m is None or t1 is None else f"{m:.2f} ({t1 / (t * m):.2f})")
    print(f"| {names.get(c, c)} | {f} | " + " | ".join(row) + " |")

log = os.path.join(folder, "test_simd_localflow.log")
if os.path.exists(log):
    text = open(log).read()
    ok = len(re.findall(r"^\[       OK \]", text, re.M))
    failed = re.findall(r"^\[  FAILED  \] (\w+\.\w+)", text, re.M)
    print(f"\ntest_simd_localflow.log: {ok} tests passed, {len(set(failed))} failed"
          + (f" ({', '.join(sorted(set(failed)))})" if failed else "") + ".")
for w in ("bm", "lk"):
    p = os.path.join(folder, f"tune_{w}.txt")
    if os.path.exists(p):
        lines = [l.strip() for l in open(p) if re.match(r"\[\d+/\d+\]", l) or "measured now" in l]
        print(f"\ntune_{w}.txt:\n" + "\n".join(f"    {l}" for l in lines))
