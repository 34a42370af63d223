#!/usr/bin/env python3
"""The tiled levels' kernel shapes from the raw outputs of benchmarks/run tiled-shapes (one
folder, its $OUT, or a committed copy whose files may be .xz-compressed):
  tests.xml                 test_cuda's frame, fusion and tiled-build tests;
  t<T>_d<D>_c<C>.json       bench_frame_throughput's latency_device rows of the tuned and the
                            default frame with tiled_t T, tiled_depth D, tiled_coarsen C, the
                            median in the tiled levels' last launch (FrameOptions::tiled_median);
  t<T>_d<D>_c<C>_m0.json    the same with the median as its own launch;
  t<T>_d<D>_c<C>_m0_all.json  the default frame with tiled_px 1048576 (every level tiled, the
                            finest included), median as its own launch.
Prints Markdown: the test counts and, per shape, the region and tile (pixels per side), the
share of the region that is output (tile^2 / region^2), launches per 15 and per 10 iterations
(without the median; with a median of radius 2 in the last launch, 1 + ceil((n - D + 2) / D)),
where the median runs, and the latency of each frame, median [min, max] over the repetitions (ms), with the mean of
RubberWhale and Grove2 and its ratio to the (32, 4, 1) shape's mean. Shapes sorted by the tuned
frame's mean. Python standard library only.
Usage: python3 -m benchmarks.summarise tiled-shapes FOLDER"""
import math
import os
import re
import sys

from benchmarks.summarise._gtest_xml import tests_line
from benchmarks.summarise.google_benchmark import read_text, real_time_ms_stats

SEQUENCES = ("RubberWhale", "Grove2")
BASELINE = (32, 4, 1, 0)  # the shape and median launch of every config before both were options


def tests_summary(folder):
    return tests_line("tests.xml", read_text(os.path.join(folder, "tests.xml")))


def shapes(folder):
    """{(T, D, C, M): {protocol: {sequence: stats}}} of every t<T>_d<D>_c<C>[_m0].json(.xz);
    M = 1 where the median ran in the tiled launch, 0 where it was its own launch."""
    out = {}
    for name in sorted(os.listdir(folder)):
        m = re.fullmatch(r"t(\d+)_d(\d+)_c(\d+)(_m0)?\.json(\.xz)?", name)
        if not m:
            continue
        key = tuple(int(m.group(i)) for i in (1, 2, 3)) + (0 if m.group(4) else 1,)
        _, rows = real_time_ms_stats(os.path.join(folder, name[:-3] if m.group(5) else name))
        per = {}
        for row, s in rows.items():
            parts = row.split("/")
            if len(parts) == 3 and parts[0] == "latency_device":
                per.setdefault(parts[1], {})[parts[2]] = s
        out[key] = per
    return out


def all_levels(folder):
    """{(T, D, C): {sequence: stats}} of the default frame's rows in every
    t<T>_d<D>_c<C>_m0_all.json(.xz)."""
    out = {}
    for name in sorted(os.listdir(folder)):
        m = re.fullmatch(r"t(\d+)_d(\d+)_c(\d+)_m0_all\.json(\.xz)?", name)
        if not m:
            continue
        _, rows = real_time_ms_stats(os.path.join(folder, name[:-3] if m.group(4) else name))
        per = {}
        for row, st in rows.items():
            parts = row.split("/")
            if len(parts) == 3 and parts[0] == "latency_device" and parts[1] == "default":
                per[parts[2]] = st
        out[tuple(int(m.group(i)) for i in (1, 2, 3))] = {"default": per}
    return out


def launches_for(n, depth, median_in_tiled):
    """Tiled launches of n iterations at depth: ceil(n / depth), or with a 5 x 5 median in the
    last launch (at most depth - 2 iterations there) 1 + ceil((n - depth + 2) / depth)."""
    if not median_in_tiled or depth <= 2:
        return math.ceil(n / depth)
    last = min(depth - 2, n)
    return 1 + math.ceil((n - last) / depth)


def mean_of(per, protocol):
    rows = per.get(protocol, {})
    if not all(q in rows for q in SEQUENCES):
        return None
    return sum(rows[q]["median"] for q in SEQUENCES) / len(SEQUENCES)


def cell(per, protocol, base):
    rows = per.get(protocol, {})
    parts = []
    for q in SEQUENCES:
        s = rows.get(q)
        parts.append("-" if s is None else f"{s['median']:.3f} [{s['min']:.3f}, {s['max']:.3f}]")
    m = mean_of(per, protocol)
    tail = "-" if m is None else f"{m:.3f}" + ("" if not base else f" ({m / base:.3f}x)")
    return " / ".join(parts) + " | " + tail


def main(folder):
    data = shapes(folder)
    print("### Tiled levels' kernel shapes\n")
    print(tests_summary(folder) + "\n")
    if not data:
        print("No t<T>_d<D>_c<C>.json in the folder.")
        return 1
    base = data.get(BASELINE, {})
    b_tuned, b_default = mean_of(base, "tuned"), mean_of(base, "default")
    print("| tiled_t | tiled_depth | tiled_coarsen | 5 x 5 median (tuned frame) | region / tile px | output share | launches per 15 / 10 it. "
          "| tuned frame RubberWhale / Grove2, ms | mean (vs 32/4/1) | default frame RubberWhale / Grove2, ms "
          "| mean (vs 32/4/1) |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    order = sorted(data, key=lambda k: (mean_of(data[k], "tuned") or math.inf, k))
    for t, d, c, med in order:
        per = data[(t, d, c, med)]
        region, tile = t * c, t * c - 2 * d
        share = tile * tile / (region * region)
        launches = [launches_for(n, d, med) for n in (15, 10)]
        where = "tiled launch" if med and d > 2 else "own launch"
        print(f"| {t} | {d} | {c} | {where} | {region} / {tile} | {share:.2f} | {launches[0]} / {launches[1]} "
              f"| {cell(per, 'tuned', b_tuned)} | {cell(per, 'default', b_default)} |")
    if not base:
        print("\nNo t32_d4_c1_m0 (the earlier shape and median launch): no ratios.")
    best = order[0]
    print(f"\nBest for the tuned frame: tiled_t {best[0]}, tiled_depth {best[1]}, tiled_coarsen {best[2]}"
          f", median {'in the tiled launch' if best[3] and best[1] > 2 else 'its own launch'}.")
    d_order = sorted(data, key=lambda k: (mean_of(data[k], "default") or math.inf, k))
    b = d_order[0]
    print(f"Best for the default frame: tiled_t {b[0]}, tiled_depth {b[1]}, tiled_coarsen {b[2]}"
          f", median {'in the tiled launch' if b[3] and b[1] > 2 else 'its own launch'}.")
    every = all_levels(folder)
    if every:
        print("\n#### The default frame with every level tiled (tiled_px 1048576, median apart)\n")
        print("Ratios against the default frame of the (32, 4, 1) shape with tiled_px 65536 above.\n")
        print("| tiled_t | tiled_depth | tiled_coarsen | launches per 10 it. | default frame RubberWhale / Grove2, ms "
              "| mean (vs 32/4/1, tiled_px 65536) |")
        print("|---|---|---|---|---|---|")
        for t, d, c in sorted(every, key=lambda k: (mean_of(every[k], "default") or math.inf, k)):
            print(f"| {t} | {d} | {c} | {launches_for(10, d, False)} | {cell(every[(t, d, c)], 'default', b_default)} |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "device-out"))
