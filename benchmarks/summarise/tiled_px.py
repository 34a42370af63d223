#!/usr/bin/env python3
"""Table of results/frames-api/h200/2026-11-24/summary.md's tiled_px section from bench_frame_throughput's JSON
(results/frames-api/h200/2026-11-24/tiled_px/tiled_<tiled_px>_<bx>x<by>.json, written on the device by
FLOWTUNE_THROUGHPUT_TILED_PX=T FLOWTUNE_THROUGHPUT_BLOCK_X/Y=... bench_frame_throughput
--benchmark_filter='(device_ms|latency_host|latency_device)/opencv_accuracy'): per config the
median [min, max] over 5 repetitions of the device time per frame and of the host and
device-pointer latencies, mean of RubberWhale and Grove2, with the AEPE of each sequence.
Usage: python3 -m benchmarks.summarise tiled-px [folder]"""
import glob, json, os, re, sys

folder = sys.argv[1] if len(sys.argv) > 1 else "results/frames-api/h200/2026-11-24/tiled_px"


def stats(bench, prefix):
    """{name: (median, min, max)} of the aggregates of benchmarks starting with prefix."""
    out = {}
    for b in bench:
        if not b["name"].startswith(prefix) or b.get("run_type") != "aggregate":
            continue
        base = b["run_name"]
        key = b["aggregate_name"]
        value = b.get("device_ms", b["real_time"]) if prefix == "device_ms" else b["real_time"]
        out.setdefault(base, {})[key] = value
        if "aepe" in b:
            out[base]["aepe"] = b["aepe"]
    return out


print("| tiled_px | block | device ms (graph) | host API ms, mean RW+G2 | device-pointer API ms, mean RW+G2 | AEPE RubberWhale | AEPE Grove2 |")
print("|---|---|---|---|---|---|---|")
rows = []
for path in glob.glob(os.path.join(folder, "tiled_*.json")):
    t, bx, by = re.search(r"tiled_(\d+)_(\d+)x(\d+)\.json", path).groups()
    bench = json.load(open(path))["benchmarks"]
    dev = list(stats(bench, "device_ms").values())[0]
    host = stats(bench, "latency_host")
    devp = stats(bench, "latency_device")

    def mean(d, k):
        return sum(v[k] for v in d.values()) / len(d)

    aepe = {n.split("/")[2]: v.get("aepe") for n, v in host.items()}
    rows.append((int(t), f"{bx}x{by}",
                 f"{dev['median']:.3f} [{dev['min']:.3f}, {dev['max']:.3f}]",
                 f"{mean(host, 'median'):.3f} [{mean(host, 'min'):.3f}, {mean(host, 'max'):.3f}]",
                 f"{mean(devp, 'median'):.3f} [{mean(devp, 'min'):.3f}, {mean(devp, 'max'):.3f}]",
                 f"{aepe.get('RubberWhale', float('nan')):.6f}", f"{aepe.get('Grove2', float('nan')):.6f}"))
for r in sorted(rows):
    print("| " + " | ".join(str(x) for x in r) + " |")
