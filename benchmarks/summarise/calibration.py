#!/usr/bin/env python3
"""Turns a bench_tvl1_iterations Markdown table (as results/kernels-2048/h200/2026-11-23/iterations.md) into a
calibration CSV of the performance model (model/calibration/*.csv): the 2048^2 rows, one per
variant x precision, flop_per_px = GFLOP/s x ns/px.
Usage: calibration-from-iterations TABLE.md BOARD [SOURCE_TEXT] > calibration.csv"""
import sys


def main(path, board, source):
    print(f"# Calibration of the performance model on {board}. Source: {source}")
    print("board,variant,precision,tunables,ns_per_px,flop_per_px")
    header = None
    for line in open(path):
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if "ns/px" in cells and "variant" in cells:
            header = cells
            continue
        if not header or len(cells) != len(header) or not cells[0].startswith("2048"):
            continue
        row = dict(zip(header, cells))
        tunables = " ".join(row["best tunables"].split()[2:])
        ns = float(row["ns/px"])
        flop = float(row["GFLOP/s"]) * ns if "GFLOP/s" in row else 530.0
        print(f"{board},{row['variant']},{row['precision']},{tunables},{ns},{flop:.1f}")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], sys.argv[3] if len(sys.argv) > 3 else sys.argv[1])
