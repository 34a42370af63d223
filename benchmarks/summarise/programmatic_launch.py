#!/usr/bin/env python3
"""Frames with and without programmatic dependent launch of the TV-L1 iteration kernels
(cuda::FrameOptions::programmatic_launch) from the raw outputs of benchmarks/run
programmatic-launch (one folder, its $OUT, or a committed copy with .xz):
  test_cuda.log                   the GPU tests (counts of passed and failed);
  throughput_on_<k>.json          bench_frame_throughput, programmatic launch on (run k);
  throughput_off_<k>.json         the same rows, FLOWTUNE_THROUGHPUT_PROGRAMMATIC=0 (run k),
the runs interleaved on, off, on, off in one call. Prints Markdown: per benchmark row the
median [min, max] over its repetitions of each run, and off / on of the medians per pair k.
The optional SUBJECT names what "on" and "off" switch in the title (default "the iteration
kernels"; benchmarks/run programmatic-frame-kernels passes "the frame stages' kernels", its
off runs having the iteration kernels' on). The optional TITLE replaces the title's
"Programmatic dependent launch of SUBJECT" for a switch of another kind (benchmarks/run
half2-median: "The half2 median", on = this build, off = the build before it).
Python standard library only.
Usage: python3 -m benchmarks.summarise programmatic-launch FOLDER [SUBJECT [TITLE]]"""
import os
import re
import sys

from benchmarks.summarise.google_benchmark import read_text, real_time_ms_stats


def runs(folder, mode):
    """{k: stats} of the throughput_<mode>_<k>.json files in folder, k ascending."""
    out = {}
    for name in sorted(os.listdir(folder)):
        m = re.fullmatch(r"throughput_" + mode + r"_(\d+)\.json(\.xz)?", name)
        if m:
            out[int(m.group(1))] = real_time_ms_stats(os.path.join(folder, name[:-3] if m.group(2)
                                                                  else name))[1]
    return dict(sorted(out.items()))


def cell(s):
    return f"{s['median']:.3f} [{s['min']:.3f}, {s['max']:.3f}]" if s else "-"


def main(folder, subject="the iteration kernels", title=None):
    on, off = runs(folder, "on"), runs(folder, "off")
    if not on or not off:
        sys.exit(f"programmatic-launch: {folder} has no throughput_on_<k>.json and "
                 "throughput_off_<k>.json")
    log = read_text(os.path.join(folder, "test_cuda.log")) or ""
    passed = re.search(r"\[  PASSED  \] (\d+) test", log)
    failed = re.search(r"(\d+) FAILED TEST", log)
    print(f"## {title or 'Programmatic dependent launch of ' + subject}: on against off\n")
    print(f"GPU tests (test_cuda.log): {passed.group(1) if passed else 0} passed, "
          f"{failed.group(1) if failed else 0} failed.\n")
    pairs = sorted(set(on) & set(off))
    head = "| benchmark | " + " | ".join(f"on {k} ms | off {k} ms | off / on {k}" for k in pairs)
    print(head + " |")
    print("|---|" + "---|---|---|" * len(pairs))
    names = sorted(set().union(*(r.keys() for r in on.values())))
    for name in names:
        cells = []
        for k in pairs:
            a, b = on[k].get(name), off[k].get(name)
            ratio = f"{b['median'] / a['median']:.3f}" if a and b else "-"
            cells += [cell(a), cell(b), ratio]
        print(f"| {name} | " + " | ".join(cells) + " |")
    print("\nValues: ms per frame, median [min, max] over the benchmark's repetitions "
          "(device_ms: the device time of a graph frame; latency_*: wall time of one call).")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "device-out", *sys.argv[2:4])
