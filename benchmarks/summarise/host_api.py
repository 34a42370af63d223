#!/usr/bin/env python3
"""Report tables of the frames through each API from the raw outputs of benchmarks/run frames-api (one folder: its $OUT):
throughput.json (Google Benchmark JSON of bench_frame_throughput), iterations.json / .log
(bench_tvl1_iterations at 2048^2), peer_*.txt (OpenCV's CUDA TV-L1, same call), test logs.
Medians over the repetitions with [min, max]. Python standard library only.
Usage: python3 -m benchmarks.summarise host-api FOLDER   (prints Markdown)"""
import json, os, re, sys
from benchmarks.summarise.google_benchmark import base_name, read_text

folder = sys.argv[1] if len(sys.argv) > 1 else "device-out"


def path(name):
    return os.path.join(folder, name)


def read(name):
    """The text of name, or of name.xz when the raw output was committed compressed."""
    return read_text(path(name))


def load_bench(name):
    """{base name: {aggregate: row}} of a Google Benchmark JSON file (aggregate rows only)."""
    text = read(name)
    if text is None:
        return None, {}
    data = json.loads(text)
    rows = {}
    for b in data.get("benchmarks", []):
        if b.get("run_type") != "aggregate":
            continue
        rows.setdefault(base_name(b["run_name"]), {})[b["aggregate_name"]] = b
    return data.get("context", {}), rows


def to_ms(row):
    scale = {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1e3}[row.get("time_unit", "ns")]
    return row["real_time"] * scale


def spread(aggs, key=None, fmt="{:.3f}"):
    """'median [min, max]' of real time in ms (key None) or of a counter."""
    if not aggs or "median" not in aggs:
        return "-"
    get = (lambda r: to_ms(r)) if key is None else (lambda r: r[key])
    med = get(aggs["median"])
    if "min" in aggs and "max" in aggs:
        return (fmt + " [" + fmt + ", " + fmt + "]").format(med, get(aggs["min"]), get(aggs["max"]))
    return fmt.format(med)


def median_of(aggs, key=None):
    if not aggs or "median" not in aggs:
        return None
    return to_ms(aggs["median"]) if key is None else aggs["median"][key]


def peer_flow(seq):
    """(median ms, min, max, AEPE) of the peer on a sequence, created stream, or None."""
    text = read(f"peer_flow_{seq}.txt")
    if not text:
        return None
    m = re.search(r"created stream:\s+median ([\d.]+) ms/frame\s+min ([\d.]+)\s+max ([\d.]+)", text)
    a = re.search(r"AEPE vs \S+: ([\d.]+)", text)
    if not m:
        return None
    return float(m.group(1)), float(m.group(2)), float(m.group(3)), float(a.group(1)) if a else None


def peer_paper():
    text = read("peer_paper_2048.txt")
    m = re.search(r"created stream:\s+median [\d.]+ ms\s+min [\d.]+ ms\s+-> ([\d.]+) ns/px \(median\), ([\d.]+) ns/px \(min\)", text or "")
    return (float(m.group(1)), float(m.group(2))) if m else None


gpu = (read("gpu.txt") or "").splitlines()
print(f"## Frames on {gpu[1] if len(gpu) > 1 else 'an unknown GPU'} ({folder})\n")
print("\n".join(gpu[2:]) + "\n")
for log in ("test_cuda_frames.log", "test_api.log"):
    text = read(log)
    if text:
        res = [l for l in text.splitlines() if re.match(r"\[  (PASSED|FAILED|SKIPPED) ", l)]
        print(f"- {log}: {'; '.join(res) or 'no summary line (crashed or timed out?)'}")
print()

context, rows = load_bench("throughput.json")
protocols = sorted({k.split("/")[1] for k in rows})
if rows:
    print("### Latency per frame (RubberWhale 584x388, Grove2 640x480), ms, median [min, max] over 5 repetitions\n")
    for p in protocols:
        print(f"- `{p}`: {context.get('config_' + p, '?')}")
    print("\nThe 8-bit host API (cuda::compute_flow_u8) runs on the frames' grey rounded to 8 bits; its AEPE is its own column.\n")
    print("| protocol | sequence | host API (compute_into) | 8-bit host API (compute_flow_u8) | device-pointer API | AEPE | AEPE 8-bit |")
    print("|---|---|---|---|---|---|---|")
    fmt_ae = lambda a: "-" if a is None else f"{a:.4f}"
    for p in protocols:
        for seq in ("RubberWhale", "Grove2"):
            h = rows.get(f"latency_host/{p}/{seq}")
            u = rows.get(f"latency_host_u8/{p}/{seq}")
            d = rows.get(f"latency_device/{p}/{seq}")
            print(f"| {p} | {seq} | {spread(h)} | {spread(u)} | {spread(d)} | "
                  f"{fmt_ae(median_of(h, 'aepe'))} | {fmt_ae(median_of(u, 'aepe'))} |")
        hs = [median_of(rows.get(f"latency_host/{p}/{s}")) for s in ("RubberWhale", "Grove2")]
        ds = [median_of(rows.get(f"latency_device/{p}/{s}")) for s in ("RubberWhale", "Grove2")]
        aes = [median_of(rows.get(f"latency_host/{p}/{s}"), "aepe") for s in ("RubberWhale", "Grove2")]
        us = [median_of(rows.get(f"latency_host_u8/{p}/{s}")) for s in ("RubberWhale", "Grove2")]
        uas = [median_of(rows.get(f"latency_host_u8/{p}/{s}"), "aepe") for s in ("RubberWhale", "Grove2")]
        if None not in hs + ds + aes:
            u_ms = "-" if None in us else f"{sum(us)/2:.3f}"
            u_ae = "-" if None in uas else f"{sum(uas)/2:.4f}"
            print(f"| {p} | **mean of the two** | {sum(hs)/2:.3f} | {u_ms} | {sum(ds)/2:.3f} | {sum(aes)/2:.4f} | {u_ae} |")
    print()
    LOCKED = (("latency_host_locked", "host API, page-locked"),
              ("latency_host_u8_locked", "8-bit host API, page-locked"))
    if any(k.startswith("latency_host_locked/") or k.startswith("latency_host_u8_locked/") for k in rows):
        print("With the caller's frames and flow page-locked (FlowSolver::page_lock): uploaded from and "
              "downloaded into them by DMA, no copy through the solver's pinned buffers.\n")
        print("| protocol | sequence | " + " | ".join(f"{label} | AEPE" for _, label in LOCKED) + " |")
        print("|---|---|" + "---|---|" * len(LOCKED))
        for p in protocols:
            for seq in ("RubberWhale", "Grove2", "mean"):
                cells = []
                for key, _ in LOCKED:
                    if seq == "mean":
                        ms = [median_of(rows.get(f"{key}/{p}/{s}")) for s in ("RubberWhale", "Grove2")]
                        ae = [median_of(rows.get(f"{key}/{p}/{s}"), "aepe") for s in ("RubberWhale", "Grove2")]
                        cells += ["-" if None in ms else f"**{sum(ms)/2:.3f}**",
                                  "-" if None in ae else f"{sum(ae)/2:.4f}"]
                    else:
                        r = rows.get(f"{key}/{p}/{seq}")
                        cells += [spread(r), fmt_ae(median_of(r, "aepe"))]
                print(f"| {p} | {seq} | " + " | ".join(cells) + " |")
        print()

    peers = {s: peer_flow(s) for s in ("RubberWhale", "Grove2")}
    if all(peers.values()):
        pm = sum(v[0] for v in peers.values()) / 2
        pa = sum(v[3] for v in peers.values()) / 2
        print("### Against OpenCV's CUDA TV-L1 (same benchmark run; OpenCV defaults, created stream, 10 frames)\n")
        print("| sequence | OpenCV ms/frame median [min, max] | OpenCV AEPE |")
        print("|---|---|---|")
        for s, v in peers.items():
            print(f"| {s} | {v[0]:.3f} [{v[1]:.3f}, {v[2]:.3f}] | {v[3]:.4f} |")
        print(f"| mean | {pm:.3f} | {pa:.4f} |\n")
        for p in protocols:
            hs = [median_of(rows.get(f"latency_host/{p}/{s}")) for s in peers]
            ds = [median_of(rows.get(f"latency_device/{p}/{s}")) for s in peers]
            aes = [median_of(rows.get(f"latency_host/{p}/{s}"), "aepe") for s in peers]
            if None in hs + ds + aes:
                continue
            ok = "<=" if sum(aes) / 2 <= pa else ">"
            print(f"- `{p}`: mean AEPE {sum(aes)/2:.4f} ({ok} OpenCV's {pa:.4f}); speed-up "
                  f"{pm / (sum(hs)/2):.1f}x through the host API, {pm / (sum(ds)/2):.1f}x through the device-pointer API (target 30x)")
            us = [median_of(rows.get(f"latency_host_u8/{p}/{s}")) for s in peers]
            uas = [median_of(rows.get(f"latency_host_u8/{p}/{s}"), "aepe") for s in peers]
            if None not in us + uas:
                uok = "<=" if sum(uas) / 2 <= pa else ">"
                print(f"- `{p}`, 8-bit host API: mean AEPE {sum(uas)/2:.4f} ({uok} OpenCV's {pa:.4f}); speed-up "
                      f"{pm / (sum(us)/2):.1f}x, {sum(us)/2:.3f} ms per frame (target 30x, <= 0.6 ms)")
            for key, label in (("latency_host_locked", "host API with page-locked frames and flow"),
                               ("latency_host_u8_locked", "8-bit host API with page-locked frames and flow")):
                ls = [median_of(rows.get(f"{key}/{p}/{s}")) for s in peers]
                las = [median_of(rows.get(f"{key}/{p}/{s}"), "aepe") for s in peers]
                if None not in ls + las:
                    lok = "<=" if sum(las) / 2 <= pa else ">"
                    print(f"- `{p}`, {label}: mean AEPE {sum(las)/2:.4f} ({lok} OpenCV's {pa:.4f}); speed-up "
                          f"{pm / (sum(ls)/2):.1f}x, {sum(ls)/2:.3f} ms per frame (target 30x, <= 0.6 ms)")
        print()
    else:
        print("OpenCV peer: no output in this folder (bundle missing or run failed).\n")

    print("### Device time per frame (CUDA events around upload + graph + download, median of 50 frames), ms\n")
    print("| protocol | device ms median [min, max] over 5 | bound frames/s (1000 / median) |")
    print("|---|---|---|")
    for p in protocols:
        d = rows.get(f"device_ms/{p}")
        med = median_of(d, "device_ms")
        print(f"| {p} | {spread(d, 'device_ms')} | {'-' if not med else f'{1000/med:.0f}'} |")
    print()

    print("### Throughput at constant size (RubberWhale every frame, 200 frames per repetition)\n")
    print("frames/s median [min, max] over 5 repetitions; of bound = frames/s x device ms per frame (target for 2 streams: >= 0.9).\n")
    print("| protocol | API | streams | frames/s | of bound |")
    print("|---|---|---|---|---|")
    for p in protocols:
        for api, key in (("host", "throughput_host"), ("device-pointer", "throughput_device")):
            for k in range(1, 5):
                r = rows.get(f"{key}/{p}/streams:{k}")
                print(f"| {p} | {api} | {k} | {spread(r, 'fps', '{:.0f}')} | {spread(r, 'of_bound', '{:.2f}')} |")
    print()

ctx, it_rows = load_bench("iterations.json")
md = read("iterations.md")
if md:
    print("### Paper protocol 2048^2 (1 scale, 1 warping, 10 iterations), bench_tvl1_iterations\n")
    log = read("iterations.log") or ""
    m = re.search(r"copy bandwidth: ([\d.]+) GB/s", log)
    if m:
        print(f"Copy floor measured in the same run: {m.group(1)} GB/s.\n")
    print(md.strip() + "\n")
pp = peer_paper()
if pp:
    print(f"OpenCV peer, same call, 2048^2 created stream: {pp[0]:.4f} ns/px (median), {pp[1]:.4f} ns/px (min).\n")
