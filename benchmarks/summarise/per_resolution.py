#!/usr/bin/env python3
"""What tuning at the deployment resolution buys, from benchmarks/run per-resolution's outputs
in FOLDER: for each picks_<size>.json, the main job's native pick measured at that size
(native_at_<size>.txt), and the picks of `tune --resolution <size>` from the store
at_<size>.db.xz: the fastest config at least as accurate as the native pick there, and the
most accurate within its time. Time: median of the tuner's repeated frames [min, max].
Usage: python3 -m benchmarks.summarise per-resolution FOLDER. Python standard library only."""
import glob
import json
import lzma
import os
import sqlite3
import sys
import tempfile


def open_store(path):
    """sqlite3 connection to a decompressed copy of the xz-compressed store PATH."""
    copy = tempfile.mktemp(suffix=".db")
    with open(copy, "wb") as f:
        f.write(lzma.open(path).read())
    return sqlite3.connect(copy)


def figures(db, config):
    """(time_ms median, min, max, aepe, label) of CONFIG (an export --json config) in DB, or
    None when it was not measured."""
    q = """select m.time_ms_median, m.time_ms_min, m.time_ms_max, x.value, c.label,
                  c.tunables_json, c.params_json from measurements m
           join configs c on c.id = m.config_id
           join metrics x on x.measurement_id = m.id and x.item = '' and x.name = 'aepe'
           where c.variant = ? and c.precision = ?"""
    for t, lo, hi, a, label, tun, par in db.execute(q, (config["variant"], config["precision"])):
        if json.loads(tun) == config["tunables"] and json.loads(par) == config["params"]:
            return t, lo, hi, a, label
    return None


def picks(path):
    """The picks JSON of PATH, whose entries are export --json objects (or error text)."""
    text = open(path).read()
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return {"error": text.strip()}


def main(folder):
    rows = []
    for path in sorted(glob.glob(os.path.join(folder, "picks_*.json"))):
        p = picks(path)
        size = p.get("size") or os.path.basename(path)[6:-5]
        store = os.path.join(folder, f"at_{size}.db.xz")
        if "error" in p or not os.path.exists(store):
            rows.append(f"| {size} | (no picks: {p.get('error', 'no store')[:80]}) | | | |")
            continue
        db = open_store(store)
        n = db.execute("select count(*) from measurements").fetchone()[0]
        fast = figures(db, p["fastest_as_accurate"]["config"])
        acc = figures(db, p["most_accurate_as_fast"]["config"])
        t0, a0 = p["native_time_ms"], p["native_aepe"]
        # The native pick is the one measurement of the store's first run.
        lo, hi = db.execute("""select time_ms_min, time_ms_max from measurements
                               where run_id = (select min(run_id) from measurements)""").fetchone()
        rows.append(
            f"| {size} | {t0:.3f} [{lo:.3f}, {hi:.3f}] ms, AEPE {a0:.4f} | "
            f"{fast[0]:.3f} [{fast[1]:.3f}, {fast[2]:.3f}] ms, AEPE {fast[3]:.4f}: "
            f"**{t0 / fast[0]:.2f}x** faster | "
            f"AEPE {acc[3]:.4f} at {acc[0]:.3f} ms ({(a0 - acc[3]) / a0 * 100:.1f}% lower) | {n} |")
        rows.append(f"|  | | `{fast[4]}` | `{acc[4]}` | |")
    print("# Per-resolution tuning\n")
    print("The main job's pick at Middlebury's own sizes (fastest at AEPE <= 0.25) against the "
          "picks of `tune --resolution` at each size, on RubberWhale + Grove2 resampled.\n")
    print("| size | native pick there | fastest as accurate | most accurate as fast | points |")
    print("|---|---|---|---|---|")
    print("\n".join(rows))


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else ".")
