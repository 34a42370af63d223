#!/usr/bin/env python3
"""Report tables of the temporally blocked structure-texture stage from
benchmarks/run rof's raw output in FOLDER:
  test_rof.log       -> the test counts and failures (TextureBlocked*, TextureStage*);
  texture_stage.json -> per sequence and k (Chambolle iterations per launch): graph nodes,
                        the stage's device ms launched directly and as a CUDA Graph, median
                        [min, max] of its runs, and the graph median's speed-up over k = 1;
  frame_k<k>.json    -> per protocol (opencv_texture, tuned) and k: device ms per frame (CUDA
                        Graph) median [min, max] over 5 repetitions, the structure-texture
                        stage of the directly launched frame (median repetition), host API and
                        device-pointer API latency per sequence, AEPE per sequence.
Usage: python3 -m benchmarks.summarise rof FOLDER"""
import glob, json, os, re, sys

folder = sys.argv[1] if len(sys.argv) > 1 else "results/opencv-accuracy/h200/2026-11-25/rof"


def spread(d):
    return f"{d['median']:.3f} [{d['min']:.3f}, {d['max']:.3f}]"


def load(path):
    try:
        return json.load(open(path))["benchmarks"]
    except (OSError, ValueError, KeyError) as e:
        print(f"{os.path.basename(path)}: unreadable ({e})")
        return None


log = os.path.join(folder, "test_rof.log")
if os.path.exists(log):
    text = open(log, errors="replace").read()
    summary = [l.strip() for l in text.splitlines()
               if re.match(r"^\[  (PASSED|FAILED|SKIPPED) +\] \d+ tests?[,.]", l)]
    failed = sorted(set(re.findall(r"^\[  FAILED  \] (\w+\.\S+)", text, re.M)))
    print("Tests (test_rof.log): " + "; ".join(summary) +
          (" -- failed: " + ", ".join(failed) if failed else ""))
    for l in text.splitlines():
        if "vs double" in l or "AEPE" in l or "first difference" in l:
            print("    " + l.strip())
    print()

stage = os.path.join(folder, "texture_stage.json")
rows = load(stage) if os.path.exists(stage) else None
if rows:
    by = {}
    for b in rows:
        m = re.match(r"texture_stage/(\w+)/k:(\d+)", b["name"])
        if m and b.get("run_type", "iteration") == "iteration" and not b.get("error_occurred"):
            by[(m.group(1), int(m.group(2)))] = b
    print("Structure-texture stage alone (normalisation, 100 Chambolle iterations, texture; "
          "both frames), device ms, median [min, max] of "
          f"{int(next(iter(by.values()))['reps']) if by else 0} runs (CUDA events):")
    print()
    print("| sequence | k (iterations / launch) | graph nodes | direct launches ms | "
          "CUDA Graph ms | graph speed-up vs k = 1 |")
    print("|---|---|---|---|---|---|")
    for (seq, k), b in sorted(by.items()):
        g = {s: b[f"graph_{s}_ms"] for s in ("median", "min", "max")}
        d = {s: b[f"direct_{s}_ms"] for s in ("median", "min", "max")}
        base = by.get((seq, 1))
        up = f"{base['graph_median_ms'] / g['median']:.2f}x" if base else "-"
        print(f"| {seq} | {k} | {int(b['graph_nodes'])} | {spread(d)} | {spread(g)} | {up} |")
    print()

frames = sorted(glob.glob(os.path.join(folder, "frame_k*.json")),
                key=lambda p: int(re.search(r"frame_k(\d+)", p).group(1)))
if frames:
    print("Frame (bench_frame_throughput), median [min, max] over 5 repetitions:")
    print()
    print("| protocol | k | device ms (graph) | structure_texture ms (direct frame) | "
          "host API ms RubberWhale | host API ms Grove2 | device-pointer ms RubberWhale | "
          "device-pointer ms Grove2 | AEPE RubberWhale | AEPE Grove2 | mean AEPE |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
for path in frames:
    k = int(re.search(r"frame_k(\d+)", path).group(1))
    bench = load(path)
    if bench is None:
        continue
    agg = {}
    for b in bench:
        if b.get("run_type") != "aggregate":
            continue
        d = agg.setdefault(b["run_name"], {})
        key = "device_ms" if b["run_name"].startswith("device_ms/") else "real_time"
        d[b["aggregate_name"]] = b.get(key, b["real_time"])
        if b["aggregate_name"] == "median":
            d["st"] = b.get("st_structure_texture_ms", float("nan"))
            d["aepe"] = b.get("aepe", float("nan"))
    for proto in sorted({n.split("/")[1] for n in agg}):
        dev = agg.get(f"device_ms/{proto}")
        cells = []
        for kind in ("latency_host", "latency_device"):
            for seq in ("RubberWhale", "Grove2"):
                d = agg.get(f"{kind}/{proto}/{seq}")
                cells.append(spread(d) if d and "min" in d else "missing")
        aepe = [agg.get(f"latency_host/{proto}/{s}", {}).get("aepe", float("nan"))
                for s in ("RubberWhale", "Grove2")]
        print(f"| {proto} | {k} | {spread(dev) if dev else 'missing'} | "
              f"{dev['st'] if dev else float('nan'):.3f} | " + " | ".join(cells) +
              f" | {aepe[0]:.4f} | {aepe[1]:.4f} | {(aepe[0] + aepe[1]) / 2:.4f} |")
