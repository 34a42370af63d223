#!/usr/bin/env python3
"""How much of a graph frame's device time its kernels fill, from two Nsight Compute profiles.

Reads, per target, FOLDER/<target>.graph.raw.csv (`ncu --graph-profiling graph --metrics
gpu__time_duration.sum`: one row named "graph" per cudaGraphLaunch, the whole graph as one
workload from its first node's start to its last node's end, and one row per kernel launched
outside a graph, which are left out) and FOLDER/<target>.raw.csv (`ncu` of the same frame's
kernels launched one by one: one row per kernel with gpu__time_duration.sum); both `ncu --import
R --csv --page raw` output written by benchmarks/run frame-profile; .xz copies are read too.

Per target it prints the graph's duration G (median [min, max] over the graph launches
profiled), the number of kernels N of one frame and their summed duration K, and G - K: the time
the graph takes beyond its kernels' own durations (launch latency between dependent nodes,
dependencies, copies), per kernel boundary (G - K) / (N - 1); and the share of G that the
kernels fill. Both profiles run under the same ncu settings (serialised, clocks not fixed), so
G and K are comparable to each other, not to a latency measured without the profiler.
Python standard library only.
Usage: python3 -m benchmarks.summarise frame-timeline FOLDER [TARGET...]
(default targets: frame_default, frame_tuned)"""
import csv
import io
import os
import sys

DESCRIBED = {
    "frame_default": "default frame (3 scales x 1 warping x 10 iterations)",
    "frame_tuned": "the tuned header's frame at OpenCV's accuracy",
}
TIME_US = {"nsecond": 1e-3, "ns": 1e-3, "usecond": 1.0, "us": 1.0, "msecond": 1e3, "ms": 1e3,
           "second": 1e6, "s": 1e6}
DURATION = "gpu__time_duration.sum"


class RawError(ValueError):
    pass


def read(path):
    """Text of path (or path.xz through the package's open), None when neither exists."""
    try:
        with open(path) as f:
            return f.read()
    except FileNotFoundError:
        return None


def durations_us(text, path, graphs_only=False):
    """The gpu__time_duration.sum of the profiled rows of an ncu raw CSV, in us; with
    graphs_only, of the rows whose kernel name is "graph" (the graph workloads of a
    `--graph-profiling graph` run, which also lists the kernels launched outside graphs)."""
    lines = text.splitlines()
    # ncu may print notices ("==PROF== ...") before the header row, which starts with "ID".
    head = next((i for i, l in enumerate(lines) if l.startswith('"ID"')), None)
    if head is None:
        raise RawError(f"{path}: no header row (\"ID\", ...): not `ncu --csv --page raw` output")
    rows = list(csv.reader(io.StringIO("\n".join(lines[head:]))))
    if len(rows) < 2 or DURATION not in rows[0]:
        raise RawError(f"{path}: no {DURATION} column")
    i = rows[0].index(DURATION)
    name = rows[0].index("Kernel Name") if "Kernel Name" in rows[0] else None
    unit = rows[1][i]
    if unit not in TIME_US:
        raise RawError(f"{path}: unknown unit '{unit}' of {DURATION}")
    out = []
    for r in rows[2:]:
        if graphs_only and (name is None or r[name] != "graph"):
            continue
        try:
            out.append(float(r[i].replace(",", "")) * TIME_US[unit])
        except (IndexError, ValueError):
            continue
    if not out:
        raise RawError(f"{path}: no profiled {'graph' if graphs_only else 'row'}")
    return out


def spread(values, fmt="{:.1f}"):
    """'median [min, max]' of values (the upper median for an even count)."""
    s = sorted(values)
    return f"{fmt.format(s[len(s) // 2])} [{fmt.format(s[0])}, {fmt.format(s[-1])}]"


def summarise(target, graphs, kernels):
    g = sorted(graphs)[len(graphs) // 2]
    n, k = len(kernels), sum(kernels)
    print(f"### {target}: {DESCRIBED.get(target, target)}\n")
    print(f"Sources: `{target}.graph.raw.csv` ({len(graphs)} graph launches), `{target}.raw.csv` "
          f"({n} kernels of one frame).\n")
    print("| figure | value |")
    print("|---|---|")
    print(f"| graph duration G, us (median [min, max]) | {spread(graphs)} |")
    print(f"| kernels per frame N | {n} |")
    print(f"| summed kernel duration K, us | {k:.1f} |")
    print(f"| G - K, us (beyond the kernels' own time) | {g - k:.1f} |")
    print(f"| per kernel boundary, (G - K) / (N - 1), us | {(g - k) / max(1, n - 1):.2f} |")
    print(f"| kernels' share of G, % | {100 * k / g:.1f} |")
    print(f"| kernels under 5 us | {sum(1 for d in kernels if d < 5)} of {n} |")
    print()


def main(argv):
    if not argv:
        print("usage: " + __doc__.split("Usage: ")[1], file=sys.stderr)
        return 2
    folder, targets = argv[0], argv[1:] or ["frame_default", "frame_tuned"]
    found = False
    for target in targets:
        gpath = os.path.join(folder, target + ".graph.raw.csv")
        kpath = os.path.join(folder, target + ".raw.csv")
        gtext, ktext = read(gpath), read(kpath)
        if gtext is None or ktext is None:
            continue
        try:
            summarise(target, durations_us(gtext, gpath, graphs_only=True),
                      durations_us(ktext, kpath))
        except RawError as e:
            print(f"frame-timeline: {e}", file=sys.stderr)
            return 1
        found = True
    if not found:
        print(f"frame-timeline: no <target>.graph.raw.csv with its <target>.raw.csv in {folder} "
              f"for {', '.join(targets)}", file=sys.stderr)
        return 1
    return 0


sys.exit(main(sys.argv[1:]))
