#!/usr/bin/env python3
"""Tables of the paper protocol (2048^2) and of the frame timeline from the raw outputs of
benchmarks/run kernels-2048 (one folder, its $OUT, or a committed copy with .xz files):
  iterations.json  Google Benchmark JSON of bench_tvl1_iterations (FLOWTUNE_BENCH_REPETITIONS
                   repetitions: median/min/max aggregates; a JSON of one repetition is read too,
                   its spread is then that one run);
  iterations.log   the copy bandwidth when the JSON context lacks it (older runs);
  throughput.json  bench_frame_throughput (device_ms/<protocol> with st_<stage>_ms counters);
  peer_paper_2048.txt  OpenCV's CUDA TV-L1 on the paper protocol, same call.
Prints Markdown: the targets with met/missed, best config per variant x precision (ns/px
median [min, max] over the repetitions, x the copy floor, speed-up vs global f32 and vs
OpenCV), ns/px against pipeline depth (paper fig. 11), and the frame's per-stage timeline.
Latency, the OpenCV frame ratio and throughput: python3 -m benchmarks.summarise host-api FOLDER.
Python standard library only.
Usage: python3 -m benchmarks.summarise iterations FOLDER [ITERATIONS_JSON]   (ITERATIONS_JSON: the name of the
bench_tvl1_iterations JSON in FOLDER when it is not iterations.json, e.g. bench_2048.json of
results/kernels-2048/h200/2026-11-24)"""
import os, re, sys
from benchmarks.summarise.google_benchmark import read_text, row_stats

folder = sys.argv[1] if len(sys.argv) > 1 else "device-out"
iterations_json = sys.argv[2] if len(sys.argv) > 2 else "iterations.json"
TARGET_NS = {"f16": 0.025, "f32": 0.040}  # the paper-protocol targets (ns/px)
BYTES_PER_PX = {"f32": 60.0, "f16": 30.0, "mixed": 30.0}  # ARCHITECTURE.md's count


def read(name):
    """The text of FOLDER/name or FOLDER/name.xz, else None."""
    p = os.path.join(folder, name)
    return read_text(p)


def load(name):
    """(context, {base name: {"median"|"min"|"max": row, "n": repetitions}}) of FOLDER/name
    (google_benchmark.row_stats)."""
    return row_stats(os.path.join(folder, name))


def fmt3(a, key, f="{:.4f}"):
    return (f + " [" + f + ", " + f + "]").format(a["median"][key], a["min"][key], a["max"][key])


def peer_paper():
    m = re.search(r"created stream:\s+median [\d.]+ ms\s+min [\d.]+ ms\s+-> ([\d.]+) ns/px \(median\), "
                  r"([\d.]+) ns/px \(min\)", read("peer_paper_2048.txt") or "")
    return (float(m.group(1)), float(m.group(2))) if m else None


gpu = (read("gpu.txt") or "").splitlines()
print(f"## Reproducible tables ({gpu[1] if len(gpu) > 1 else 'unknown GPU'}; {folder})\n")
if len(gpu) > 2:
    print("; ".join(gpu[2:]) + "\n")

ctx, it = load(iterations_json)
if it:
    copy = float(ctx["copy_GB_per_s"]) if "copy_GB_per_s" in ctx else None
    if copy is None:
        m = re.search(r"copy bandwidth: ([\d.]+) GB/s", (read(iterations_json[:-5] + ".log") or read("iterations.log") or ""))
        copy = float(m.group(1)) if m else None
    reps = sorted({a["n"] for a in it.values()})
    rows = []
    for key, a in it.items():
        words = key.split(" ")
        if len(words) < 3 or "ns_per_px" not in a["median"]:
            continue
        rows.append((words[0], words[1], " ".join(words[2:-1]), words[-1], a))
    sizes = sorted({r[3] for r in rows}, key=int)
    pp = peer_paper()
    print("### Paper protocol (1 scale, 1 warping, 10 iterations), bench_tvl1_iterations\n")
    print(f"Repetitions per config: {', '.join(map(str, reps))} (ns/px: median [min, max] over them; each "
          "repetition's value is the median of its CUDA-event timed runs). "
          + (f"Copy bandwidth in the same run: {copy:.0f} GB/s; floor = bytes/px (60 f32, 30 f16/mixed) / "
             "copy bandwidth." if copy else "Copy bandwidth: not in this raw output.")
          + (f" OpenCV's CUDA TV-L1 in the same call: {pp[0]:.4f} ns/px (median), {pp[1]:.4f} (min)."
             if pp else " OpenCV peer: no output in this folder.") + "\n")
    for n in sizes:
        best = {}
        for v, p, tun, size, a in rows:
            if size == n and ((v, p) not in best or a["median"]["ns_per_px"] < best[(v, p)][1]["median"]["ns_per_px"]):
                best[(v, p)] = (tun, a)
        g = best.get(("global", "f32"))
        gns = g[1]["median"]["ns_per_px"] if g else None
        print(f"#### {n}^2: best config per variant x precision (by median)\n")
        print("| variant | precision | tunables | ns/px median [min, max] | x floor | GB/s (model bytes) | "
              "speed-up vs global f32 | vs OpenCV |")
        print("|---|---|---|---|---|---|---|---|")
        order = ["global", "shared_fusion", "shared_pipeline", "global_pipeline", "tiled"]
        for (v, p), (tun, a) in sorted(best.items(), key=lambda x: (order.index(x[0][0]) if x[0][0] in order else 9,
                                                                     ["f32", "f16", "mixed"].index(x[0][1]) if x[0][1] in ("f32", "f16", "mixed") else 9)):
            ns = a["median"]["ns_per_px"]
            floor = BYTES_PER_PX.get(p, 60.0) / copy if copy else None
            print(f"| {v} | {p} | {tun} | {fmt3(a, 'ns_per_px')} | {ns / floor:.1f} | "
                  f"{BYTES_PER_PX.get(p, 60.0) / ns:.0f} | {gns / ns:.2f} | {pp[0] / ns:.1f}x |"
                  if floor and gns and pp else
                  f"| {v} | {p} | {tun} | {fmt3(a, 'ns_per_px')} | {ns / floor:.1f} | "
                  f"{BYTES_PER_PX.get(p, 60.0) / ns:.0f} | {gns / ns if gns else 0:.2f} | - |"
                  if floor else
                  f"| {v} | {p} | {tun} | {fmt3(a, 'ns_per_px')} | - | - | {gns / ns if gns else 0:.2f} | - |")
        print()
        if n == "2048":
            print("#### Targets at 2048^2\n")
            print("| target | measured (median [min, max]) | status |")
            print("|---|---|---|")
            for prec in ("f16", "f32"):
                cand = [(a["median"]["ns_per_px"], v, tun, a) for (v, p), (tun, a) in best.items() if p == prec]
                if not cand:
                    continue
                ns, v, tun, a = min(cand, key=lambda c: c[0])
                floor = f"; {ns * copy / BYTES_PER_PX[prec]:.1f}x the copy floor" if copy else ""
                ok = "met" if ns <= TARGET_NS[prec] else f"**missed** ({ns / TARGET_NS[prec]:.1f}x)"
                print(f"| best {prec} <= {TARGET_NS[prec]} ns/px | {v} {tun}: {fmt3(a, 'ns_per_px')}{floor} | {ok} |")
            f16 = [a["median"]["ns_per_px"] for (v, p), (tun, a) in best.items() if p == "f16"]
            if f16 and gns:
                r = gns / min(f16)
                print(f"| best f16 >= 6x global f32 | {gns:.4f} / {min(f16):.4f} = {r:.2f}x | "
                      f"{'met' if r >= 6 else '**missed**'} |")
            print()
        depth = {}
        for v, p, tun, size, a in rows:
            m = re.search(r"depth=(\d+)", tun)
            if size == n and v == "shared_pipeline" and m and "parts=1" in tun and "skew=1" in tun:
                w = re.search(r"\bw=(\d+)", tun).group(1)
                sh = re.search(r"strip_h=(\d+)", tun).group(1)
                if sh == "32":
                    depth.setdefault((p, w), {})[int(m.group(1))] = a
        if depth:
            ds = sorted({d for v in depth.values() for d in v})
            print(f"#### {n}^2: shared_pipeline ns/px against the pipeline depth (paper fig. 11; strip_h 32; "
                  "10 iterations = ceil(10 / depth) launches)\n")
            print("| precision | w | " + " | ".join(f"depth {d}" for d in ds) + " |")
            print("|---|---|" + "---|" * len(ds))
            for (p, w), v in sorted(depth.items()):
                print(f"| {p} | {w} | " + " | ".join(fmt3(v[d], "ns_per_px") if d in v else "-" for d in ds) + " |")
            print()
else:
    print(f"{iterations_json}: not in this folder.\n")

tctx, tp = load("throughput.json")
protos = sorted({k.split("/")[1] for k in tp if k.startswith("device_ms/")})
if protos:
    print("### Where the frame goes (bench_frame_throughput device_ms rows; RubberWhale 584x388)\n")
    for p in protos:
        print(f"- `{p}`: {tctx.get('config_' + p, '?')}")
    print("\nms, median [min, max] over the repetitions; each repetition = cuda::profile_frame over 50 "
          "frames (medians). Stages: CUDA events around each stage of a directly launched frame, summed "
          "over the levels; device (graph): events around upload + graph + download.\n")
    keys = []
    for p in protos:
        for k in tp[f"device_ms/{p}"]["median"]:
            if (k.startswith("st_") or k in ("host_in_ms", "host_out_ms", "direct_ms", "device_ms", "call_ms")) \
                    and k not in keys:
                keys.append(k)
    if not any(k.startswith("st_") for k in keys):
        print("(this raw output has no st_<stage>_ms counters: it predates them)\n")
    order = ["host_in_ms", "st_upload_ms", "st_normalise_ms", "st_structure_texture_ms", "st_presmooth_ms",
             "st_pyramid_ms", "st_gradient_ms", "st_warping_ms", "st_iterations_ms", "st_median_ms",
             "st_zoom_in_ms", "st_to_planar_ms", "st_download_ms", "host_out_ms", "direct_ms", "device_ms", "call_ms"]
    keys.sort(key=lambda k: order.index(k) if k in order else len(order) - 3)
    label = {"host_in_ms": "host: frames into the pinned buffer", "host_out_ms": "host: flow out of the pinned buffer",
             "direct_ms": "sum of the stages (direct launches)", "device_ms": "**device time (graph)**",
             "call_ms": "**compute() wall clock**"}
    print("| part | " + " | ".join(protos) + " |")
    print("|---|" + "---|" * len(protos))
    for k in keys:
        cells = [fmt3(tp[f"device_ms/{p}"], k, "{:.3f}") if k in tp[f"device_ms/{p}"]["median"] else "-"
                 for p in protos]
        print(f"| {label.get(k, k[3:-3] if k.startswith('st_') else k)} | " + " | ".join(cells) + " |")
    print()
    lat = [(p, s) for p in protos for s in ("RubberWhale", "Grove2")]
    if "default" in protos:
        print("#### Default frame targets (3 scales, 1 warping, 10 iterations)\n")
        print("| target | RubberWhale median [min, max] | Grove2 median [min, max] | status |")
        print("|---|---|---|---|")
        for api, key, limit in (("device-pointer API", "latency_device", 0.15), ("host API", "latency_host", 0.25)):
            cells, meds = [], []
            for s in ("RubberWhale", "Grove2"):
                a = tp.get(f"{key}/default/{s}")
                if not a:
                    cells.append("-")
                    continue
                scale = {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1e3}[a["median"].get("time_unit", "ms")]
                v = [a[x]["real_time"] * scale for x in ("median", "min", "max")]
                meds.append(v[0])
                cells.append(f"{v[0]:.3f} [{v[1]:.3f}, {v[2]:.3f}]")
            st = "-" if not meds else ("met" if max(meds) <= limit else f"**missed** ({max(meds) / limit:.1f}x)")
            print(f"| {api} <= {limit} ms | {cells[0]} | {cells[1]} | {st} |")
        print()
else:
    print("throughput.json: not in this folder (or no device_ms rows).\n")
