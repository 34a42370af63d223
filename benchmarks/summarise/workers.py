#!/usr/bin/env python3
"""Points per second of tuning runs with 1 and more workers, from their stores.

Reads FOLDER/<name>.db.xz for each NAME given (flowtune SQLite stores written by `tune
--workers N`; benchmarks/run distributed-one-gpu writes workers1_cold, workers2_cold,
workers1_warm, workers2_warm). Per store: the points measured (distinct configs with a
measurement; each point is measured on every item of the dataset), the seconds from the run's
start to its last measurement, points per second over that span, the seconds to the K-th point
(K = the fewest points any of the stores measured, so every run is compared on as many points)
and, against the first store named, the ratio of points per second. Measurement time stamps are
the store's (millisecond UTC). Python standard library only.
Usage: python3 -m benchmarks.summarise workers FOLDER NAME [NAME...]"""
import lzma
import os
import sqlite3
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _store import seconds_of  # noqa: E402


def load(folder, name):
    """(run start in s, sorted times in s of each point's last measurement) of FOLDER/NAME.db.xz."""
    src = os.path.join(folder, name + ".db.xz")
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "store.db")
        with open(path, "wb") as f:
            f.write(lzma.open(src).read())
        db = sqlite3.connect(path)
        start = db.execute("select min(started_at) from runs").fetchone()[0]
        stamps = [r[0] for r in db.execute(
            "select max(measured_at) from measurements group by config_id")]
        db.close()
    if start is None:
        raise ValueError(f"{src}: no run")
    return seconds_of(start), sorted(seconds_of(s) for s in stamps)


def main(argv):
    if len(argv) < 2:
        print("usage: python3 -m benchmarks.summarise workers FOLDER NAME [NAME...]", file=sys.stderr)
        return 2
    folder, names = argv[0], argv[1:]
    runs = {}
    for n in names:
        try:
            runs[n] = load(folder, n)
        except (OSError, lzma.LZMAError, sqlite3.Error, ValueError) as e:
            print(f"workers: {n}: {e}", file=sys.stderr)
            return 1
    k = min(len(t) for _, t in runs.values())
    if k == 0:
        print("workers: a store has no measured point", file=sys.stderr)
        return 1
    print(f"| run | points | start to last point, s | points/s | s to point {k} | "
          f"points/s to point {k} | against {names[0]} |")
    print("|---|---|---|---|---|---|---|")
    base = None
    for n in names:
        start, t = runs[n]
        span = t[-1] - start
        to_k = t[k - 1] - start
        rate_k = k / to_k if to_k > 0 else float("nan")
        base = rate_k if base is None else base
        print(f"| {n} | {len(t)} | {span:.1f} | {len(t) / span:.2f} | {to_k:.1f} | {rate_k:.2f} | "
              f"{rate_k / base:.2f}x |")
    return 0


sys.exit(main(sys.argv[1:]))
