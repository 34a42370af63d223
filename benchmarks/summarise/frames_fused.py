#!/usr/bin/env python3
"""Before / after tables of the frame-path fusion and chunked host copies from the raw
outputs of benchmarks/run frames-fused (one folder, its $OUT, or a committed copy with .xz):
  tests.xml / tests.log         test_cuda's fusion tests (bit-identity checks);
  tests_frame.xml / .log        test_cuda's frame tests (vs the double reference and more);
  throughput.json               bench_frame_throughput, defaults (fused stages, chunked copies);
  throughput_before.json        its device_ms and latency rows, FUSED=0 HOST_CHUNKS=1, same call;
  throughput_threads8.json      its latency_host rows with 8 host-copy threads.
An optional second folder (e.g. results/kernels-profile/h200/2026-11-25) adds its throughput.json as a
column of an earlier call. Prints Markdown: test counts, the per-stage timeline, the latency
per API, the default-frame targets (<= 0.15 ms device-pointer API, <= 0.25 ms host API).
Values: median [min, max] over the benchmark's repetitions (5).
Python standard library only.
Usage: python3 -m benchmarks.summarise frames-fused FOLDER [BASELINE_FOLDER]"""
import os, sys
from benchmarks.summarise.google_benchmark import read_text, row_stats
import xml.etree.ElementTree as ET

folder = sys.argv[1] if len(sys.argv) > 1 else "device-out"
baseline = sys.argv[2] if len(sys.argv) > 2 else None


def read(name, where=None):
    """The text of name (or name.xz) in where (default FOLDER), else None."""
    return read_text(os.path.join(where or folder, name))


def load(name, where=None):
    """(context, {base name: {"median"|"min"|"max": row, "n": repetitions}}) of a Google
    Benchmark JSON in where (google_benchmark.row_stats)."""
    return row_stats(os.path.join(where or folder, name))


def ms(a, stat, key):
    """A counter (ms) or, for key None, the real time in ms."""
    row = a[stat]
    if key:
        return row.get(key)
    return row["real_time"] * {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1e3}[row.get("time_unit", "ms")]


def cell(runs, bench, key=None):
    a = runs.get(bench)
    if not a or ms(a, "median", key) is None:
        return "-", None
    v = [ms(a, s, key) for s in ("median", "min", "max")]
    return f"{v[0]:.3f} [{v[1]:.3f}, {v[2]:.3f}]", v[0]


gpu = (read("gpu.txt") or "").splitlines()
print(f"## The default frame: fused stages and chunked host copies "
      f"({gpu[1] if len(gpu) > 1 else 'unknown GPU'}; {folder})\n")
if len(gpu) > 2:
    print("; ".join(gpu[2:]) + "\n")

for xml_name, title in (("tests.xml", "fusion tests: bit-identity of the fused stages, frames and "
                                       "chunked host copies"),
                         ("tests_frame.xml", "frame tests they touch (stages vs double, the frame vs the "
                                             "reference, cache, timeline, per-level schemes)")):
    xml = read(xml_name)
    if not xml:
        print(f"{xml_name}: not in this folder.\n")
        continue
    passed, failed, skipped = [], [], []
    for c in ET.fromstring(xml).iter("testcase"):
        name = f"{c.get('classname')}.{c.get('name')}"
        if c.find("failure") is not None:
            failed.append(name)
        elif c.find("skipped") is not None or c.get("result") == "skipped":
            skipped.append(name)
        else:
            passed.append(name)
    print(f"### Tests: {title} (test_cuda, {xml_name})\n")
    print(f"{len(passed)} passed, {len(failed)} failed, {len(skipped)} skipped"
          + (f"; failed: {', '.join(failed)}" if failed else "")
          + (f"; skipped: {', '.join(skipped)}" if skipped else "") + "\n")
    for line in (read(xml_name[:-4] + ".log") or "").splitlines():
        if line.startswith("fused vs unfused:"):
            print(f"- {line}")
    print()

actx, after = load("throughput.json")
bctx, before = load("throughput_before.json")
_, threads8 = load("throughput_threads8.json")
base = load("throughput.json", baseline)[1] if baseline else {}
columns = [("before (same call: unfused, one host copy)", before), ("after (fused, chunked)", after)]
if base:
    columns.insert(0, (f"earlier call ({baseline})", base))
if not after:
    print("throughput.json: not in this folder.")
    sys.exit(0)
print(f"Config: {actx.get('config_default', '?')}; after: fused_stages {actx.get('fused_stages', '?')}, "
      f"host_copy_chunks {actx.get('host_copy_chunks', '?')}, host_copy_threads {actx.get('host_copy_threads', '?')}"
      + (f"; before: fused_stages {bctx.get('fused_stages', '?')}, host_copy_chunks "
         f"{bctx.get('host_copy_chunks', '?')}" if bctx else "") + ".\n")

protos = [p for p in ("default", "opencv_accuracy") if f"device_ms/{p}" in after]
order = ["host_in_ms", "st_upload_ms", "st_normalise_ms", "st_structure_texture_ms", "st_presmooth_ms",
         "st_pyramid_ms", "st_gradient_ms", "st_warping_ms", "st_iterations_ms", "st_median_ms",
         "st_zoom_in_ms", "st_to_planar_ms", "st_download_ms", "host_out_ms", "direct_ms", "device_ms", "call_ms"]
label = {"host_in_ms": "host: frames into the pinned buffer (one copy)",
         "host_out_ms": "host: flow out of the pinned buffer (one copy)",
         "direct_ms": "sum of the stages (direct launches)", "device_ms": "**device time (graph)**",
         "call_ms": "**compute() wall clock (host API as configured)**"}
for p in protos:
    print(f"### Where the `{p}` frame goes (RubberWhale 584x388; ms, median [min, max] over 5 repetitions "
          "of cuda::profile_frame over 50 frames)\n")
    print("Stages: CUDA events around each stage of a directly launched frame, summed over the levels "
          "(with fused stages, gradient and zoom_in run inside the warping's launch); device (graph): "
          "upload + graph + download; the stage table always times the one-copy host path, compute() "
          "the configured one.\n")
    keys = []
    for _, runs in columns:
        for k in (runs.get(f"device_ms/{p}") or {}).get("median", {}):
            if (k.startswith("st_") or k in order) and k not in keys:
                keys.append(k)
    keys.sort(key=lambda k: order.index(k) if k in order else len(order) - 3)
    print("| part | " + " | ".join(n for n, _ in columns) + " |")
    print("|---|" + "---|" * len(columns))
    for k in keys:
        print(f"| {label.get(k, k[3:-3] if k.startswith('st_') else k)} | "
              + " | ".join(cell(runs, f"device_ms/{p}", k)[0] for _, runs in columns) + " |")
    print()

print("### Latency per frame, ms, median [min, max] over 5 repetitions\n")
print("| protocol | sequence | API | " + " | ".join(n for n, _ in columns) + " | after / before |")
print("|---|---|---|" + "---|" * len(columns) + "---|")
for p in protos:
    for s in ("RubberWhale", "Grove2"):
        for api, key in (("host (compute_into)", "latency_host"), ("device-pointer", "latency_device")):
            cells = [cell(runs, f"{key}/{p}/{s}") for _, runs in columns]
            b, a = cell(before, f"{key}/{p}/{s}")[1], cell(after, f"{key}/{p}/{s}")[1]
            ratio = f"{a / b:.2f}" if a and b else "-"
            print(f"| {p} | {s} | {api} | " + " | ".join(c[0] for c in cells) + f" | {ratio} |")
print()

if threads8:
    print("### Host API with 8 host-copy threads (after's defaults otherwise), ms\n")
    print("| protocol | sequence | default threads | 8 threads |")
    print("|---|---|---|---|")
    for p in protos:
        for s in ("RubberWhale", "Grove2"):
            print(f"| {p} | {s} | {cell(after, f'latency_host/{p}/{s}')[0]} | "
                  f"{cell(threads8, f'latency_host/{p}/{s}')[0]} |")
    print()

if "default" in protos:
    print("### Default frame targets (3 scales, 1 warping, 10 iterations), after\n")
    print("| target | RubberWhale | Grove2 | status |")
    print("|---|---|---|---|")
    for api, key, limit in (("device-pointer API", "latency_device", 0.15), ("host API", "latency_host", 0.25)):
        cs = [cell(after, f"{key}/default/{s}") for s in ("RubberWhale", "Grove2")]
        meds = [c[1] for c in cs if c[1] is not None]
        st = "-" if not meds else ("met" if max(meds) <= limit else f"**missed** ({max(meds) / limit:.2f}x)")
        print(f"| {api} <= {limit} ms | {cs[0][0]} | {cs[1][0]} | {st} |")
    print()
