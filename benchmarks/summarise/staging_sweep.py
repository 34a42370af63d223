#!/usr/bin/env python3
"""The host API's staging options (FrameOptions::host_copy_chunks and host_copy_threads) on the
tuned config at OpenCV's accuracy, from the Google Benchmark JSON files of one benchmark run:
FOLDER/chunks<C>_threads<T>.json (bench_frame_throughput, latency_host and latency_host_u8 rows
of protocol `tuned`, FLOWTUNE_THROUGHPUT_HOST_CHUNKS=C, FLOWTUNE_THROUGHPUT_HOST_COPY_THREADS=T;
-1 = the default thread count). Prints a table of medians [min, max] over the 5 repetitions, in
ms per frame. Python standard library only.
Usage: python3 -m benchmarks.summarise staging-sweep FOLDER"""
import glob, json, os, re, sys

folder = sys.argv[1] if len(sys.argv) > 1 else "."
SEQS = ("RubberWhale", "Grove2")
APIS = (("latency_host", "float host API"), ("latency_host_u8", "8-bit host API"))


def runs(path):
    """{(api, seq): [real_time ms of each repetition]}"""
    out = {}
    for b in json.load(open(path))["benchmarks"]:
        if b.get("aggregate_name"):
            continue
        parts = b["run_name"].split("/")
        out.setdefault((parts[0], parts[2]), []).append(b["real_time"])
    return out


def median(v):
    s = sorted(v)
    n = len(s)
    return s[n // 2] if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2


rows = []
for path in glob.glob(os.path.join(folder, "chunks*_threads*.json")):
    m = re.search(r"chunks(-?\d+)_threads(-?\d+)\.json$", path)
    rows.append((int(m.group(1)), int(m.group(2)), runs(path)))
rows.sort(key=lambda r: (r[0] != 8 or r[1] != -1, r[0], r[1]))
print("| host_copy_chunks | host_copy_threads | " +
      " | ".join(f"{label} {s}" for _, label in APIS for s in SEQS) + " | mean float | mean 8-bit |")
print("|---|---|" + "---|" * (len(APIS) * len(SEQS) + 2))
for chunks, threads, r in rows:
    cells, means = [], []
    for api, _ in APIS:
        meds = []
        for s in SEQS:
            v = r.get((api, s))
            if not v:
                cells.append("-")
                continue
            meds.append(median(v))
            cells.append(f"{median(v):.3f} [{min(v):.3f}, {max(v):.3f}]")
        means.append(f"{sum(meds) / len(meds):.3f}" if len(meds) == len(SEQS) else "-")
    t = "default" if threads < 0 else str(threads)
    print(f"| {chunks} | {t} | " + " | ".join(cells + means) + " |")
