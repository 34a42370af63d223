#!/usr/bin/env python3
"""Report table of the persistent levels from benchmarks/run persistent-levels's
raw output: FOLDER/pers_<name>.json (bench_frame_throughput, Google Benchmark JSON) and
FOLDER/test_persistent.log. Per config: the median [min, max] over 5 repetitions of the
device time per frame (CUDA Graph), of the host API and device-pointer API latencies (mean of
RubberWhale and Grove2), the AEPE of each sequence, and the iterations per pyramid level of a
directly launched frame (median repetition; us per iteration = ms / (5 warpings x 20
iterations) x 1000). Usage: python3 -m benchmarks.summarise persistent-levels FOLDER"""
import json, os, re, sys

folder = sys.argv[1] if len(sys.argv) > 1 else "results/persistent-levels/h200/2026-11-25"
configs = [
    ("tiled", "tiled_px 1048576, persistent off"),
    ("pers1", "persistent_px 1048576, 1 grid sync / iteration"),
    ("pers2", "persistent_px 1048576, 2 grid syncs / iteration"),
    ("pers1_t1k", "persistent_px 1048576, 1 sync, 1024 threads/block"),
    ("pers2_t1k", "persistent_px 1048576, 2 syncs, 1024 threads/block"),
    ("pers1_b1", "persistent_px 1048576, 1 sync, 1 block of 256/SM"),
    ("pers1_64k", "persistent_px 65536 + tiled_px 1048576"),
]
ITERATIONS_PER_LEVEL = 5 * 20


def aggregates(bench, prefix):
    """{run_name: {aggregate: value, counters...}} of the aggregates starting with prefix."""
    out = {}
    for b in bench:
        if not b["name"].startswith(prefix) or b.get("run_type") != "aggregate":
            continue
        d = out.setdefault(b["run_name"], {})
        value = b.get("device_ms", b["real_time"]) if prefix == "device_ms" else b["real_time"]
        d[b["aggregate_name"]] = value
        if b["aggregate_name"] == "median":
            d["counters"] = {k: v for k, v in b.items() if k.startswith("it_L") or k == "aepe"}
    return out


def spread(d):
    return f"{d['median']:.3f} [{d['min']:.3f}, {d['max']:.3f}]"


def mean_spread(ds):
    m = {k: sum(d[k] for d in ds) / len(ds) for k in ("median", "min", "max")}
    return spread(m)


log = os.path.join(folder, "test_persistent.log")
if os.path.exists(log):
    text = open(log, errors="replace").read()
    summary = [l.strip() for l in text.splitlines()
               if re.match(r"^\[  (PASSED|FAILED|SKIPPED) +\] \d+ tests?[,.]", l)]
    failed = sorted(set(re.findall(r"^\[  FAILED  \] (\w+\.\S+)", text, re.M)))
    print("Tests (test_persistent.log): " + "; ".join(summary) +
          (" -- failed: " + ", ".join(failed) if failed else ""))
    for l in text.splitlines():
        if l.startswith("[persistent]") or "blocks/SM" in l or "AEPE" in l:
            print("    " + l)
    print()

print("| config | device ms (graph) | host API ms, mean RW+G2 | device-pointer API ms, mean RW+G2 "
      "| AEPE RubberWhale | AEPE Grove2 | iterations per level, ms (us/iteration), L0..L4 |")
print("|---|---|---|---|---|---|---|")
for name, label in configs:
    path = os.path.join(folder, f"pers_{name}.json")
    if not os.path.exists(path):
        print(f"| {label} | missing | | | | | |")
        continue
    try:
        bench = json.load(open(path))["benchmarks"]
    except (ValueError, KeyError) as e:
        print(f"| {label} | unreadable ({e}) | | | | | |")
        continue
    dev = list(aggregates(bench, "device_ms").values())
    host = aggregates(bench, "latency_host")
    devp = aggregates(bench, "latency_device")
    if not dev or not host or not devp:
        print(f"| {label} | incomplete | | | | | |")
        continue
    aepe = {n.split("/")[2]: v["counters"].get("aepe", float("nan")) for n, v in host.items()}
    levels = dev[0]["counters"]
    per_level = ", ".join(
        f"{levels[k]:.3f} ({levels[k] / ITERATIONS_PER_LEVEL * 1000:.2f})"
        for k in sorted((k for k in levels if k.startswith("it_L")),
                        key=lambda k: int(re.search(r"\d+", k).group())))
    print(f"| {label} | {spread(dev[0])} | {mean_spread(list(host.values()))} | "
          f"{mean_spread(list(devp.values()))} | {aepe.get('RubberWhale', float('nan')):.6f} | "
          f"{aepe.get('Grove2', float('nan')):.6f} | {per_level} |")

# The peer, OpenCV's CUDA TV-L1, when its outputs sit beside these (same benchmark run:
# benchmarks/run peer-opencv): its median ms per frame (created stream) on each
# sequence and the ratios to the tiled baseline's host-API and device-pointer-API times.
peer = {}
for seq in ("RubberWhale", "Grove2"):
    try:
        text = open(os.path.join(folder, f"peer_flow_{seq}.txt")).read()
    except OSError:
        continue
    m = re.search(r"created stream:\s+median ([\d.]+) ms/frame\s+min ([\d.]+)\s+max ([\d.]+)", text)
    a = re.search(r"AEPE vs \S+: ([\d.]+)", text)
    if m and a:
        peer[seq] = (float(m.group(1)), float(m.group(2)), float(m.group(3)), float(a.group(1)))
base = os.path.join(folder, "pers_tiled.json")
if len(peer) == 2 and os.path.exists(base):
    bench = json.load(open(base))["benchmarks"]
    host = list(aggregates(bench, "latency_host").values())
    devp = list(aggregates(bench, "latency_device").values())
    pm = sum(v[0] for v in peer.values()) / 2
    pa = sum(v[3] for v in peer.values()) / 2
    hm = sum(d["median"] for d in host) / len(host)
    dm = sum(d["median"] for d in devp) / len(devp)
    print()
    print("OpenCV's CUDA TV-L1 in the same call (created stream, 10 frames): " + ", ".join(
        f"{s} {v[0]:.3f} ms [{v[1]:.3f}, {v[2]:.3f}] AEPE {v[3]:.4f}" for s, v in peer.items()) +
        f"; mean {pm:.3f} ms, mean AEPE {pa:.4f}. The tiled baseline (mean AEPE of the two "
        f"sequences above): {pm / hm:.1f}x through the host API ({hm:.3f} ms), "
        f"{pm / dm:.1f}x through the device-pointer API ({dm:.3f} ms).")
